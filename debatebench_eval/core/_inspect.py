"""Every use of Inspect's private API, in one place.

These names are not exported by `inspect_ai` but the project needs them: the
clean-error exception the CLI prints without a traceback and the one it ends
on in silence (the message already printed), whether the display is set yet,
the registry calls
behind the `debatebench/` aliases, the eval-level generate config (which
Inspect gives only to the main model), the file access Inspect uses for log
folders (local or any fsspec URL), its listing of log files already found, and
how it writes a task's name into a log's file name, the identity eval_set gives a task
(which decides what a tournament resumes) and the source file it
hashes into it, eval_set's capture and selection
modes (the wire format a tournament's plan and its workers speak), the options
of `inspect eval-set` as its own command line parses them, how it loads a task by
name and applies `--limit`/`--sample-id` to a dataset (a sharded run does both
before sharding), and the
generate cache's entries with the running eval's task id (the crucible stores
a call only once its reply passed its checks, under the one id `inspect eval-retry` keeps).
tests/test_registry.py fails loudly if an Inspect release moves any of them.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task
from inspect_ai._control.eval_state import get_eval_state
from inspect_ai._eval.eval_set_manifest import INSPECT_EVAL_SET_CAPTURE, EvalSetCapture
from inspect_ai._eval.eval_set_selection import (
    EVAL_SET_SELECTION_VERSION,
    INSPECT_EVAL_SET_SELECTION,
    EvalSetSelection,
    EvalSetSelectionTask,
)
from inspect_ai._eval.evalset import TASK_IDENTIFIER_VERSION, task_identifier
from inspect_ai._eval.loader import load_tasks
from inspect_ai._eval.task.constants import TASK_FILE_ATTR, TASK_RUN_DIR_ATTR
from inspect_ai._eval.task.util import slice_dataset
from inspect_ai._util.error import PrerequisiteError, SilentException
from inspect_ai._util.file import clean_filename_component, file, filesystem
from inspect_ai._util.registry import (
    RegistryInfo,
    registry_add,
    registry_info,
    registry_lookup,
    registry_params,
)
from inspect_ai.event import Event
from inspect_ai.log import transcript
from inspect_ai.log._file import log_files_from_ls
from inspect_ai.log._samples import sample_active
from inspect_ai.model._cache import CacheEntry, cache_fetch, cache_store
from inspect_ai.model._generate_config import active_generate_config
from inspect_ai.util._display import display_type_initialized

__all__ = [
    "EVAL_SET_SELECTION_VERSION",
    "INSPECT_EVAL_SET_CAPTURE",
    "INSPECT_EVAL_SET_SELECTION",
    "TASK_IDENTIFIER_VERSION",
    "CacheEntry",
    "EvalSetCapture",
    "EvalSetSelection",
    "EvalSetSelectionTask",
    "PrerequisiteError",
    "RegistryInfo",
    "SilentException",
    "active_generate_config",
    "cache_fetch",
    "cache_store",
    "clean_filename_component",
    "display_type_initialized",
    "eval_set_arguments",
    "file",
    "filesystem",
    "get_eval_state",
    "load_tasks",
    "log_files_from_ls",
    "record_event",
    "registry_add",
    "registry_info",
    "registry_lookup",
    "registry_params",
    "resumable_run_id",
    "sample_active",
    "slice_dataset",
    "task_identifier",
    "without_source_file",
]


def without_source_file(task: Task) -> Task:
    """The task as Inspect builds one from an installed package: without the source
    file (and run folder) it records for a task imported from a plain folder. That
    file is part of the task's eval-set identity, so the same task imported from a
    checkout (`python -m` inside it) and from site-packages would be two tasks."""
    for name in (TASK_FILE_ATTR, TASK_RUN_DIR_ATTR):
        if hasattr(task, name):
            delattr(task, name)
    return task


def resumable_run_id() -> str | None:
    """The running eval's task id, or None outside a running sample.

    Inspect gives every fresh `inspect eval` a new task id and keeps it on
    `inspect eval-retry` (and when an eval set resumes a task), so it names one
    run across its resumes and no other run. The sample knows only its
    attempt's eval id; the process's eval registry maps that to the task id.
    """
    active = sample_active()
    if active is None:
        return None
    state = get_eval_state(active.eval_id)
    return state.task_id if state is not None and state.task_id else None


def record_event(event: Event) -> None:
    """Add an event to the running sample's transcript (a replayed model call,
    shown as Inspect shows its own cache reads)."""
    transcript()._event(event)


def eval_set_arguments(argv: list[str]) -> dict[str, Any]:
    """The keyword arguments `inspect eval-set ARGV` would pass to `eval_set`, parsed by
    Inspect's own command line (every option, default and environment variable as
    Inspect reads them) with nothing run: its call is caught instead of made. Inspect's
    common options (log level, display) take effect in this process, as they would."""
    import inspect_ai._cli.eval as command

    caught: dict[str, Any] = {}

    def catch(**arguments: Any) -> tuple[bool, list[Any]]:
        caught.update(arguments)
        return True, []

    real = getattr(command, "eval_set")  # noqa: B009 (not an export of the module)
    setattr(command, "eval_set", catch)  # noqa: B010
    try:
        command.eval_set_command.main(
            args=argv, prog_name="inspect eval-set", standalone_mode=False
        )
    finally:
        setattr(command, "eval_set", real)  # noqa: B010
    return caught
