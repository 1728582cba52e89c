"""A worker: one share of a planned tournament, run into the shared log folder.

The worker reads the folder's plan, takes its share (tournament.shares), and
runs the tasks of it that are not settled through Inspect's selection mode
(INSPECT_EVAL_SET_SELECTION): each task resumes from its newest log, so
debates finished before a crash or a kill are kept and never run again. It
writes only its own tasks' logs and never tournament.json, so workers need no
lock and may run anywhere that reaches the folder and the model servers.
Selection mode leaves retrying to its runner: the worker checks again after
each attempt and resumes what is still unsettled, up to `retry_attempts` times.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import platformdirs

from debatebench_eval.core._inspect import (
    EVAL_SET_SELECTION_VERSION,
    INSPECT_EVAL_SET_SELECTION,
    EvalSetSelection,
    EvalSetSelectionTask,
)
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.tournament import runner
from debatebench_eval.tournament.manifest import (
    Manifest,
    Plan,
    PlannedTask,
    package_versions,
    read_manifest,
)
from debatebench_eval.tournament.schedule import pair_task_name
from debatebench_eval.tournament.task_logs import (
    TaskLog,
    TaskLogReader,
    check_log_file_names,
    tidy_superseded,
)

RETRY_WAIT_S = 30.0  # before the first retry, doubling (Inspect's eval_set waits so too)
RETRY_WAIT_MAX_S = 600.0


# A socket's path, the terminating NUL excluded: sun_path is 108 bytes on Linux and
# 104 on macOS and the BSDs.
SOCKET_PATH_MAX = 107 if sys.platform.startswith("linux") else 103


@dataclass(frozen=True)
class Outcome:
    tasks: tuple[PlannedTask, ...]
    unsettled: tuple[PlannedTask, ...]


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
    """The worker runs the packages the plan ran. A task's identifier, by which the
    worker finds its tasks and their logs, is computed from its code and settings: a
    worker on other versions would not find them (Inspect stops it on the first
    task), and would run debates the plan's code does not."""
    here = package_versions()
    differ = [
        f"{name} {there} there, {here.get(name)} here"
        for name, there in sorted(plan.versions.items())
        if there != here.get(name)
    ]
    if differ:
        raise ConfigError(
            f"{log_dir}: its plan",
            f"was made by other packages than this worker runs ({'; '.join(differ)})",
            "the same versions on every worker as on the planning machine, or "
            "`debatebench-eval tournament plan` again with these",
        )


def selection(
    manifest: Manifest, tasks: Sequence[PlannedTask], newest: dict[str, TaskLog]
) -> EvalSetSelection:
    """The selection document: each task by identifier, resuming from its newest log."""
    entries = [
        EvalSetSelectionTask(
            identifier=task.identifier,
            resume=newest[task.identifier].location if task.identifier in newest else None,
        )
        for task in tasks
    ]
    return EvalSetSelection(
        version=EVAL_SET_SELECTION_VERSION,
        eval_set_id=manifest.schedule.eval_set_id,
        tasks=entries,
    )


def unsettled(
    reader: TaskLogReader, tasks: Sequence[PlannedTask]
) -> tuple[dict[str, TaskLog], list[PlannedTask]]:
    """The newest readable log of each task, and the tasks not settled by theirs. Only
    these tasks' logs are opened: the others' workers may be writing theirs."""
    newest = reader.newest(task.name for task in tasks)
    for note in reader.take_notes():
        print(note)
    left = [
        task for task in tasks
        if task.identifier not in newest or not newest[task.identifier].settled(task.samples)
    ]  # fmt: skip
    return newest, left


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
    pairs = {pair_task_name(a, b): (a, b) for a, b in manifest.schedule.pairs}
    check_log_file_names()
    reader = TaskLogReader(log_dir)
    left: list[PlannedTask] = list(tasks)
    for attempt in range(concurrency.retry_attempts + 1):
        newest, left = unsettled(reader, tasks)
        if not left:
            break
        if attempt:
            time.sleep(min(RETRY_WAIT_S * 2 ** (attempt - 1), RETRY_WAIT_MAX_S))
        if attempt == 0:
            check_socket_room()  # before the probe's calls: it fails the whole worker
        if attempt == 0 and dict(manifest.schedule.settings.task_args).get("probe", True):
            models = sorted({model for task in left for model in pairs[task.name]})
            runner.probe_servers(manifest.schedule, models)
        _run_selection(log_dir, manifest, left, newest, pairs, concurrency, display, prices)
        tidy_superseded(reader, [t.name for t in left], [t.identifier for t in left])
    else:
        _, left = unsettled(reader, tasks)
    return Outcome(tuple(tasks), tuple(left))


def check_socket_room() -> None:
    """A worker is an eval set in Inspect's selection mode, which binds Inspect's ACP
    socket in Inspect's data folder, named by the process id. A deep data folder fails
    the worker with Inspect's bare `AF_UNIX path too long` before any debate: said here
    instead, naming the folder and the fix."""
    data = platformdirs.user_data_path("inspect_ai")
    socket = data / "acp" / f"{os.getpid()}.sock"
    length = len(os.fsencode(socket))
    if length > SOCKET_PATH_MAX:
        raise ConfigError(
            "Inspect's data folder",
            f"{data}: a worker's socket there, {socket.name} in acp/, has a path of {length} bytes",
            f"a folder whose socket path fits in {SOCKET_PATH_MAX} bytes: set "
            "XDG_DATA_HOME to a shorter folder on the worker's own disk",
        )


def _run_selection(
    log_dir: str,
    manifest: Manifest,
    tasks: Sequence[PlannedTask],
    newest: dict[str, TaskLog],
    pairs: dict[str, tuple[str, str]],
    concurrency: runner.Concurrency,
    display: str | None,
    prices: dict[str, Any] | None = None,
) -> None:
    document = selection(manifest, tasks, newest).model_dump_json(exclude_none=True)
    # The selection is this worker's alone: a local temporary file, whatever the folder.
    fd, path = tempfile.mkstemp(prefix="tournament-selection-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(document)
        built = runner.pair_tasks(manifest.schedule, [pairs[t.name] for t in tasks])
        with runner.eval_set_mode(INSPECT_EVAL_SET_SELECTION, path):
            runner.run_eval_set(manifest.schedule, built, log_dir, concurrency, display, prices)
    finally:
        os.unlink(path)
