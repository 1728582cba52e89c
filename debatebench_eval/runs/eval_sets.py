"""Inspect's eval-set protocol, as the plan step and the workers speak it.

The plan step runs an `eval_set` call in capture mode (INSPECT_EVAL_SET_CAPTURE:
every task resolved and identified, nothing run, the log folder untouched) and
writes the capture manifest beside the logs; each worker runs the same call in
selection mode (INSPECT_EVAL_SET_SELECTION: only the tasks it names, each resuming
from the log it names, with no eval-set bookkeeping), so many workers share one
folder. Both make the same call with the same arguments, so a task's identifier in
the plan is the one the worker computes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from debatebench_eval.core._inspect import (
    EVAL_SET_SELECTION_VERSION,
    INSPECT_EVAL_SET_CAPTURE,
    INSPECT_EVAL_SET_SELECTION,
    EvalSetCapture,
    EvalSetSelection,
    EvalSetSelectionTask,
    file,
)
from debatebench_eval.runs.planned import PlannedTask
from debatebench_eval.runs.task_logs import TaskLog, TaskLogReader


@contextmanager
def eval_set_mode(variable: str, path: str) -> Iterator[None]:
    """Inspect's capture or selection mode for the eval_set calls inside: Inspect
    reads it from the environment, so it is set for the call and put back after."""
    before = os.environ.get(variable)
    os.environ[variable] = path
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(variable, None)
        else:
            os.environ[variable] = before


def quiet_display(display: str | None) -> str | None:
    """`none` as Inspect's `log` display, silent below its log level as `none` is.
    Inspect runs `none` on its rich display with the console muted, which still
    lays out every finished task's results table to throw it away: 0.3 s of CPU a
    task at this project's 79 metrics, a fifth of a worker's CPU."""
    return "log" if display == "none" else display


def capture(call: Callable[[], object], path: str) -> EvalSetCapture:
    """The tasks an eval_set `call` would run, as capture mode enumerates them into
    `path` (a file in the log folder, for runners that speak the protocol)."""
    with eval_set_mode(INSPECT_EVAL_SET_CAPTURE, path):
        try:
            call()
        except SystemExit as exc:  # capture mode ends the process once it has written
            if exc.code not in (0, None):
                raise
    with file(path, "r") as handle:
        return EvalSetCapture.model_validate_json(handle.read())


def planned_tasks(
    captured: EvalSetCapture, log_dir: str, report: Callable[[str], None] = print
) -> tuple[PlannedTask, ...]:
    """Each captured task with the samples its newest readable log in the folder lacks
    (workers may be running: a log being written counts as holding nothing yet)."""
    reader = TaskLogReader(log_dir)
    newest = reader.newest(task.name for task in captured.tasks)
    for note in reader.take_notes():
        report(note)
    planned = []
    for task in captured.tasks:
        samples = task.samples * task.epochs
        log = newest.get(task.identifier)
        done = log.completed() if log is not None else 0
        planned.append(PlannedTask(task.name, task.identifier, samples, max(0, samples - done)))
    return tuple(planned)


def selection(
    eval_set_id: str, tasks: Iterable[PlannedTask], newest: dict[str, TaskLog]
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
        version=EVAL_SET_SELECTION_VERSION, eval_set_id=eval_set_id, tasks=entries
    )


def selected(
    eval_set_id: str,
    tasks: Sequence[PlannedTask],
    newest: dict[str, TaskLog],
    call: Callable[[], object],
) -> None:
    """Make the eval_set `call` in selection mode for these tasks. The selection is this
    worker's alone: a local temporary file, whatever the folder."""
    import tempfile

    document = selection(eval_set_id, tasks, newest).model_dump_json(exclude_none=True)
    fd, path = tempfile.mkstemp(prefix="debatebench-selection-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(document)
        with eval_set_mode(INSPECT_EVAL_SET_SELECTION, path):
            call()
    finally:
        os.unlink(path)
