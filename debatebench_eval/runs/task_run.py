"""`debatebench-eval run TASK --workers N`: one task's samples sharded over N worker
processes into one log folder, on the plan/worker steps tournaments use.

The plan step parses Inspect's options, makes the shards (`runs.sharded`),
captures them (Inspect's capture mode) and writes `run-KEY.json`; workers, here
or anywhere that reaches the folder, each run a share of the shards in
selection mode, resuming whatever a killed worker left; the summary pools the
newest log of every shard and recomputes the task's metrics over all of them
(Inspect's own `recompute_metrics`, so the figures are the ones one `inspect
eval` would have given). Run the same command again to resume; a larger
`--limit` grows the run and only the new samples run.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from inspect_ai.log import EvalLog, recompute_metrics

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.log_folder import LogFolder
from debatebench_eval.runs.eval_sets import capture, planned_tasks, quiet_display
from debatebench_eval.runs.location import replace_file
from debatebench_eval.runs.planned import Plan, PlannedTask, package_versions
from debatebench_eval.runs.run_file import (
    RunFile,
    capture_path,
    read_run_file,
    write_run_file,
)
from debatebench_eval.runs.sharded import (
    WORKER_DEFAULTS,
    RunSpec,
    eval_set_call,
    shard_name,
    shard_tasks,
)
from debatebench_eval.runs.task_logs import TaskLogReader
from debatebench_eval.runs.worker import Outcome, check_same_packages, run_tasks


def plan_run(task: str, options: Sequence[str], shards: int | None, workers: int) -> RunFile:
    """Plan the run (or find its plan again and bring it up to date) and write it."""
    probe = RunSpec(task, tuple(options), "", 1)
    arguments = probe.arguments()
    log_dir = str(arguments["log_dir"])
    key = probe.key(arguments)
    existing = read_run_file(log_dir, key)
    count = _shard_count(existing, shards, workers, log_dir)
    spec = RunSpec(task, tuple(options), log_dir, count)
    run_id = f"debatebench-run-{key}"
    tasks = shard_tasks(spec, arguments, range(count))
    call = eval_set_call(tasks, arguments, log_dir, run_id, {"display": "none"})
    planned = planned_tasks(capture(call, capture_path(log_dir, key)), log_dir)
    if existing is not None:
        _check_same_run(existing, planned, log_dir)
    models = tuple(str(m) for m in [arguments.get("model")] if m)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    run = RunFile(key, spec, Plan(now, models, planned, package_versions()))
    write_run_file(run)
    return run


def _shard_count(existing: RunFile | None, asked: int | None, workers: int, where: str) -> int:
    """The folder's shard count for this run, else the one asked for, else one a worker."""
    if existing is None:
        return asked or workers
    if asked is not None and asked != existing.spec.shards:
        raise ConfigError(
            f"--shards {asked}", f"the run in {where} has {existing.spec.shards} shards",
            f"--shards {existing.spec.shards} (or none: a run keeps its shards), or "
            "another --log-dir",
        )  # fmt: skip
    return existing.spec.shards


def _check_same_run(existing: RunFile, planned: Sequence[PlannedTask], where: str) -> None:
    """A folder holds one run of a task on a model: other settings are another run."""
    there = {t.identifier for t in existing.plan.tasks}
    if there != {t.identifier for t in planned}:
        raise ConfigError(
            where, f"holds a run of {existing.spec.task} on the same model with other "
            "settings (a generate setting, solver, limit or task version differs: the "
            "shards' Inspect identifiers do not match)",
            "the options of the run there, or another --log-dir",
        )  # fmt: skip


def run_worker(
    log_dir: str, key: str, index: int, workers: int, display: str | None = None
) -> Outcome:
    """Run share `index` of `workers` of the run's shards until each is settled."""
    from debatebench_eval.runs.shares import check_share, deal

    run = planned_run(log_dir, key)
    check_same_packages(run.plan, log_dir, "`debatebench-eval run`")
    check_share(index, workers)
    mine = deal(run.plan.tasks, workers)[index]
    extra = ["--display", display] if display else []
    arguments = _per_worker(run.spec.arguments(extra), workers)
    retries = arguments.get("retry_attempts")
    runtime = {**WORKER_DEFAULTS, "display": quiet_display(display)}

    def call_for(left: Sequence[PlannedTask]) -> Any:
        tasks = shard_tasks(run.spec, arguments, [_shard_of(run, t) for t in left])
        return eval_set_call(tasks, arguments, log_dir, run.eval_set_id, runtime)

    return run_tasks(log_dir, run.eval_set_id, mine, call_for, 2 if retries is None else retries)


def planned_run(log_dir: str, key: str) -> RunFile:
    run = read_run_file(log_dir, key)
    if run is None:
        raise ConfigError(
            log_dir, f"holds no plan of run {key} (no run-{key}.json)",
            "a folder where `debatebench-eval run TASK ... --log-dir` planned that run",
        )  # fmt: skip
    return run


def _per_worker(arguments: dict[str, Any], workers: int) -> dict[str, Any]:
    """`--max-connections` is per server: shared out among the workers."""
    connections = arguments.get("max_connections")
    if connections:
        return {**arguments, "max_connections": max(1, int(connections) // workers)}
    return arguments


def _shard_of(run: RunFile, task: PlannedTask) -> int:
    shards = run.spec.shards
    names = {shard_name(run.spec.task, k, shards): k for k in range(shards)}
    return names[task.name]


def combined_log(run: RunFile) -> tuple[EvalLog | None, list[str]]:
    """One log of the whole run: the newest log of each shard, their samples pooled
    and the task's metrics recomputed over all of them (None before any shard has a
    readable log); and the notes on logs passed over."""
    reader = TaskLogReader(run.spec.log_dir)
    newest = reader.newest(t.name for t in run.plan.tasks)
    logs = [newest[t.identifier] for t in run.plan.tasks if t.identifier in newest]
    if not logs:
        return None, reader.take_notes()
    folder = LogFolder.of(run.spec.log_dir)
    samples = [s for log in logs for s in folder.samples(log)]
    pooled = logs[0].header.model_copy(deep=True)
    pooled.samples = samples
    if samples and pooled.eval.scorers:
        recompute_metrics(pooled)
    notes = [*reader.take_notes(), *(str(n) for n in folder.take_notes())]
    return pooled, notes


def results_path(run: RunFile) -> str:
    return f"{run.spec.log_dir.rstrip('/')}/run-{run.key}-results.json"


def write_results(run: RunFile, pooled: EvalLog) -> str:
    """Every pooled metric (the terminal shows the first few), beside the run's plan:
    not named like a log, so no reader takes it for one."""
    results = pooled.results.model_dump(mode="json", exclude_none=True) if pooled.results else {}
    document = {"run": run.key, "task": run.spec.task, "shards": run.spec.shards,
                "samples": len(pooled.samples or []), "results": results}  # fmt: skip
    path = results_path(run)
    replace_file(path, json.dumps(document, indent=2) + "\n")
    return path
