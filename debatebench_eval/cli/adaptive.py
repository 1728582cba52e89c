"""`tournament run --adaptive` and `tournament next`: tournaments in rounds, each of the
matchups where a debate is worth most, and the same choice for debates judged
elsewhere (`tournament.adaptive` and `stats.active` hold the rules).

A round's matchups are written into the folder's schedule before they run, and a
round left unfinished (a killed worker, a failed debate) is finished by the next run
of the command before anything new is chosen: nothing is lost, nothing runs twice.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from debatebench_eval.core.errors import ConfigError, ServerError, print_error


@dataclass(frozen=True)
class Steps:
    """What a round needs of `tournament run`: the schedule asked for, the servers
    probed, the workers run over planned pairs (their exit codes), and the summary."""

    requested: Callable[[argparse.Namespace], tuple[Any, Any, Any]]
    probe: Callable[[Any, Any], None]
    work: Callable[[argparse.Namespace, Any], list[int]]
    counts: Callable[[str, Any], tuple[dict[str, int], int]]


def check_target(args: argparse.Namespace, models: int) -> Any:
    """The rounds' size and the stopping rule, every value checked."""
    from debatebench_eval.tournament.adaptive import Target

    size = args.round_size if args.round_size is not None else 2 * models
    if size < 2:
        raise ConfigError("--round-size", f"got {size}", "2 debates or more (a matchup is 2)")
    if args.target_width is not None and args.target_width <= 0:
        raise ConfigError("--target-width", f"got {args.target_width}", "rating points, above 0")
    if args.max_debates is not None and args.max_debates < 2:
        raise ConfigError("--max-debates", f"got {args.max_debates}", "2 debates or more")
    if args.target_width is None and args.max_debates is None:
        raise ConfigError("--adaptive", "no stopping rule given",
                          "--target-width W, --max-debates N, or both")  # fmt: skip
    return Target(size, args.target_width, args.max_debates)


def run_adaptive(args: argparse.Namespace, steps: Steps) -> int:
    """Rounds until the target is met or the budget spent: 0 when it stopped so, 1 when
    a round's debates did not all settle (run the same command again to finish them)."""
    requested, schedule, existing = steps.requested(args)
    target = check_target(args, len(schedule.models))
    if args.dry_run:
        return 0
    from debatebench_eval.tournament.adaptive import placing

    steps.probe(schedule, requested.models)
    rounds = list(existing.rounds) if existing is not None else []
    placed = placing(schedule, existing.schedule if existing else None, rounds)
    if placed:
        print(f"placing {', '.join(placed)} on the board: only their pairs are chosen")
    unsettled = _finish_round(args, steps, schedule, rounds, existing)
    while not unsettled:
        schedule, why, unsettled = _next_round(args, steps, schedule, rounds, (target, placed))
        if why is not None:
            print(f"adaptive tournament stopped: {why}; "
                  f"{schedule.debates()} debates, {len(rounds)} round(s)")  # fmt: skip
            print(f"done: debatebench-eval tournament rate {args.log_dir}")
            return 0
    print("some debates of the round did not settle: run the same command again to finish "
          "them (finished debates are kept, nothing new is chosen before)")  # fmt: skip
    return 1


def _finish_round(
    args: argparse.Namespace, steps: Steps, schedule: Any, rounds: list[Any], existing: Any
) -> int:
    """Run what the folder has scheduled and not settled (a round cut short by a kill
    or a failure): how many debates are still unsettled after."""
    from debatebench_eval.tournament.outcomes import read_tournament
    from debatebench_eval.tournament.plan import plan_pairs

    if existing is None:
        return 0
    results = read_tournament([args.log_dir]).results
    left = sorted({r.pair for r in results if r.status in ("missing", "error")})
    if not left:
        return 0
    manifest = plan_pairs(args.log_dir, schedule, left, schedule.models, existing, rounds)
    return _ran(args, steps, manifest, left)


def _ran(args: argparse.Namespace, steps: Steps, manifest: Any, pairs: list[Any]) -> int:
    """Run the planned pairs; how many of their debates did not settle."""
    steps.work(args, manifest)
    counts, _ = steps.counts(args.log_dir, tuple(pairs))
    return counts["error"] + counts["missing"]


def _next_round(
    args: argparse.Namespace, steps: Steps, schedule: Any, rounds: list[Any], aim: Any
) -> tuple[Any, str | None, int]:
    """Refit, then stop (why) or choose the next round's matchups and run them (how many
    of their debates did not settle). `aim`: the target, and the models being placed."""
    from debatebench_eval.tournament import adaptive
    from debatebench_eval.tournament.manifest import read_manifest, write_manifest
    from debatebench_eval.tournament.outcomes import read_tournament
    from debatebench_eval.tournament.plan import plan_pairs

    manifest = read_manifest(args.log_dir)
    results = read_tournament([args.log_dir]).results if manifest is not None else []
    target, placed = aim
    fit = adaptive.refit(results, args.seed)
    why = adaptive.stopped(schedule, fit, target, placed)
    seed = args.seed + len(rounds)
    picks = [] if why else adaptive.next_round(schedule, results, target, seed, placed)
    rounds.append(adaptive.round_entry(fit, len(picks), why, placed))
    _say_round(len(rounds), fit, picks)
    if why is not None:
        if manifest is not None:
            write_manifest(args.log_dir, dataclasses.replace(manifest, rounds=tuple(rounds)))
        return schedule, why, 0
    grown = schedule.with_chosen(picks)
    pairs = sorted({(a, b) for a, b, _ in picks})
    planned = plan_pairs(args.log_dir, grown, pairs, grown.models, manifest, rounds)
    return grown, None, _ran(args, steps, planned, pairs)


def _say_round(number: int, fit: Any, picks: list[tuple[str, str, str]]) -> None:
    found = (f"widest interval {fit.widest:.0f} points over {fit.rated_debates} rated debates"
             if fit else "no model rated yet")  # fmt: skip
    chosen = f"; {len(picks)} matchup(s) chosen ({2 * len(picks)} debates)" if picks else ""
    print(f"round {number}: {found}{chosen}")


def add_next_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "next", help="the next matchups worth debating, from the outcomes so far (CSV)",
        description="Read the outcomes so far (a tournament's LOG_DIR, or --outcomes FILE "
        "in the format `tournament rate --outcomes` reads) and print the next --count "
        "matchups as CSV (motion,pro,con), both sides of a motion one after the other: "
        "uniform over pairs at first, then where a debate is worth most (near-ties, "
        "uncertain ratings), motions balanced. The same inputs and --seed give the same "
        "matchups.",
    )  # fmt: skip
    parser.add_argument("log_dir", nargs="?", metavar="LOG_DIR", help="a tournament's folder")
    parser.add_argument("--models", required=True, help="every model to place, comma-separated")
    parser.add_argument("--outcomes", metavar="FILE", help="a CSV or JSONL outcomes table")
    parser.add_argument("--motions", metavar="FILE",
                        help="the motions to choose from (default: the tournament's, or the "
                        "bundled set and those in the outcomes)")  # fmt: skip
    parser.add_argument("--count", type=int, default=4, help="matchups to print (4)")
    parser.add_argument("--seed", type=int, default=0, help="the choice's seed (0)")
    parser.set_defaults(run=_next)


def _next(args: argparse.Namespace) -> int:
    from debatebench_eval.tournament.adaptive import next_rows
    from debatebench_eval.tournament.schedule import parse_names

    try:
        models = parse_names(args.models, "--models", minimum=2)
        if args.count < 1:
            raise ConfigError("--count", f"got {args.count}", "1 or more matchups")
        results, items = _source(args)
    except (ConfigError, ServerError) as exc:
        print_error("tournament next", exc)
        return 2
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["motion", "pro", "con"])
    writer.writerows(next_rows(models, items, results, args.count, args.seed))
    return 0


def _source(args: argparse.Namespace) -> tuple[list[Any], list[str]]:
    """The outcomes so far and the motions to choose from."""
    from debatebench_eval.record.motions import default_motions, load_motions
    from debatebench_eval.tournament.judged_elsewhere import read_outcomes
    from debatebench_eval.tournament.outcomes import read_tournament

    if args.log_dir and args.outcomes:
        raise ConfigError("tournament next", "both LOG_DIR and --outcomes", "one source")
    if args.log_dir:
        logs = read_tournament([args.log_dir])
        results, items = logs.results, list(logs.schedule.item_ids)
    else:
        results = read_outcomes(args.outcomes).results if args.outcomes else []
        items = [m.id for m in default_motions()]
        items += sorted({r.motion for r in results} - set(items))
    if args.motions:
        from pathlib import Path

        items = [m.id for m in load_motions(Path(args.motions).expanduser())]
    return list(results), items
