"""Each planned task's newest log in the folder, and whether its debates are settled.

A worker runs in Inspect's selection mode, which does no eval-set bookkeeping:
it runs what it is told, resuming from the log it is told. So the worker itself
decides, as eval_set would, what is left: a task is settled when its newest log
ended in success with every planned debate completed without error (a scored
or an unscored verdict); otherwise that log (crashed, failed, or short of
debates the tournament grew by) is what the next attempt resumes from, keeping
every debate it holds. Logs are paired with tasks by Inspect's own task
identifier, as eval_set pairs them.

The folder is shared: other workers rewrite their own logs at any moment, and a
`.eval` being rewritten is a zip without its directory, which no reader can
open. So a worker opens only the logs of its own tasks, found by the task name
Inspect writes into every log's file name (`{created}_{task}_{id}`), never by
opening a log to see whose it is; and a log of its own that cannot be read (cut
short by a kill, or still being created) is passed over with a one-line note:
its task resumes from the newest log that can be read, as if the unreadable one
were still in progress.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from inspect_ai.log import EvalLogInfo, read_eval_log_samples

from debatebench_eval.core._inspect import filesystem, task_identifier
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.log_folder import LEAN, FolderLog, LogFolder

# Inspect's default log file name after its timestamp, and the variable that changes it.
LOG_FILE_PATTERN = "INSPECT_EVAL_LOG_FILE_PATTERN"
_TASK_FIRST = "{task}_"


@dataclass(frozen=True)
class TaskLog(FolderLog):
    """A log of a planned task, and how far it got."""

    def completed(self) -> int:
        """Debates in the log that finished without error (0 unless it ended)."""
        header = self.header
        if header.status != "success" or header.invalidated or header.results is None:
            return 0
        results = header.results
        done = results.completed_samples
        if results.logged_samples is not None:  # a drained run: only what it resolved
            done = min(done, results.logged_samples)
        return done

    def settled(self, samples: int) -> bool:
        return self.completed() >= samples


def check_log_file_names() -> None:
    """A worker finds its logs by the task name that leads each log's file name; a
    pattern that moves it would leave every log unfound, and every debate run again."""
    pattern = os.environ.get(LOG_FILE_PATTERN)
    if pattern is not None and not pattern.startswith(_TASK_FIRST):
        raise ConfigError(
            LOG_FILE_PATTERN,
            f"{pattern!r}: a worker finds its tasks' logs by the task name, first in the name",
            f"a pattern that starts with {_TASK_FIRST!r} (Inspect's default is '{{task}}_{{id}}'), "
            "or the variable unset",
        )


@dataclass
class TaskLogReader:
    """The logs of named tasks in one folder, through the package's one log reader
    (`core.log_folder`): only those tasks' logs are opened, a header is read once per
    version of its file, and a log that cannot be read is noted once and passed over."""

    log_dir: str
    folder: LogFolder = field(init=False)

    def __post_init__(self) -> None:
        meaning = "its task resumes from its newest readable log, and the file is left in place"
        self.folder = LogFolder.of(self.log_dir, meaning=meaning, missing_ok=True)

    def read(self, names: Iterable[str]) -> list[TaskLog]:
        """Every readable log of these tasks (task names as planned)."""
        return [TaskLog(log.info, log.header) for log in self.folder.logs(names)]

    def newest(self, names: Iterable[str]) -> dict[str, TaskLog]:
        return newest_logs(self.read(names))

    def take_notes(self) -> list[str]:
        """The notes since the last call, one line each."""
        return [str(note) for note in self.folder.take_notes()]


def newest_logs(logs: Iterable[TaskLog]) -> dict[str, TaskLog]:
    """The newest log of each task identifier (by the time it was last written)."""
    newest: dict[str, TaskLog] = {}
    for log in logs:
        identifier = task_identifier(log.header, None)
        there = newest.get(identifier)
        if there is None or (log.info.mtime or 0) > (there.info.mtime or 0):
            newest[identifier] = log
    return newest


def tidy_superseded(
    reader: TaskLogReader, names: Iterable[str], identifiers: Iterable[str]
) -> list[str]:
    """Remove the older logs of these tasks once their newest log holds every debate
    they finished.

    A resumed task writes a new log (same task id) seeded with every finished
    debate of the log it resumed; the old one (crashed, or ended with failed
    debates) would otherwise be shown by `inspect view` and read as duplicates.
    An older log goes only when the newest ended in success and holds each of its
    error-free samples (by uuid); a worker tidies only its own tasks, and never a
    log it could not read (it cannot know what that log holds).
    """
    wanted = set(identifiers)
    groups: dict[str, list[TaskLog]] = {}
    for log in reader.read(names):
        identifier = task_identifier(log.header, None)
        if identifier in wanted:
            groups.setdefault(identifier, []).append(log)
    removed = []
    for logs in groups.values():
        logs.sort(key=lambda log: log.info.mtime or 0, reverse=True)
        newest, older = logs[0], logs[1:]
        if newest.header.status != "success" or not older:
            continue
        kept = _clean_uuids(newest.info)
        for log in older:
            same_task = log.header.eval.task_id == newest.header.eval.task_id
            theirs = _clean_uuids(log.info) if same_task and kept is not None else None
            if kept is not None and theirs is not None and theirs <= kept:
                filesystem(log.location).rm(log.location)
                removed.append(log.location)
    return removed


def _clean_uuids(info: EvalLogInfo) -> set[str | None] | None:
    """The uuids of the log's error-free samples, or None when they cannot all be read
    (then what the log holds is unknown, and it is kept)."""
    try:
        found = read_eval_log_samples(info, all_samples_required=False, exclude_fields=set(LEAN))
        return {sample.uuid for sample in found if sample.error is None}
    except Exception:  # cut short or rewritten: see core.log_folder
        return None
