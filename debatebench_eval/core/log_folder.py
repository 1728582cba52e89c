"""The one reader of Inspect log folders: every command and task that reads a folder
of logs (or a list of logs and folders) reads it through `LogFolder`.

Its rules, the same for every reader:

- A location is a local path, a `file:` URI, or any URL Inspect takes for logs
  (`s3://bucket/folder`, ...), reached through Inspect's own file access; a
  location may name one log file instead of a folder.
- Only the logs asked for are opened. A caller that knows its tasks' names
  names them, and the others are never read: Inspect writes the task name into
  every log's file name (`{created}_{task}_{id}`), and in a shared folder another
  worker may be rewriting its own logs at any moment.
- A log that cannot be read (a zero-byte file, one cut short by a kill, one being
  rewritten, which is a zip without its directory, or one removed since the
  listing) is passed over with one note naming it, never an error: its readers
  fail in as many ways as there are layers (zip, JSON, schema, file system).
  The same goes for samples that stop being readable part way through a log:
  the ones read are kept, and the note says how many.
- A header is read once per version of its file (name, time and size), so a
  worker that looks again after each attempt does not read the logs that cannot
  have changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import (
    EvalLog,
    EvalLogInfo,
    EvalSample,
    list_eval_logs,
    read_eval_log,
    read_eval_log_samples,
)

from debatebench_eval.core._inspect import clean_filename_component, filesystem, log_files_from_ls
from debatebench_eval.core.errors import ConfigError

# The fields of a sample that no reader here needs, and that make most of its size.
LEAN = frozenset({"events", "messages", "attachments"})
LOG_SUFFIXES = (".eval", ".json")


@dataclass(frozen=True)
class FolderLog:
    """One readable log: where it is and its header (no samples)."""

    info: EvalLogInfo
    header: EvalLog
    # The user named this log file itself, not a folder it is in.
    named: bool = False

    @property
    def location(self) -> str:
        """As Inspect names it (a `file://` URI for a local log)."""
        return self.info.name

    @property
    def name(self) -> str:
        """The file's own name, without its folder."""
        return _file_name(self.info.name)

    @property
    def finished(self) -> bool:
        """The run ended (in success, error or cancellation), so the log is whole."""
        return self.header.status != "started"

    @property
    def task(self) -> str:
        return task_name(self.header)

    @property
    def metadata(self) -> dict[str, object]:
        return dict(self.header.eval.metadata or {})


@dataclass(frozen=True)
class Note:
    """What was passed over, as one line (`str(note)`), and the log it is about."""

    location: str
    text: str

    def __str__(self) -> str:
        return self.text


def task_name(header: EvalLog) -> str:
    """The task a log ran, by its registered name without the package (`debate`,
    `oversight`): a tournament names each pair's task after the pair, and a sharded run
    each shard's after the shard, while the registry name stays the task's."""
    return (header.eval.task_registry_name or header.eval.task).rsplit("/", 1)[-1]


def log_file_task(name: str) -> str:
    """A task's name as Inspect writes it into its logs' file names."""
    return clean_filename_component(name)


@dataclass
class LogFolder:
    """The logs of one or more locations (folders or single log files), read by the
    rules above. Notes on what was passed over are kept once each until taken."""

    locations: Sequence[str]
    # What passing over an unreadable log means to this reader, said in its note.
    meaning: str = "the file is left in place"
    # A location that does not exist yet holds no logs (a worker's folder before its
    # first log), instead of being an error.
    missing_ok: bool = False
    _headers: dict[tuple[str, float | None, int], EvalLog] = field(default_factory=dict)
    _named: set[str] = field(default_factory=set)
    _noted: set[str] = field(default_factory=set)
    _notes: list[Note] = field(default_factory=list)

    @classmethod
    def of(cls, location: str | Path, **options: Any) -> LogFolder:
        return cls([str(location)], **options)

    def listing(
        self, tasks: Iterable[str] | None = None, files: Iterable[str] | None = None
    ) -> list[EvalLogInfo]:
        """The log files of the locations, newest first, of the named tasks only (or with
        these file names); no log is opened. A location that does not exist is a
        ConfigError."""
        wanted = None if tasks is None else {log_file_task(name) for name in tasks}
        names = None if files is None else set(files)
        found: list[EvalLogInfo] = []
        for location in self.locations:
            listed, named = _listed(location, self.missing_ok)
            if named:
                self._named.update(info.name for info in listed)
            found += [
                info for info in listed
                if (wanted is None or info.task in wanted)
                and (names is None or _file_name(info.name) in names)
            ]  # fmt: skip
        return found

    def logs(
        self,
        tasks: Iterable[str] | None = None,
        where: Callable[[FolderLog], bool] | None = None,
        files: Iterable[str] | None = None,
    ) -> list[FolderLog]:
        """Every readable log of the named tasks, or files (all, if None), that `where`
        accepts."""
        found = []
        for info in self.listing(tasks, files):
            header = self._header(info)
            if header is None:
                continue
            log = FolderLog(info, header, info.name in self._named)
            if where is None or where(log):
                found.append(log)
        return found

    def samples(self, log: FolderLog, exclude: Iterable[str] = LEAN) -> Iterator[EvalSample]:
        """The log's samples as written, without the `exclude`d fields; a log whose
        samples stop being readable part way yields those before, and a note."""
        count = 0
        try:
            for sample in read_eval_log_samples(
                log.info, all_samples_required=False, exclude_fields=set(exclude)
            ):
                count += 1
                yield sample
        except Exception as exc:  # cut short or rewritten under us: as for headers
            self.note(log.location, f"the samples of {_shown(log.location)} after the first "
                      f"{count}", exc)  # fmt: skip

    def all_samples(self, log: FolderLog, exclude: Iterable[str] = LEAN) -> list[EvalSample]:
        """The log's samples read in one pass (half the time of `samples` a sample), or,
        when that fails part way, those `samples` can read, with its note."""
        try:
            return list(read_eval_log(log.info, exclude_fields=set(exclude)).samples or [])
        except Exception:  # cut short or rewritten under us: read what can be
            return list(self.samples(log, exclude))

    def take_notes(self) -> list[Note]:
        """The notes since the last call, one line each."""
        notes, self._notes = self._notes, []
        return notes

    def note(self, location: str, what: str, exc: BaseException) -> None:
        """Say once per log and part that `what` was passed over, and why."""
        key = f"{location}\0{what.partition(' after ')[0]}"
        if key in self._noted:
            return
        self._noted.add(key)
        why = (str(exc).splitlines() or [""])[0]
        text = f"passed over {what}: not readable ({type(exc).__name__}: {why})"
        self._notes.append(Note(location, text))

    def _unreadable(self, info: EvalLogInfo, exc: BaseException) -> None:
        before = len(self._notes)
        self.note(info.name, _shown(info.name), exc)
        if len(self._notes) > before:
            last = self._notes[-1]
            self._notes[-1] = Note(last.location, f"{last.text}; {self.meaning}")

    def _header(self, info: EvalLogInfo) -> EvalLog | None:
        version = (info.name, info.mtime, info.size)
        if version in self._headers:
            return self._headers[version]
        try:
            header = read_eval_log(info, header_only=True)
        except Exception as exc:  # see the module's docstring: never "stop the reader"
            self._unreadable(info, exc)
            return None
        self._headers[version] = header
        return header


def _file_name(location: str) -> str:
    return location.rstrip("/").rpartition("/")[2]


def _shown(location: str) -> str:
    return location.removeprefix("file://")


def _listed(location: str, missing_ok: bool) -> tuple[list[EvalLogInfo], bool]:
    """The logs at a location: a folder's (at any depth), or the one file it names
    (then True)."""
    fs = filesystem(location)
    try:
        info = fs.info(location)
    except FileNotFoundError:
        if missing_ok:
            return [], False
        raise ConfigError(
            location, "no such folder or log file", "a folder of Inspect logs, or a log file"
        ) from None
    if info.type == "directory":
        return list_eval_logs(location), False
    if not location.endswith(LOG_SUFFIXES):
        raise ConfigError(location, "not a log file", "an Inspect log (.eval or .json) or a folder")
    return log_files_from_ls([info], sort=False), True


def read_log(location: str | Path, header_only: bool = False) -> EvalLog:
    """One log named by the user, whole (or its header): a file that cannot be read
    is one clear error naming it, not a reader's traceback."""
    name = str(location).removeprefix("file://").removeprefix("file:")
    try:
        return read_eval_log(name, header_only=header_only)
    except FileNotFoundError:
        raise ConfigError(name, "no such log file", "an Inspect log (.eval or .json)") from None
    except Exception as exc:
        first = (str(exc).splitlines() or [""])[0]
        raise ConfigError(
            name,
            f"not a readable Inspect log ({type(exc).__name__}: {first})",
            "a log whose run has written it (a log still being written, cut short by a "
            "kill, or empty cannot be read)",
        ) from None
