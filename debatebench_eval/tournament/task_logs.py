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

from inspect_ai.log import (
    EvalLog,
    EvalLogInfo,
    list_eval_logs,
    read_eval_log,
    read_eval_log_samples,
)

from debatebench_eval.core._inspect import clean_filename_component, filesystem, task_identifier
from debatebench_eval.core.errors import ConfigError

# Inspect's default log file name after its timestamp, and the variable that changes it.
LOG_FILE_PATTERN = "INSPECT_EVAL_LOG_FILE_PATTERN"
_TASK_FIRST = "{task}_"


@dataclass(frozen=True)
class TaskLog:
    info: EvalLogInfo
    header: EvalLog

    @property
    def location(self) -> str:
        return self.info.name

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


def log_file_task(name: str) -> str:
    """A task's name as Inspect writes it into its logs' file names."""
    return clean_filename_component(name)


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
    """The logs of named tasks in one folder. A header is read once per version of its
    file (name, size and time), so a worker that looks again after each attempt does not
    read again the logs that cannot have changed; notes on logs it could not read are
    kept once each until taken."""

    log_dir: str
    _headers: dict[tuple[str, float | None, int | None], EvalLog] = field(default_factory=dict)
    _noted: set[str] = field(default_factory=set)
    _notes: list[str] = field(default_factory=list)

    def read(self, names: Iterable[str]) -> list[TaskLog]:
        """Every readable log of these tasks (task names as planned)."""
        wanted = {log_file_task(name) for name in names}
        found = []
        for info in list_eval_logs(self.log_dir):
            if info.task not in wanted:
                continue  # another task's log: another worker may be writing it
            header = self._header(info)
            if header is not None:
                found.append(TaskLog(info, header))
        return found

    def newest(self, names: Iterable[str]) -> dict[str, TaskLog]:
        return newest_logs(self.read(names))

    def take_notes(self) -> list[str]:
        """The notes since the last call, one line each."""
        notes, self._notes = self._notes, []
        return notes

    def _header(self, info: EvalLogInfo) -> EvalLog | None:
        version = (info.name, info.mtime, info.size)
        if version in self._headers:
            return self._headers[version]
        try:
            header = read_eval_log(info, header_only=True)
        # A log still being written, cut short by a kill, or removed since the listing
        # fails in as many ways as its readers have (zip, JSON, schema, file system):
        # each means "not readable yet", never "stop the worker".
        except Exception as exc:
            self._note(info.name, f"{type(exc).__name__}: {exc}")
            return None
        self._headers[version] = header
        return header

    def _note(self, location: str, why: str) -> None:
        if location in self._noted:
            return
        self._noted.add(location)
        first_line = (why.splitlines() or [""])[0]
        self._notes.append(
            f"passed over {location.removeprefix('file://')}: not readable ({first_line}); "
            "its task resumes from its newest readable log, and the file is left in place"
        )


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
            if same_task and _clean_uuids(log.info) <= kept:
                filesystem(log.location).rm(log.location)
                removed.append(log.location)
    return removed


def _clean_uuids(info: EvalLogInfo) -> set[str | None]:
    found = read_eval_log_samples(
        info, all_samples_required=False, exclude_fields={"events", "messages", "attachments"}
    )
    return {sample.uuid for sample in found if sample.error is None}
