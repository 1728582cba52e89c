"""Read oversight logs, and the `debatebench-eval oversight compare LOGS...` command.

Each log is one protocol's run (`inspect eval debatebench/oversight -T protocol=...`,
or one task of an eval set); several runs of one protocol are pooled. A sample
whose judge gave no usable reply is left out, as the scorer's metrics leave it.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai.log import list_eval_logs, read_eval_log

from debatebench_eval.core.errors import ConfigError, print_error
from debatebench_eval.known_answer.comparison import Comparison, compare, comparison_table
from debatebench_eval.known_answer.stats import Outcome

SCORER = "judge_accuracy"


def log_outcomes(path: str) -> tuple[str, list[Outcome]]:
    """A log's protocol and its judged samples."""
    log = read_eval_log(path)
    protocol = (log.eval.metadata or {}).get("protocol")
    if protocol is None or not log.samples:
        raise ConfigError(path, "not an oversight log with samples", "a debatebench/oversight log")
    found: list[Outcome] = []
    for sample in log.samples:
        score = (sample.scores or {}).get(SCORER) or (sample.scores or {}).get(
            f"debatebench/{SCORER}"
        )
        value = score.value if score is not None else None
        if not isinstance(value, dict) or math.isnan(value.get("accuracy", math.nan)):
            continue
        correct, p = bool(value["accuracy"]), float(value["p_correct"])
        question = sample.metadata["question_id"]
        found.append(Outcome(question, correct, p, p if correct else 1 - p))
    return str(protocol), found


def compare_logs(paths: Sequence[str]) -> Comparison:
    """The comparison of the protocols the logs ran (a folder: every log in it)."""
    runs: dict[str, list[Outcome]] = {}
    for path in _log_files(paths):
        protocol, outcomes = log_outcomes(path)
        runs.setdefault(protocol, []).extend(outcomes)
    return compare(runs)


def _log_files(paths: Sequence[str]) -> list[str]:
    files: list[str] = []
    for path in paths:
        if Path(path).is_dir():
            files += [info.name for info in list_eval_logs(path)]
        else:
            files.append(path)
    return files


def add_commands(commands: Any) -> None:
    """Add `oversight compare` to the command line's subcommands."""
    oversight = commands.add_parser(
        "oversight", help="known-answer runs: compare protocols on the same questions"
    )
    actions = oversight.add_subparsers(dest="action", metavar="ACTION", required=True)
    comparing = actions.add_parser(
        "compare",
        help="each protocol's accuracy and the paired differences (debate - consultancy, "
        "debate - naive, ...) with 95%% intervals over questions",
    )
    comparing.add_argument("logs", nargs="+", help="oversight logs (.eval/.json) or folders")
    comparing.add_argument("--json", action="store_true", help="print JSON, not Markdown")
    comparing.set_defaults(run=_run_compare)


def _run_compare(args: argparse.Namespace) -> int:
    try:
        comparison = compare_logs(args.logs)
    except (ConfigError, FileNotFoundError) as exc:
        print_error("oversight compare", exc)
        return 2
    if args.json:
        print(json.dumps(_as_json(comparison), indent=2))
    else:
        print(comparison_table(comparison), end="")
    return 0


def _as_json(comparison: Comparison) -> dict[str, Any]:
    return {
        "accuracy": {p: vars(a) for p, a in comparison.accuracy.items()},
        "differences": {f"{a} - {b}": vars(d) for (a, b), d in comparison.differences.items()},
    }
