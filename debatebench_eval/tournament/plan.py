"""The plan step: the only writer of a tournament folder's tournament.json.

It merges the requested schedule into the folder's, enumerates the pairs' tasks
with Inspect's capture mode (`runs.eval_sets`: every task resolved and
identified, nothing run, the log folder untouched), writes that capture manifest
beside the logs for runners that speak Inspect's protocol, and records the plan
in tournament.json: each task's identifier, its debates and how many of them the
folder's logs do not hold yet. Workers only read the folder's plan, so any
number of them may start at once, on a disk or an object store, with no lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from inspect_ai import Task

from debatebench_eval.core._inspect import EvalSetCapture
from debatebench_eval.runs.eval_sets import capture as capture_tasks
from debatebench_eval.runs.eval_sets import planned_tasks
from debatebench_eval.runs.planned import Plan, package_versions
from debatebench_eval.tournament import manifest as mf
from debatebench_eval.tournament import runner
from debatebench_eval.tournament.schedule import Schedule


def capture_path(log_dir: str) -> str:
    return f"{log_dir.rstrip('/')}/{mf.CAPTURE}"


def capture(schedule: Schedule, tasks: list[Task], log_dir: str) -> EvalSetCapture:
    """The tasks as Inspect's capture mode enumerates them, written into the folder."""
    return capture_tasks(
        lambda: runner.run_eval_set(schedule, tasks, log_dir, runner.Concurrency(), display="none"),
        capture_path(log_dir),
    )


def plan(log_dir: str, requested: Schedule, existing: mf.Manifest | None) -> mf.Manifest:
    """Plan the requested pairs over every scheduled item (a dataset never shrinks,
    or Inspect would re-run the pair from scratch) and write tournament.json."""
    schedule = existing.schedule.grown(requested) if existing is not None else requested
    pairs = [p for p in requested.pairs if p in schedule.scheduled_pairs]
    return plan_pairs(log_dir, schedule, pairs, requested.models, existing)


def plan_pairs(
    log_dir: str,
    schedule: Schedule,
    pairs: Sequence[tuple[str, str]],
    models: Sequence[str],
    existing: mf.Manifest | None,
    rounds: Sequence[dict[str, object]] | None = None,
) -> mf.Manifest:
    """Plan these pairs of `schedule` (asked for `models`), each over the items it
    debates, and write tournament.json with the folder's history (and `rounds`, an
    adaptive tournament's, when given)."""
    tasks = runner.pair_tasks(schedule, pairs)
    captured = capture(schedule, tasks, log_dir)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    the_plan = Plan(now, tuple(models), planned_tasks(captured, log_dir), package_versions())
    runs: Sequence[dict[str, object]] = existing.runs if existing is not None else ()
    kept = existing.rounds if existing is not None else ()
    written = mf.Manifest(schedule, (*runs, mf.plan_entry(schedule, the_plan)), the_plan,
                          tuple(rounds) if rounds is not None else kept)  # fmt: skip
    mf.write_manifest(log_dir, written)
    return written
