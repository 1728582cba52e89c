"""A worker: one share of a planned run, run into the shared log folder.

The worker takes its share of the plan's tasks (`runs.shares`) and runs the ones
that are not settled through Inspect's selection mode: each task resumes from its
newest log, so samples finished before a crash or a kill are kept and never run
again. It writes only its own tasks' logs and never the plan, so workers need no
lock and may run anywhere that reaches the folder and the model servers.
Selection mode leaves retrying to its runner: the worker looks again after each
attempt and resumes what is still unsettled, up to `retry_attempts` times.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import platformdirs

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.runs.eval_sets import selected
from debatebench_eval.runs.planned import Plan, PlannedTask, package_versions
from debatebench_eval.runs.task_logs import (
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

# The eval_set call that runs these tasks (built afresh for each attempt).
CallFor = Callable[[Sequence[PlannedTask]], Callable[[], object]]


@dataclass(frozen=True)
class Outcome:
    tasks: tuple[PlannedTask, ...]
    unsettled: tuple[PlannedTask, ...]


def check_same_packages(plan: Plan, log_dir: str, plan_again: str) -> None:
    """The worker runs the packages the plan ran. A task's identifier, by which the
    worker finds its tasks and their logs, is computed from its code and settings: a
    worker on other versions would not find them (Inspect stops it on the first
    task), and would run other code than the plan's."""
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
            f"the same versions on every worker as on the planning machine, or {plan_again} "
            "again with these",
        )


def unsettled(
    reader: TaskLogReader, tasks: Sequence[PlannedTask], report: Callable[[str], None] = print
) -> tuple[dict[str, TaskLog], list[PlannedTask]]:
    """The newest readable log of each task, and the tasks not settled by theirs. Only
    these tasks' logs are opened: the others' workers may be writing theirs."""
    newest = reader.newest(task.name for task in tasks)
    for note in reader.take_notes():
        report(note)
    left = [
        task for task in tasks
        if task.identifier not in newest or not newest[task.identifier].settled(task.samples)
    ]  # fmt: skip
    return newest, left


def run_tasks(
    log_dir: str,
    eval_set_id: str,
    tasks: Sequence[PlannedTask],
    call_for: CallFor,
    retry_attempts: int,
    before_first: Callable[[Sequence[PlannedTask]], None] | None = None,
) -> Outcome:
    """Run the tasks until each is settled or the retries are spent; `before_first`
    sees the tasks left before the first attempt (a probe of their servers)."""
    check_log_file_names()
    reader = TaskLogReader(log_dir)
    left: list[PlannedTask] = list(tasks)
    for attempt in range(retry_attempts + 1):
        newest, left = unsettled(reader, tasks)
        if not left:
            break
        if attempt:
            time.sleep(min(RETRY_WAIT_S * 2 ** (attempt - 1), RETRY_WAIT_MAX_S))
        else:
            check_socket_room()  # before any call: it fails the whole worker
            if before_first is not None:
                before_first(left)
        selected(eval_set_id, left, newest, call_for(left))
        tidy_superseded(reader, [t.name for t in left], [t.identifier for t in left])
    else:
        _, left = unsettled(reader, tasks)
    return Outcome(tuple(tasks), tuple(left))


def check_socket_room() -> None:
    """A worker is an eval set in Inspect's selection mode, which binds Inspect's ACP
    socket in Inspect's data folder, named by the process id. A deep data folder fails
    the worker with Inspect's bare `AF_UNIX path too long` before any sample: said
    here instead, naming the folder and the fix."""
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
