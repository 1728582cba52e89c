"""`debatebench-eval run TASK --workers N [inspect eval options]` and `run-worker`: any
task's samples sharded over worker processes into one log folder (`runs.task_run`).

`run` plans (or finds again) the run, starts N local workers, then prints what
became of every sample and one headline over all of them. `run-worker` is one
worker, for a scheduler that starts workers elsewhere (a Slurm array, a
Kubernetes Indexed Job, `xargs -P`): `run` prints its command line.

Exit codes: 0 every sample ended without error (scored or not) and the run was
pooled; 1 some samples failed or did not run (run the same command again: only
they run); 2 bad input, nothing ran.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from debatebench_eval.core.errors import ServerError, print_error

_HEADLINE_METRICS = 8  # metrics shown per scorer; the pooled log's figures are all kept


def add_commands(commands: Any) -> None:
    run = commands.add_parser(
        "run", allow_abbrev=False,
        help="run any task's samples on N worker processes into one log folder",
        description="Shard TASK's samples over --workers local processes (Inspect's eval-set "
        "protocol, as tournaments run), then print one headline over every shard. Every "
        "option after TASK that is not below is `inspect eval`'s own (--model, -T, "
        "--model-role, --limit, --log-dir, ...). Run the same command again to resume; a "
        "larger --limit runs only the new samples.",
    )  # fmt: skip
    run.add_argument("task", metavar="TASK", help="a task: debatebench/oversight, file.py@task")
    run.add_argument(
        "--workers",
        default="auto",
        help="worker processes: a number, or auto (the default): one per core",
    )
    run.add_argument("--shards", type=int, help="shards of the samples (default: one a worker; "
                     "a run keeps its shards when run again)")  # fmt: skip
    run.add_argument(
        "--plan-only",
        action="store_true",
        help="plan the run and print the worker command; run nothing",
    )
    run.set_defaults(run=_run, inspect_options=True)
    worker = commands.add_parser(
        "run-worker", help="run one share of a planned `run` into its folder",
        description="Run the K-th of N shares of a planned run's shards (K 0-based, as "
        "SLURM_ARRAY_TASK_ID is). Finished samples are kept: run a killed worker's index "
        "again to finish its share.",
    )  # fmt: skip
    worker.add_argument("log_dir", metavar="LOG_DIR", help="the run's folder")
    worker.add_argument("key", metavar="RUN", help="the run's key (run-RUN.json in LOG_DIR)")
    worker.add_argument("--index", type=int, required=True, help="K: this worker's share")
    worker.add_argument("--workers", type=int, required=True, help="N: the number of shares")
    worker.add_argument("--display", help="Inspect's display for this worker")
    worker.add_argument("--plan-id", default="", help=argparse.SUPPRESS)  # `run`'s own workers
    worker.set_defaults(run=_worker)


def _run(args: argparse.Namespace) -> int:
    from debatebench_eval.core._inspect import PrerequisiteError

    try:
        prepared, workers = _prepared(args)
        run, processes = _planned(args, prepared, workers)
    except (PrerequisiteError, ServerError) as exc:
        print_error("run", exc)
        return 2
    if not processes:
        return 0
    from debatebench_eval.runs.processes import wait_for

    for index, code in enumerate(wait_for(processes)):
        if code not in (0, 1):
            print(f"worker {index} of {workers} exited with status {code}", file=sys.stderr)
    return _summary(run)


def _prepared(args: argparse.Namespace) -> tuple[Any, int]:
    """The run as its options name it, and how many workers run it: at most one a
    shard, and one a connection of --max-connections."""
    from debatebench_eval.runs.processes import usable_cores, workers_for
    from debatebench_eval.runs.shares import auto_workers, parse_workers
    from debatebench_eval.runs.task_run import prepare_run

    asked = parse_workers(args.workers)
    if args.shards is not None and args.shards < 1:
        raise _bad("--shards", f"got {args.shards}", "an integer of at least 1")
    wanted = usable_cores() if asked == "auto" else asked
    prepared = prepare_run(args.task, args.inspect_argv, args.shards, wanted)
    count, why = workers_for(auto_workers(wanted, prepared.spec.shards),
                             prepared.arguments.get("max_connections"))  # fmt: skip
    if why:
        print(f"workers: {count} ({why})")
    return prepared, count


def _planned(args: argparse.Namespace, prepared: Any, workers: int) -> tuple[Any, list[Any]]:
    """The plan, and the workers, started beside the plan step (they import Inspect and
    load the task while it is made, then wait for it): stopped if the plan fails."""
    import uuid

    from debatebench_eval.runs.processes import stop
    from debatebench_eval.runs.task_run import plan_run

    plan_id = uuid.uuid4().hex
    processes = [] if args.plan_only else _start_workers(prepared, workers, plan_id)
    try:
        run = plan_run(prepared, plan_id)
    except BaseException:
        stop(processes)
        raise
    _print_plan(run, workers)
    return run, processes


def _bad(where: str, found: str, expected: str) -> Exception:
    from debatebench_eval.core.errors import ConfigError

    return ConfigError(where, found, expected)


def _print_plan(run: Any, workers: int) -> None:
    tasks = run.plan.tasks
    samples, todo = sum(t.samples for t in tasks), sum(t.todo for t in tasks)
    print(f"run {run.key} of {run.spec.task} in {run.spec.log_dir}: {len(tasks)} shard(s), "
          f"{samples} samples, {todo} to run; {workers} worker(s)")  # fmt: skip
    print("a worker elsewhere: debatebench-eval run-worker "
          f"{shlex.quote(run.spec.log_dir)} {run.key} --index K --workers N")  # fmt: skip


def _start_workers(prepared: Any, workers: int, plan_id: str) -> list[Any]:
    from debatebench_eval.runs.processes import start_workers

    # Several workers' rich displays would overwrite each other: plain, unless the
    # options chose one (a worker reads them from the plan).
    options = prepared.spec.options
    chosen = any(o == "--display" or o.startswith("--display=") for o in options)
    display = ["--display", "plain"] if workers > 1 and not chosen else []
    command = ["run-worker", prepared.spec.log_dir, prepared.key, "--plan-id", plan_id]
    return start_workers([*command, *display], workers)


def _worker(args: argparse.Namespace) -> int:
    from debatebench_eval.core._inspect import PrerequisiteError
    from debatebench_eval.runs.task_run import run_worker

    try:
        outcome = run_worker(args.log_dir, args.key, args.index, args.workers, args.display,
                             args.plan_id)  # fmt: skip
    except (PrerequisiteError, ServerError) as exc:
        print_error("run-worker", exc)
        return 2
    for task in outcome.unsettled:
        print(f"  unsettled: {task.name}")
    if outcome.unsettled:
        print("run the same worker again to resume: finished samples are kept")
        return 1
    return 0


def _summary(run: Any) -> int:
    """Every shard's fate and one headline over the pooled samples; 1 when some did not end."""
    from debatebench_eval.runs.task_run import combined_log, write_results

    pooled, notes = combined_log(run)
    for note in notes:
        print(note, file=sys.stderr)
    if pooled is None:
        print("no shard has a readable log yet: run the same command again")
        return 1
    for line in headline_lines(pooled, len(run.plan.tasks)):
        print(line)
    print(f"every pooled metric: {write_results(run, pooled)}")
    planned = sum(t.samples for t in run.plan.tasks)
    samples = pooled.samples or []
    left = planned - sum(sample.error is None for sample in samples)
    if left:
        print(f"{left} of {planned} samples failed or have not run: run the same command "
              "again to run them (finished samples are kept)")  # fmt: skip
        return 1
    return 0


def headline_lines(pooled: Any, shards: int) -> list[str]:
    """What the pooled run came to: the samples, then each scorer's metrics over all of
    them, as `inspect eval` prints them at the end of one run."""
    samples = pooled.samples or []
    failed = sum(sample.error is not None for sample in samples)
    lines = [f"{pooled.eval.task_registry_name or pooled.eval.task} over {shards} shard(s): "
             f"{len(samples)} samples, {failed} failed"]  # fmt: skip
    for score in pooled.results.scores if pooled.results else []:
        shown = list(score.metrics.values())[:_HEADLINE_METRICS]
        more = len(score.metrics) - len(shown)
        figures = ", ".join(f"{m.name} {m.value:.4g}" for m in shown)
        lines.append(f"  {score.name} ({score.scored_samples} scored): {figures}"
                     + (f", and {more} more" if more > 0 else ""))  # fmt: skip
    return lines
