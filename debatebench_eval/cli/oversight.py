"""`debatebench-eval oversight compare` and `oversight persuasion`: known-answer runs read
back, protocols compared on the same questions and debaters rated by persuasiveness."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from debatebench_eval.core.errors import ConfigError, print_error
from debatebench_eval.core.log_folder import Note

T = TypeVar("T")


def add_commands(commands: Any) -> None:
    """Add `oversight compare` and `oversight persuasion` to the subcommands."""
    oversight = commands.add_parser(
        "oversight", help="known-answer runs: compare protocols, rate debaters' persuasiveness"
    )
    actions = oversight.add_subparsers(dest="action", metavar="ACTION", required=True)
    comparing = actions.add_parser(
        "compare",
        help="each protocol's accuracy and the paired differences (debate - consultancy, "
        "debate - naive, ...) with 95%% intervals over questions",
    )
    comparing.add_argument("logs", nargs="+", help="oversight logs (.eval/.json) or folders")
    comparing.add_argument("--json", action="store_true", help="print JSON, not Markdown")
    comparing.add_argument(
        "--plot", default="belief_by_round.png",
        help="where to draw the mean p_correct by round per protocol, when the logs hold "
        "the judge's belief round by round (-T judge_each_round=true; default "
        "./belief_by_round.png)",
    )  # fmt: skip
    comparing.set_defaults(run=_run_compare)
    rating = actions.add_parser(
        "persuasion",
        help="rate debater models by how often the judge sides with them (Bradley-Terry) "
        "and plot the judge's accuracy per pair against the pair's mean rating",
    )
    rating.add_argument("logs", nargs="+", help="debate or open oversight logs, or folders")
    rating.add_argument("-o", "--out", default="persuasion", help="folder (default ./persuasion)")
    rating.set_defaults(run=_run_persuasion)


def _read(command: str, reader: Callable[[list[str], list[Note]], T], logs: list[str]) -> T | None:
    """The logs read by `reader`, or None after one message naming what was wrong; each
    log passed over is named on stderr."""
    notes: list[Note] = []
    try:
        found = reader(logs, notes)
    except (ConfigError, FileNotFoundError) as exc:
        print_error(f"oversight {command}", exc)
        return None
    for note in notes:
        print(note, file=sys.stderr)
    return found


def _run_compare(args: argparse.Namespace) -> int:
    from debatebench_eval.known_answer.comparison import comparison_table
    from debatebench_eval.known_answer.log_reader import compare_logs

    comparison = _read("compare", compare_logs, args.logs)
    if comparison is None:
        return 2
    plot = None
    if any(len(rounds) > 1 for rounds in comparison.beliefs.values()):
        from debatebench_eval.tournament.plots import belief_by_round

        plot = belief_by_round(comparison.beliefs, args.plot)
    if args.json:
        print(json.dumps({
            "accuracy": {p: vars(a) for p, a in comparison.accuracy.items()},
            "differences": {f"{a} - {b}": vars(d) for (a, b), d in comparison.differences.items()},
            "preconditions": [
                {"check": c.name, "value": c.value and vars(c.value), "reading": c.reading}
                for c in comparison.checks
            ],
            "p_correct_by_round": comparison.beliefs,
            "plot": plot,
        }, indent=2))  # fmt: skip
    else:
        print(comparison_table(comparison), end="")
        if plot is not None:
            print(f"\nMean p_correct by round per protocol: {plot}")
    return 0


def _run_persuasion(args: argparse.Namespace) -> int:
    from debatebench_eval.known_answer.log_reader import judged_debates
    from debatebench_eval.known_answer.persuasion import (
        pair_accuracy,
        persuasion_markdown,
        ratings,
        separated,
    )
    from debatebench_eval.tournament.plots import accuracy_against_rating

    debates = _read("persuasion", judged_debates, args.logs)
    if debates is None:
        return 2
    if len({d.pro for d in debates} | {d.con for d in debates}) < 2:
        print_error("oversight persuasion", "the logs hold debates of fewer than two models")
        return 2
    rated = ratings(debates)
    pairs = pair_accuracy(debates, rated)
    text = persuasion_markdown(rated, pairs, separated(debates)) + (
        f"\nEvery judged debate of the logs counts ({len(debates)}), each on its own: "
        "`tournament rate` counts a question for a pair only when both its debates were "
        "scored, so on a tournament's folder its accuracies can differ from these.\n"
    )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "persuasion.md").write_text(text, encoding="utf-8")
    print(text, end="")
    print(out / "persuasion.md")
    print(accuracy_against_rating(pairs, str(out / "accuracy_vs_rating.png")))
    return 0
