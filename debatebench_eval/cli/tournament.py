"""`debatebench-eval tournament run|rate`: the command line of tournaments.

`run` checks every input before anything is written or any model is called,
records the schedule in the log folder's tournament.json, and runs (or
resumes, or grows) the tournament as one Inspect eval set. `rate` reads the
logs of one or more folders (or debates judged elsewhere: folders of
debatebench score files, or an outcomes table) and writes the leaderboard and
its plots.

Exit codes: 0 every debate of the run is settled (scored or, when the judges
gave no usable verdict, unscored) and at least one was scored; 1 some debates
failed or are missing (run the same command again to resume), or none was
scored (the last line says so; `rate` would have nothing to rate; `rate`
itself exits 1 then, saying why and what to run); 2 bad input, or a server
that does not answer: nothing ran.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from debatebench_eval.core.errors import ConfigError, ServerError, plain_text, print_error

if TYPE_CHECKING:  # the tournament modules load numpy and Inspect: only when used
    from debatebench_eval.tournament.manifest import Manifest
    from debatebench_eval.tournament.schedule import Schedule

Pairs = tuple[tuple[str, str], ...]

_LISTED = 20  # failed or missing debates printed by name; the rest are counted


def add_tournament_parser(commands: Any) -> None:
    """The `tournament` command and its `run` and `rate` subcommands."""
    parser = commands.add_parser(
        "tournament", help="rank models by debate: run a round robin, then rate it"
    )
    sub = parser.add_subparsers(dest="tournament_command", metavar="run|rate", required=True)
    run = sub.add_parser(
        "run", help="run (or resume, or grow) a round robin of paired debates",
        description="Every pair of --models debates every motion twice, sides exchanged, "
        "judged by the --judges panel. Run the same command again to resume; add models "
        "or motions and only the new debates run.",
    )  # fmt: skip
    run.add_argument("--models", required=True, help="the debaters, comma-separated (two or more)")
    run.add_argument("--judges", required=True, help="the judge panel, comma-separated; "
                     "the first also runs the fact-check")  # fmt: skip
    run.add_argument("--motions", default="default",
                     help="a motion file, or 'default' for the bundled set")  # fmt: skip
    run.add_argument("--limit", type=int, help="the first N motions of the file")
    run.add_argument("--format", help="a named debate format (default: the task's, quickstart)")
    run.add_argument("--seed", type=int, default=1, help="base seed of every debate (default 1)")
    run.add_argument("--log-dir", required=True, help="the tournament's folder (any location "
                     "Inspect takes for logs); shards share it")  # fmt: skip
    run.add_argument("--shard", help="K/N: run only the K-th of N shards of the pairs")
    run.add_argument("--allow-self-judging", action="store_true",
                     help="let a judge also debate (it then judges its own debates)")  # fmt: skip
    run.add_argument("-T", dest="task_args", action="append", default=[], metavar="KEY=VALUE",
                     help="a debate task option for every debate (repeatable)")  # fmt: skip
    run.add_argument("--max-connections", type=int,
                     help="requests at once per server (set it to the server's slots)")  # fmt: skip
    run.add_argument("--max-samples", type=int,
                     help="debates at once per pair (default: max-connections, or 8)")  # fmt: skip
    run.add_argument("--max-tasks", type=int, default=2, help="pairs at once (default 2)")
    run.add_argument("--retry-attempts", type=int, default=2,
                     help="times a pair with failed debates is retried (default 2)")  # fmt: skip
    run.add_argument("--display", choices=("full", "conversation", "rich", "plain", "log", "none"),
                     help="Inspect's display (default: Inspect's)")  # fmt: skip
    run.add_argument("--dry-run", action="store_true", help="print the schedule; run nothing")
    run.set_defaults(run=_run)
    rate = sub.add_parser(
        "rate", help="the leaderboard of a tournament's logs, or of debates judged elsewhere",
        description="Rate a tournament's logs (LOG_DIR, merged), folders of debatebench 0.1.x "
        "score files with their transcripts, or --outcomes FILE: a CSV or JSONL table of "
        "debates with the columns motion, pro, con, winner (pro/con/tie) and optionally "
        "margin, judge, pro_words, con_words, pro_tokens, con_tokens.",
    )  # fmt: skip
    rate.add_argument("folders", nargs="*", metavar="LOG_DIR",
                      help="the tournament's folder(s), merged; or folders of debatebench "
                      "score files")  # fmt: skip
    rate.add_argument("--outcomes", metavar="FILE",
                      help="a CSV or JSONL table of debates judged elsewhere")  # fmt: skip
    rate.add_argument("--anchor", default="mean",
                      help="'mean' (default), or a model that sits at --base")  # fmt: skip
    rate.add_argument("--base", type=float, default=1000.0, help="the anchor's rating (1000)")
    rate.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (1000)")
    rate.add_argument("--seed", type=int, default=0, help="the bootstrap's seed (0)")
    rate.add_argument("--out", help="where the leaderboard goes (default: the first LOG_DIR, "
                      "or the outcomes file's folder)")  # fmt: skip
    rate.add_argument("--no-plots", action="store_true", help="write no PNG")
    rate.set_defaults(run=_rate)


def _run(args: argparse.Namespace) -> int:
    from debatebench_eval.core._inspect import PrerequisiteError

    try:
        return _run_checked(args)
    except ServerError as exc:
        print_error("tournament run", exc, after="; nothing ran")
        return 2
    except PrerequisiteError as exc:  # a ConfigError, or Inspect's own (a missing key)
        print_error("tournament run", exc)
        return 2


def _with_run(
    now: Manifest | None,
    requested: Schedule,
    entry: dict[str, Any],
    shards: int,
    args: argparse.Namespace,
) -> Manifest:
    """The manifest as it is now (another shard may have written since it was first
    read), with this run's schedule merged in and its run added."""
    from debatebench_eval.tournament import manifest as mf

    if now is None:
        return mf.Manifest(requested, (entry,), shards)
    mf.check_same_tournament(now.schedule, requested, f"--log-dir {args.log_dir}")
    return mf.Manifest(now.schedule.grown(requested), (*now.runs, entry), shards)


def _run_checked(args: argparse.Namespace) -> int:
    from debatebench_eval.tournament import manifest as mf
    from debatebench_eval.tournament import runner
    from debatebench_eval.tournament.schedule import parse_shard, shard_pairs

    shard = parse_shard(args.shard)
    limits = {"--max-connections": args.max_connections, "--max-samples": args.max_samples,
              "--max-tasks": args.max_tasks}  # fmt: skip
    for flag, value in limits.items():
        if value is not None and value < 1:
            raise ConfigError(flag, f"got {value}", "an integer of at least 1")
    if args.retry_attempts < 0:
        raise ConfigError("--retry-attempts", f"got {args.retry_attempts}", "0 or more")
    requested = runner.requested_schedule(
        models=args.models, judges=args.judges, motions=args.motions, limit=args.limit,
        format=args.format, seed=args.seed, allow_self_judging=args.allow_self_judging,
        task_items=args.task_args,
    )  # fmt: skip
    existing = mf.read_manifest(args.log_dir)
    schedule = requested
    if existing is not None:
        mf.check_same_tournament(existing.schedule, requested, f"--log-dir {args.log_dir}")
        schedule = existing.schedule.grown(requested)
    # This run's pairs: among its own models, over every scheduled motion (a
    # dataset never shrinks, or Inspect would re-run the pair from scratch).
    pairs = shard_pairs(requested.pairs, *shard)
    tasks = runner.pair_tasks(schedule, pairs)  # checks every -T value
    _print_plan(schedule, requested, pairs, shard, existing is not None)
    if args.dry_run:
        return 0
    if not pairs:
        return 0
    if dict(schedule.settings.task_args).get("probe", True) is not False:
        runner.probe_servers(schedule, requested.models)
    entry = mf.run_entry(schedule, shard, requested.models)
    mf.update_manifest(args.log_dir, lambda now: _with_run(now, requested, entry, shard[1], args))
    concurrency = runner.Concurrency(
        args.max_connections, args.max_samples, args.max_tasks, args.retry_attempts
    )
    runner.run_eval_set(schedule, tasks, args.log_dir, concurrency, args.display)
    runner.tidy_crashed_logs(args.log_dir, [task.name for task in tasks])
    return _summary(args.log_dir, pairs)


def _print_plan(
    schedule: Schedule, requested: Schedule, pairs: Pairs, shard: tuple[int, int], resumed: bool
) -> None:
    debates = len(pairs) * len(schedule.motions) * 2
    where = f" (shard {shard[0]}/{shard[1]})" if shard[1] > 1 else ""
    print(f"tournament {schedule.identity_hash[:12]}: {len(schedule.models)} models, "
          f"{len(schedule.motions)} motions, judges {', '.join(schedule.judges)}"
          + (" (resumed)" if resumed else ""))  # fmt: skip
    print(f"this run{where}: {len(pairs)} pair(s) x {len(schedule.motions)} motions x 2 sides "
          f"= {debates} debates; finished debates in the logs are kept")  # fmt: skip
    if shard[1] > len(requested.pairs):
        print(f"note: {shard[1]} shards but {len(requested.pairs)} pairs: some shards have "
              "nothing to run")  # fmt: skip


def _summary(log_dir: str, pairs: Pairs) -> int:
    from debatebench_eval.tournament.outcomes import read_tournament

    logs = read_tournament([log_dir], pairs)
    counts = {status: 0 for status in ("scored", "unscored", "error", "missing")}
    for result in logs.results:
        counts[result.status] += 1
    print("debates: " + ", ".join(f"{n} {status}" for status, n in counts.items()))
    unsettled = [r for r in logs.results if r.status in ("error", "missing")]
    for result in unsettled[:_LISTED]:
        side = " (sides exchanged)" if result.swapped else ""
        print(f"  {result.status}: {result.pro} (pro) vs {result.con} (con) on "
              f"{result.motion}{side}: {plain_text(str(result.reason))}")  # fmt: skip
    if len(unsettled) > _LISTED:
        print(f"  ... and {len(unsettled) - _LISTED} more")
    if unsettled:
        print("run the same command again to resume: finished debates are kept")
    if not counts["scored"] and logs.results:
        print(f"nothing was scored: 0 of {len(logs.results)} debates; the judges' reasons are "
              "listed above, under each pair's log")  # fmt: skip
        return 1
    if unsettled:
        return 1
    print(f"done: debatebench-eval tournament rate {log_dir}")
    return 0


def _rate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from debatebench_eval.tournament.leaderboard import write_leaderboard

    beside = str(Path(args.outcomes).parent) if args.outcomes else None
    out = args.out or (args.folders[0] if args.folders else beside) or "."
    try:
        written = write_leaderboard(
            args.folders, out=out, anchor=args.anchor, base=args.base,
            resamples=args.resamples, seed=args.seed, plots=not args.no_plots,
            outcomes=args.outcomes,
        )  # fmt: skip
    except ConfigError as exc:
        print_error("tournament rate", exc)
        return 2
    for path in written:
        print(path)
    nothing = _nothing_rated(written[0])
    if nothing:
        print(f"debatebench-eval tournament rate: {nothing}", file=sys.stderr)
        return 1
    return 0


def _nothing_rated(board_path: str) -> str | None:
    """Why the leaderboard just written rates no model, and what to run (None when it
    rates some)."""
    import json

    from debatebench_eval.core._inspect import file

    with file(board_path, "r") as handle:
        board = json.load(handle)
    counts = board["counts"]
    if counts["eligible_matchups"]:
        return None
    found = ", ".join(f"{counts[s]} {s}" for s in ("scored", "unscored", "error", "missing"))
    source = board["tournament"].get("source", "tournament")
    why = (
        f"nothing is rated: no matchup has both its debates (sides exchanged) scored; "
        f"of {counts['scheduled']} {'scheduled ' if source == 'tournament' else ''}debates: "
        f"{found}"
    )
    if source != "tournament":
        skipped = len(board["tournament"]["skipped_logs"])
        return (
            f"{why}{f'; {skipped} skipped (listed in leaderboard.json)' if skipped else ''}; "
            "a matchup needs the same two models on one motion from both sides, one debate "
            "with each as pro"
        )
    if counts["error"] or counts["missing"]:
        return f"{why}; run the same `debatebench-eval tournament run` again to finish them"
    if counts["unscored"]:
        return (
            f"{why}; the judges gave no usable verdict (each reason is in leaderboard.md): "
            "re-judge the logs with `inspect score LOG --scorer debatebench/rubric "
            "--model-role judge=...` or run again with other --judges"
        )
    return f"{why}; run `debatebench-eval tournament run` with this --log-dir first"
