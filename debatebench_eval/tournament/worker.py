"""A tournament worker: one share of a planned tournament, run into the shared log
folder by the package's one worker (`runs.worker`), its tasks the pairs' tasks
rebuilt from the folder's schedule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.runs.planned import Plan, PlannedTask
from debatebench_eval.runs.worker import Outcome
from debatebench_eval.runs.worker import check_same_packages as same_packages
from debatebench_eval.runs.worker import run_tasks as run_planned
from debatebench_eval.tournament import runner
from debatebench_eval.tournament.manifest import Manifest, read_manifest
from debatebench_eval.tournament.schedule import pair_task_name

__all__ = ["Outcome", "check_same_packages", "planned", "run_tasks"]


def planned(log_dir: str) -> tuple[Manifest, Plan]:
    """The folder's manifest and its plan, or one message saying what to run first."""
    manifest = read_manifest(log_dir)
    if manifest is None or manifest.plan is None:
        raise ConfigError(
            log_dir, "holds no tournament plan" if manifest else "no tournament.json in it",
            f"a folder planned by `debatebench-eval tournament plan ... --log-dir {log_dir}`",
        )  # fmt: skip
    return manifest, manifest.plan


def check_same_packages(plan: Plan, log_dir: str) -> None:
    same_packages(plan, log_dir, "`debatebench-eval tournament plan`")


def run_tasks(
    log_dir: str,
    manifest: Manifest,
    tasks: Sequence[PlannedTask],
    concurrency: runner.Concurrency,
    display: str | None = None,
    prices: dict[str, Any] | None = None,
) -> Outcome:
    """Run the tasks until each is settled or the retries are spent (`prices`: the
    models Inspect prices, for its cost figures and the plan's cost limit)."""
    schedule = manifest.schedule
    pairs = {pair_task_name(a, b): (a, b) for a, b in schedule.pairs}

    def call_for(left: Sequence[PlannedTask]) -> Any:
        built = runner.pair_tasks(schedule, [pairs[t.name] for t in left])
        return lambda: runner.run_eval_set(schedule, built, log_dir, concurrency, display, prices)

    def probe(left: Sequence[PlannedTask]) -> None:
        if dict(schedule.settings.task_args).get("probe", True):
            runner.probe_servers(schedule, sorted({m for t in left for m in pairs[t.name]}))

    return run_planned(
        log_dir, schedule.eval_set_id, tasks, call_for, concurrency.retry_attempts, probe
    )
