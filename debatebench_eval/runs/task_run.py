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
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from inspect_ai.log import EvalLog, recompute_metrics

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.log_folder import LEAN, LogFolder
from debatebench_eval.runs.eval_sets import capture, planned_tasks, quiet_display
from debatebench_eval.runs.location import replace_file
from debatebench_eval.runs.planned import Plan, PlannedTask, package_versions
from debatebench_eval.runs.processes import connection_share
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


@dataclass(frozen=True)
class Prepared:
    """A run as its options name it, before its plan: what the workers need to know
    to start (the folder, the key, the shards) while the plan is made."""

    spec: RunSpec
    key: str
    arguments: dict[str, Any]
    existing: RunFile | None


def prepare_run(task: str, options: Sequence[str], shards: int | None, workers: int) -> Prepared:
    """The run's folder, key and shards (the folder's own when it holds the run)."""
    probe = RunSpec(task, tuple(options), "", 1)
    arguments = probe.arguments()
    log_dir = str(arguments["log_dir"])
    key = probe.key(arguments)
    existing = read_run_file(log_dir, key)
    count = _shard_count(existing, shards, workers, log_dir)
    return Prepared(RunSpec(task, tuple(options), log_dir, count), key, arguments, existing)


def plan_run(prepared: Prepared, plan_id: str = "") -> RunFile:
    """Plan the run (or bring the folder's plan up to date) and write it, marked with
    `plan_id` for the workers that wait for this plan."""
    spec, key, arguments = prepared.spec, prepared.key, prepared.arguments
    tasks = shard_tasks(spec, arguments, range(spec.shards))
    call = eval_set_call(tasks, arguments, spec.log_dir, f"debatebench-run-{key}",
                         {"display": "none"})  # fmt: skip
    planned = planned_tasks(capture(call, capture_path(spec.log_dir, key)), spec.log_dir)
    if prepared.existing is not None:
        _check_same_run(prepared.existing, planned, spec.log_dir)
    models = tuple(str(m) for m in [arguments.get("model")] if m)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    run = RunFile(key, spec, Plan(now, models, planned, package_versions()), plan_id)
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


# How a worker started beside the plan step waits for its plan.
PLAN_POLL_S = 0.1
PLAN_WAIT_S = 600.0
# What a pooled sample need not hold: the metrics read its scores, metadata and error.
POOLED_WITHOUT = (*LEAN, "store", "output")


def run_worker(
    log_dir: str,
    key: str,
    index: int,
    workers: int,
    display: str | None = None,
    plan_id: str = "",
) -> Outcome:
    """Run share `index` of `workers` of the run's shards until each is settled (once
    the plan marked `plan_id` is written, when one is named)."""
    from debatebench_eval.runs.shares import check_share, deal

    run = awaited_plan(log_dir, key, plan_id) if plan_id else planned_run(log_dir, key)
    check_same_packages(run.plan, log_dir, "`debatebench-eval run`")
    check_share(index, workers)
    mine = deal(run.plan.tasks, workers)[index]
    extra = ["--display", display] if display else []
    arguments = _per_worker(run.spec.arguments(extra), index, workers)
    retries = arguments.get("retry_attempts")
    runtime = {**WORKER_DEFAULTS, "display": quiet_display(display)}

    def call_for(left: Sequence[PlannedTask]) -> Any:
        tasks = shard_tasks(run.spec, arguments, [_shard_of(run, t) for t in left])
        return eval_set_call(tasks, arguments, log_dir, run.eval_set_id, runtime)

    return run_tasks(log_dir, run.eval_set_id, mine, call_for, 2 if retries is None else retries)


def awaited_plan(log_dir: str, key: str, plan_id: str) -> RunFile:
    """The plan marked `plan_id`, once the plan step that started this worker has
    written it: a worker started beside the plan step imports Inspect and loads the
    task while the plan is made, instead of after. The plan step stops its workers
    when it fails."""
    waited = 0.0
    while waited < PLAN_WAIT_S:
        found = read_run_file(log_dir, key)
        if found is not None and found.plan_id == plan_id:
            return found
        time.sleep(PLAN_POLL_S)
        waited += PLAN_POLL_S
    raise ConfigError(log_dir, f"no plan {plan_id} of run {key} after {PLAN_WAIT_S:.0f} s",
                      "the plan step that started this worker to write it")  # fmt: skip


def planned_run(log_dir: str, key: str) -> RunFile:
    run = read_run_file(log_dir, key)
    if run is None:
        raise ConfigError(
            log_dir, f"holds no plan of run {key} (no run-{key}.json)",
            "a folder where `debatebench-eval run TASK ... --log-dir` planned that run",
        )  # fmt: skip
    return run


def _per_worker(arguments: dict[str, Any], index: int, workers: int) -> dict[str, Any]:
    """`--max-connections` is per server: shared out among the workers."""
    connections = arguments.get("max_connections")
    if connections:
        return {**arguments, "max_connections": connection_share(int(connections), index, workers)}
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
    samples = [s for log in logs for s in folder.all_samples(log, exclude=POOLED_WITHOUT)]
    pooled = logs[0].header.model_copy(deep=True)
    pooled.samples = samples
    if any(sample.scores for sample in samples) and pooled.eval.scorers:
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
