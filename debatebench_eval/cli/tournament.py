"""`debatebench-eval tournament run|plan|worker|rate`: the command line of tournaments.

`plan` checks every input before anything is written or any model is called,
and records the schedule and the planned tasks in the log folder's
tournament.json (its only writer). `worker` runs one share of the planned
tasks into the folder (Inspect's eval-set selection mode), resuming whatever a
killed worker left. `run` is both on one machine: the plan, then `--workers`
local worker processes, then the summary; run again, it resumes or grows the
tournament. `rate` reads the logs of one or more folders (or debates judged
elsewhere: folders of debatebench score files, or an outcomes table) and writes
the leaderboard and its plots.

Exit codes: 0 every debate of the run (or of the worker's share) is settled
(scored or, when the judges gave no usable verdict, unscored) and at least one
was scored (a worker: settled is enough); 1 some debates failed or are missing
(run the same command again to resume), or none was scored (the last line says
so; `rate` would have nothing to rate; `rate` itself exits 1 then, saying why
and what to run); 2 bad input, or a server that does not answer: nothing ran.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from debatebench_eval.core.errors import ConfigError, ServerError, plain_text, print_error

if TYPE_CHECKING:  # the tournament modules load numpy and Inspect: only when used
    from debatebench_eval.tournament.manifest import Manifest
    from debatebench_eval.tournament.runner import Concurrency
    from debatebench_eval.tournament.schedule import Schedule

Pairs = tuple[tuple[str, str], ...]

_LISTED = 20  # debates of each status printed by name; the rest are counted


def add_tournament_parser(commands: Any) -> None:
    """The `tournament` command and its `plan`, `worker`, `run`, `rate` and `next`
    subcommands."""
    parser = commands.add_parser(
        "tournament", help="rank models by debate: run a round robin, then rate it"
    )
    sub = parser.add_subparsers(
        dest="tournament_command", metavar="run|plan|worker|rate|next", required=True
    )
    run = sub.add_parser(
        "run", help="run (or resume, or grow) a round robin of paired debates",
        description="Every pair of --models debates every motion twice, sides exchanged, "
        "judged by the --judges panel: the plan, then --workers local worker processes, "
        "then the summary. Run the same command again to resume; add models or motions "
        "and only the new debates run.",
    )  # fmt: skip
    _tournament_flags(run)
    run.add_argument("--workers", default="1",
                     help="worker processes on this machine: a number (default 1), or auto: "
                     "one per core, at most one per task")  # fmt: skip
    _concurrency_flags(run, "requests at once per server, shared out among the workers "
                       "(set it to the server's slots)")  # fmt: skip
    run.add_argument("--dry-run", action="store_true", help="print the schedule; run nothing")
    _adaptive_flags(run)
    run.set_defaults(run=_run)
    plan = sub.add_parser(
        "plan", help="plan a tournament into its folder, for workers to run anywhere",
        description="Check every input, record the schedule and the planned tasks in "
        "LOG_DIR/tournament.json (with Inspect's capture manifest beside it), and print "
        "the worker command. Nothing runs; plan again to grow the tournament.",
    )  # fmt: skip
    _tournament_flags(plan)
    plan.add_argument("--dry-run", action="store_true", help="print the schedule; write nothing")
    plan.set_defaults(run=_plan)
    worker = sub.add_parser(
        "worker", help="run one share of a planned tournament into its folder",
        description="Run the K-th of N shares of the planned tasks (K 0-based, as "
        "SLURM_ARRAY_TASK_ID and a Kubernetes Indexed Job's JOB_COMPLETION_INDEX are), or "
        "the tasks --tasks FILE names. Finished debates are kept: run a killed worker's "
        "index again to finish its share. Workers need no lock and may run at once.",
    )  # fmt: skip
    worker.add_argument("log_dir", metavar="LOG_DIR", help="the planned tournament's folder")
    worker.add_argument("--index", type=int, help="K: this worker's share, 0 to N-1")
    worker.add_argument("--workers", type=int, help="N: the number of shares")
    worker.add_argument("--tasks", metavar="FILE",
                        help="instead of --index/--workers: task names, one a line")  # fmt: skip
    _concurrency_flags(worker, "requests at once per server from this worker")
    _prices_flag(worker)
    worker.set_defaults(run=_worker)
    _rate_parser(sub)
    from debatebench_eval.cli.adaptive import add_next_parser

    add_next_parser(sub)


def _adaptive_flags(parser: Any) -> None:
    parser.add_argument("--adaptive", action="store_true",
                        help="run in rounds, each of the matchups where a debate is worth most "
                        "(near-ties, uncertain ratings), refitting after each, until the "
                        "target or the budget (the guide's Adaptive section)")  # fmt: skip
    parser.add_argument(
        "--round-size",
        type=int,
        metavar="K",
        help="with --adaptive: debates a round (default: 2 x the models)",
    )
    parser.add_argument("--target-width", type=float, metavar="W",
                        help="with --adaptive: stop when every model's 95%% interval is at "
                        "most W rating points wide")  # fmt: skip
    parser.add_argument(
        "--max-debates",
        type=int,
        metavar="N",
        help="with --adaptive: stop when the tournament has N debates",
    )


def _tournament_flags(parser: Any) -> None:
    """The flags that say which tournament it is and where its folder is."""
    parser.add_argument("--models", required=True,
                        help="the debaters, comma-separated (two or more)")  # fmt: skip
    parser.add_argument("--judges", required=True, help="the judge panel, comma-separated; "
                        "the first also runs the fact-check")  # fmt: skip
    # Checked against the registered kinds (tournament.kinds) when the schedule is read:
    # importing them here would load Inspect for every command's --help.
    parser.add_argument("--task", default="debate", metavar="KIND",
                        help="the task kind: debate (the default: rubric-judged debates on "
                        "motions) or "
                        "oversight (known-answer debates on questions; the judge's accuracy "
                        "and the debaters' persuasiveness)")  # fmt: skip
    parser.add_argument("--motions", help="a motion file, or 'default' for the bundled set "
                        "(the default)")  # fmt: skip
    parser.add_argument("--questions", help="with --task oversight: a question file, or "
                        "'default' for the shipped set (the default)")  # fmt: skip
    parser.add_argument("--limit", type=int,
                        help="the first N motions (or questions) of the file")  # fmt: skip
    parser.add_argument("--format",
                        help="a named debate format (default: the task's, quickstart)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1,
                        help="base seed of every debate (default 1)")  # fmt: skip
    parser.add_argument("--log-dir", required=True, help="the tournament's folder (any "
                        "location Inspect takes for logs); workers share it")  # fmt: skip
    parser.add_argument("--allow-self-judging", action="store_true",
                        help="let a judge also debate (it judges its own debates)")  # fmt: skip
    parser.add_argument("-T", dest="task_args", action="append", default=[], metavar="KEY=VALUE",
                        help="a debate task option for every debate (repeatable)")  # fmt: skip
    parser.add_argument("--timeout", type=int, metavar="SECONDS",
                        help="seconds to wait for one model reply (Inspect's --timeout; "
                        "default the debate task's)")  # fmt: skip
    parser.add_argument("--cost-limit", type=float, metavar="DOLLARS",
                        help="the most a debate may spend (Inspect's, per sample); every "
                        "model priced by --model-cost-config")  # fmt: skip
    _prices_flag(parser)


def _prices_flag(parser: Any) -> None:
    parser.add_argument("--model-cost-config", metavar="FILE",
                        help="model prices, as `inspect eval` takes them (YAML or JSON: per "
                        "model, dollars per million input, output, input_cache_write and "
                        "input_cache_read tokens)")  # fmt: skip


def _concurrency_flags(parser: Any, connections: str) -> None:
    parser.add_argument("--max-connections", type=int, help=connections)
    samples = "debates at once per pair (default: --max-connections, or 8)"
    parser.add_argument("--max-samples", type=int, help=samples)
    parser.add_argument("--max-tasks", type=int, default=2, help="pairs at once (default 2)")
    parser.add_argument("--retry-attempts", type=int, default=2,
                        help="times a pair with failed debates is retried (default 2)")  # fmt: skip
    parser.add_argument("--batch", nargs="?", const="true", metavar="N",
                        help="send the calls through the providers' batch APIs (Inspect's "
                        "--batch; about half the price for hosted models), N requests a "
                        "batch")  # fmt: skip
    parser.add_argument("--display",
                        choices=("full", "conversation", "rich", "plain", "log", "none"),
                        help="Inspect's display (default: Inspect's; plain with --workers "
                        "above 1)")  # fmt: skip


def _rate_parser(sub: Any) -> None:
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
    human = ("labels files (JSONL) people made of these debates on the labelling page: "
             "adds prediction-powered (PPI++) win rates and ratings beside the judge-only "
             "ones, and the labels that would halve their intervals")  # fmt: skip
    rate.add_argument("--human", nargs="+", default=[], metavar="LABELS", help=human)
    _prices_flag(rate)
    rate.set_defaults(run=_rate)


def _checked(command: str, step: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """The step, with bad input or a server that does not answer as exit 2."""

    def run(args: argparse.Namespace) -> int:
        from debatebench_eval.core._inspect import PrerequisiteError

        try:
            return step(args)
        except ServerError as exc:
            print_error(command, exc, after="; nothing ran")
            return 2
        except PrerequisiteError as exc:  # a ConfigError, or Inspect's own (a missing key)
            print_error(command, exc)
            return 2

    return run


def _concurrency(args: argparse.Namespace, workers: int = 1) -> Concurrency:
    from debatebench_eval.tournament.runner import Concurrency

    limits = {"--max-connections": args.max_connections, "--max-samples": args.max_samples,
              "--max-tasks": args.max_tasks}  # fmt: skip
    for flag, value in limits.items():
        if value is not None and value < 1:
            raise ConfigError(flag, f"got {value}", "an integer of at least 1")
    if args.retry_attempts < 0:
        raise ConfigError("--retry-attempts", f"got {args.retry_attempts}", "0 or more")
    connections = args.max_connections and max(1, args.max_connections // workers)
    return Concurrency(connections, args.max_samples, args.max_tasks, args.retry_attempts,
                       _batch(args.batch))  # fmt: skip


def _batch(value: str | None) -> bool | int | None:
    """--batch: absent (None), given alone (on), or a number of requests a batch."""
    if value is None:
        return None
    if value == "true":
        return True
    try:
        size = int(value)
    except ValueError:
        size = 0
    if size < 1:
        raise ConfigError("--batch", f"got {value}", "nothing (on), or requests a batch, 1 or more")
    return size


def _requested(args: argparse.Namespace) -> tuple[Schedule, Schedule, Manifest | None]:
    """The requested schedule, the folder's grown by it, and the folder's manifest."""
    from debatebench_eval.runs.location import check_reachable
    from debatebench_eval.tournament import manifest as mf
    from debatebench_eval.tournament import runner
    from debatebench_eval.tournament.cost import check_cost_limit

    requested = runner.requested_schedule(
        models=args.models, judges=args.judges, motions=args.motions, limit=args.limit,
        format=args.format, seed=args.seed, allow_self_judging=args.allow_self_judging,
        task_items=args.task_args, cost_limit=args.cost_limit, timeout=args.timeout,
        task=args.task, questions=args.questions,
    )  # fmt: skip
    if getattr(args, "adaptive", False):  # its matchups are chosen round by round
        requested = dataclasses.replace(requested, chosen=())
    prices = _prices(args)
    check_cost_limit(args.cost_limit, (*requested.models, *requested.judges), prices)
    check_reachable(args.log_dir, f"--log-dir {args.log_dir}")
    existing = mf.read_manifest(args.log_dir)
    schedule = requested
    if existing is not None:
        mf.check_same_tournament(existing.schedule, requested, f"--log-dir {args.log_dir}")
        schedule = existing.schedule.grown(requested)
    # Checks every -T value (one pair over every item: a task is made as any pair's is).
    runner.pair_tasks(dataclasses.replace(schedule, chosen=None), requested.pairs[:1])
    _print_schedule(schedule, requested.pairs, existing is not None)
    return requested, schedule, existing


def _prices(args: argparse.Namespace) -> dict[str, Any]:
    from debatebench_eval.tournament.cost import read_prices

    return read_prices(args.model_cost_config) if args.model_cost_config else {}


def _planned(args: argparse.Namespace) -> Manifest | None:
    """Plan the tournament (None on a dry run): check, probe, capture, write."""
    from debatebench_eval.tournament import runner
    from debatebench_eval.tournament.plan import plan

    requested, schedule, existing = _requested(args)
    if args.dry_run:
        return None
    if dict(schedule.settings.task_args).get("probe", True) is not False:
        runner.probe_servers(schedule, requested.models)
    manifest = plan(args.log_dir, requested, existing)
    assert manifest.plan is not None
    tasks = manifest.plan.tasks
    debates, todo = sum(t.samples for t in tasks), sum(t.todo for t in tasks)
    print(f"planned {len(tasks)} task(s) in {args.log_dir}: {debates} debates, {todo} to run")
    for line in _cost_lines(manifest, _prices(args)):
        print(line)
    return manifest


def _cost_lines(manifest: Manifest, prices: dict[str, Any]) -> list[str]:
    """The planned debates' calls, tokens and (where priced) cost, at their caps."""
    from debatebench_eval.debating.call_shape import CALLS_KEY, CallBound
    from debatebench_eval.tournament import runner
    from debatebench_eval.tournament.cost import estimate, lines

    assert manifest.plan is not None
    todo = [(*_pair_of(manifest, t.name), t.todo) for t in manifest.plan.tasks if t.todo]
    if not todo:
        return []
    [task] = runner.pair_tasks(manifest.schedule, [todo[0][:2]])
    if CALLS_KEY not in (task.metadata or {}):  # an oversight task: no call shape to price
        return []
    bounds = [CallBound.from_dict(b) for b in (task.metadata or {})[CALLS_KEY]]
    found = estimate(bounds, todo, manifest.schedule.judges)
    return lines(found, prices, sum(n for _, _, n in todo))


def _plan_step(args: argparse.Namespace) -> int:
    manifest = _planned(args)
    if manifest is None:
        return 0
    assert manifest.plan is not None
    most = len(manifest.plan.tasks)
    prices = f" --model-cost-config {args.model_cost_config}" if args.model_cost_config else ""
    print(f"run it: debatebench-eval tournament worker {args.log_dir} --index K --workers N"
          f"{prices} (K = 0 to N-1; N from 1 to {most})")  # fmt: skip
    return 0


def _run_step(args: argparse.Namespace) -> int:
    from debatebench_eval.runs.shares import auto_workers, check_share, parse_workers

    asked = parse_workers(args.workers)
    check_share(0, 1 if asked == "auto" else asked)
    _concurrency(args, 1 if asked == "auto" else asked)  # every flag checked before any write
    if args.adaptive:
        from debatebench_eval.cli.adaptive import Steps, run_adaptive

        steps = Steps(_requested, _probe, lambda a, m: _work(a, m, asked), _counts)
        return run_adaptive(args, steps)
    _no_adaptive_flags(args)
    manifest = _planned(args)
    if manifest is None:
        return 0
    assert manifest.plan is not None
    if asked == "auto":
        from debatebench_eval.runs.processes import usable_cores

        cores = usable_cores()
        args.workers = auto_workers(cores, len(manifest.plan.tasks))
        print(f"workers: {args.workers} (auto: {cores} core(s), "
              f"{len(manifest.plan.tasks)} task(s))")  # fmt: skip
    else:
        args.workers = asked
    args.workers = _capped(args.workers, args.max_connections)
    codes = _local_workers(args)
    for index, code in enumerate(codes):
        if code not in (0, 1):
            print(f"worker {index} of {args.workers} exited with status {code}", file=sys.stderr)
    pairs = tuple(_pair_of(manifest, task.name) for task in manifest.plan.tasks)
    return _summary(args.log_dir, pairs)


def _probe(schedule: Schedule, models: Any) -> None:
    from debatebench_eval.tournament import runner

    if dict(schedule.settings.task_args).get("probe", True) is not False:
        runner.probe_servers(schedule, models)


def _work(args: argparse.Namespace, manifest: Manifest, asked: int | str) -> list[int]:
    """Local workers over the manifest's planned tasks (`auto`: one a core, at most one a
    task), their exit codes; each a problem is said."""
    from debatebench_eval.runs.processes import usable_cores
    from debatebench_eval.runs.shares import auto_workers

    assert manifest.plan is not None
    tasks = len(manifest.plan.tasks)
    wanted = auto_workers(usable_cores(), tasks) if asked == "auto" else min(int(asked), tasks)
    args.workers = _capped(max(1, wanted), args.max_connections)
    codes = _local_workers(args)
    for index, code in enumerate(codes):
        if code not in (0, 1):
            print(f"worker {index} of {args.workers} exited with status {code}", file=sys.stderr)
    return codes


def _no_adaptive_flags(args: argparse.Namespace) -> None:
    for flag in ("round_size", "target_width", "max_debates"):
        if getattr(args, flag) is not None:
            name = "--" + flag.replace("_", "-")
            raise ConfigError(name, "given without --adaptive", f"--adaptive {name} ...")


def _capped(workers: int, connections: int | None) -> int:
    from debatebench_eval.runs.processes import workers_for

    count, why = workers_for(workers, connections)
    if why:
        print(f"workers: {count} ({why})")
    return count


def _local_workers(args: argparse.Namespace) -> list[int]:
    """`tournament worker` processes on this machine, one per share, all at once, each
    with its part of --max-connections."""
    from debatebench_eval.runs.processes import connection_share, run_workers

    display = args.display or ("plain" if args.workers > 1 else None)
    shared = ["--max-tasks", str(args.max_tasks), "--retry-attempts", str(args.retry_attempts),
              *(["--display", display] if display else [])]  # fmt: skip
    passed = (("--max-samples", args.max_samples), ("--batch", args.batch),
              ("--model-cost-config", args.model_cost_config))  # fmt: skip
    for flag, value in passed:
        if value:
            shared += [flag, str(value)]

    def connections(index: int) -> list[str]:
        total = args.max_connections
        return (
            ["--max-connections", str(connection_share(total, index, args.workers))]
            if total
            else []
        )

    return run_workers(["tournament", "worker", args.log_dir, *shared], args.workers, connections)


def _pair_of(manifest: Manifest, task: str) -> tuple[str, str]:
    from debatebench_eval.tournament.schedule import pair_task_name

    return next(p for p in manifest.schedule.pairs if pair_task_name(*p) == task)


def _worker_step(args: argparse.Namespace) -> int:
    from debatebench_eval.core._inspect import file
    from debatebench_eval.runs.location import check_reachable
    from debatebench_eval.runs.shares import check_share, deal, named_tasks
    from debatebench_eval.tournament import worker

    check_reachable(args.log_dir, f"LOG_DIR {args.log_dir}")
    manifest, plan = worker.planned(args.log_dir)
    worker.check_same_packages(plan, args.log_dir)
    if args.tasks is not None:
        if args.index is not None or args.workers is not None:
            raise ConfigError("--tasks", "given with --index/--workers", "one way to choose")
        with file(args.tasks, "r") as handle:
            tasks = named_tasks(handle.read(), args.tasks, plan.tasks)
        where = f"{len(tasks)} task(s) of {args.tasks}"
    else:
        if args.index is None or args.workers is None:
            raise ConfigError("tournament worker", "no share given",
                              "--index K --workers N, or --tasks FILE")  # fmt: skip
        check_share(args.index, args.workers)
        tasks = deal(plan.tasks, args.workers)[args.index]
        where = f"share {args.index} of {args.workers}"
    print(f"worker, {where}: {len(tasks)} task(s), {sum(t.samples for t in tasks)} debates; "
          "finished debates in the logs are kept")  # fmt: skip
    if not tasks:
        return 0
    from debatebench_eval.tournament.cost import known_to_inspect

    prices = known_to_inspect(_prices(args))
    outcome = worker.run_tasks(
        args.log_dir, manifest, tasks, _concurrency(args), args.display, prices
    )
    _counts(args.log_dir, tuple(_pair_of(manifest, t.name) for t in tasks), f"{where}: ")
    for task in outcome.unsettled:
        print(f"  unsettled: {task.name}")
    if outcome.unsettled:
        print("run the same worker again to resume: finished debates are kept")
        return 1
    return 0


_run = _checked("tournament run", _run_step)
_plan = _checked("tournament plan", _plan_step)
_worker = _checked("tournament worker", _worker_step)


def _print_schedule(schedule: Schedule, pairs: Pairs, resumed: bool) -> None:
    items = len(schedule.items)
    debates = len(pairs) * items * 2
    what = schedule.item_key
    print(f"tournament {schedule.identity_hash[:12]}: {len(schedule.models)} models, "
          f"{items} {what}, judges {', '.join(schedule.judges)}"
          + (" (resumed)" if resumed else ""))  # fmt: skip
    if schedule.adaptive:
        print(f"adaptive: {schedule.debates()} debates scheduled so far, in rounds chosen "
              "where a debate is worth most; finished debates in the logs are kept")  # fmt: skip
        return
    print(f"this run: {len(pairs)} pair(s) x {items} {what} x 2 sides "
          f"= {debates} debates; finished debates in the logs are kept")  # fmt: skip


def _counts(log_dir: str, pairs: Pairs, prefix: str = "") -> tuple[dict[str, int], int]:
    """Print what became of the pairs' debates; the counts by status, and how many
    debates there are."""
    from debatebench_eval.tournament.outcomes import read_tournament

    logs = read_tournament([log_dir], pairs)
    counts = {status: 0 for status in ("scored", "unscored", "error", "missing")}
    for result in logs.results:
        counts[result.status] += 1
    print(f"{prefix}debates: " + ", ".join(f"{n} {status}" for status, n in counts.items()))
    # Each debate that did not end scored, with its reason: failed or missing ones are
    # run again by the same command, unscored ones need another judge or a re-judging.
    for status in ("error", "missing", "unscored"):
        listed = [r for r in logs.results if r.status == status]
        for result in listed[:_LISTED]:
            side = " (sides exchanged)" if result.swapped else ""
            print(f"  {status}: {result.pro} (pro) vs {result.con} (con) on "
                  f"{result.motion}{side}: {plain_text(str(result.reason))}")  # fmt: skip
        if len(listed) > _LISTED:
            print(f"  ... and {len(listed) - _LISTED} more {status}")
    return counts, len(logs.results)


def _summary(log_dir: str, pairs: Pairs) -> int:
    counts, debates = _counts(log_dir, pairs)
    unsettled = counts["error"] + counts["missing"]
    if unsettled:
        print("run the same command again to resume: finished debates are kept")
    if not counts["scored"] and debates:
        print(f"nothing was scored: 0 of {debates} debates; the judges' reasons are "
              "listed above, under each pair's log")  # fmt: skip
        return 1
    if unsettled:
        return 1
    print(f"done: debatebench-eval tournament rate {log_dir}")
    return 0


def _rate(args: argparse.Namespace) -> int:
    from debatebench_eval.runs.location import check_reachable, parent
    from debatebench_eval.tournament.kind import RateOptions
    from debatebench_eval.tournament.leaderboard import write_leaderboard

    beside = parent(args.outcomes) if args.outcomes else None
    out = args.out or (args.folders[0] if args.folders else beside) or "."
    try:
        for flag, location in _rate_locations(args):
            check_reachable(location, flag)
        options = RateOptions(args.anchor, args.base, args.resamples, args.seed,
                              _prices(args), tuple(args.human))  # fmt: skip
        written = write_leaderboard(args.folders, out=out, options=options,
                                    plots=not args.no_plots, outcomes=args.outcomes)  # fmt: skip
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


def _rate_locations(args: argparse.Namespace) -> list[tuple[str, str]]:
    """Every location `rate` reads or writes, each with how the command line named it
    (the default --out is the first of them, or beside the outcomes file)."""
    found = [(f"LOG_DIR {folder}", folder) for folder in args.folders]
    if args.outcomes:
        found.append((f"--outcomes {args.outcomes}", args.outcomes))
    if args.out:
        found.append((f"--out {args.out}", args.out))
    return found


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
        from debatebench_eval.tournament.kinds import DEFAULT, kind_named

        scorer = kind_named(board["tournament"].get("task") or DEFAULT).scorer
        return (
            f"{why}; the judges gave no usable verdict (each reason is in leaderboard.md): "
            f"re-judge the logs with `inspect score LOG --scorer debatebench/{scorer} "
            "--model-role judge=...` or run again with other --judges"
        )
    return f"{why}; run `debatebench-eval tournament run` with this --log-dir first"
