"""A worker reads only its own tasks' logs, and a log it cannot read is in progress.

Every test copies the session's played tournament (3 pairs, one log each) and
puts beside it what a shared folder holds while other workers write: another
task's log cut mid-file (a `.eval` being rewritten has no zip directory yet)
and another task's zero-byte log (one being created).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from debatebench_eval.core import log_folder
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.log_folder import log_file_task
from debatebench_eval.runs import task_logs as tl
from debatebench_eval.runs.task_logs import TaskLogReader, check_log_file_names, newest_logs
from debatebench_eval.tournament.outcomes import read_tournament

OWN = "ollama-m1_vs_ollama-m2"
OWN_PAIR = ("ollama/m1", "ollama/m2")
OTHERS = ("ollama-m1-vs-ollama-m3", "ollama-m2-vs-ollama-m3")  # as in the file names


def folder_of(played: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "tourney"
    shutil.copytree(played, folder)
    return folder


def log_of(folder: Path, file_task: str) -> Path:
    [found] = [p for p in folder.glob("*.eval") if p.name.split("_")[1] == file_task]
    return found


def later_copy(log: Path, content: bytes) -> Path:
    """A file named as a later log of the same task, written after it."""
    path = log.with_name(f"2099-01-01T00-00-00+00-00_{log.name.split('_', 1)[1]}")
    path.write_bytes(content)
    return path


def half_written(folder: Path) -> list[Path]:
    """Another task's log cut mid-file and another's zero-byte log, as in progress."""
    first, second = (log_of(folder, task) for task in OTHERS)
    cut = later_copy(first, first.read_bytes()[: first.stat().st_size // 2])
    empty = later_copy(second, b"")
    return [cut, empty]


def spy(patch: pytest.MonkeyPatch, module: Any) -> list[str]:
    """Every log `module` opens with read_eval_log, by file name."""
    opened: list[str] = []
    real: Callable[..., Any] = read_eval_log

    def reading(log: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(Path(getattr(log, "name", log)).name)
        return real(log, *args, **kwargs)

    patch.setattr(module, "read_eval_log", reading)
    return opened


def test_a_worker_opens_only_its_own_tasks_logs_beside_others_half_written(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = folder_of(played, tmp_path)
    garbage = half_written(folder)
    opened = spy(monkeypatch, log_folder)
    reader = TaskLogReader(str(folder))
    logs = reader.read([OWN])
    assert [Path(log.location).name for log in logs] == [log_of(folder, OWN.replace("_", "-")).name]
    assert opened == [Path(logs[0].location).name], "no other task's log is opened"
    assert reader.take_notes() == []
    # The other tasks' half-written logs are what a reader of them would die on.
    for path in garbage:
        with pytest.raises(Exception):  # noqa: B017 (zip or JSON, whichever it meets)
            read_eval_log(str(path), header_only=True)


def test_a_workers_summary_opens_only_its_own_pairs_logs(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = folder_of(played, tmp_path)
    half_written(folder)
    opened = spy(monkeypatch, log_folder)
    logs = read_tournament([str(folder)], [OWN_PAIR])
    assert opened == [log_of(folder, OWN.replace("_", "-")).name]
    assert [r.status for r in logs.results] == ["scored"] * 4 and not logs.skipped


def test_an_unreadable_own_log_is_noted_once_and_its_task_resumes_from_the_last_readable(
    played: Path, tmp_path: Path
) -> None:
    folder = folder_of(played, tmp_path)
    readable = log_of(folder, OWN.replace("_", "-"))
    cut = later_copy(readable, readable.read_bytes()[:-200])
    reader = TaskLogReader(str(folder))
    [newest] = reader.newest([OWN]).values()
    assert Path(newest.location).name == readable.name
    [note] = reader.take_notes()
    assert note.startswith(f"passed over {cut}: not readable (") and "\n" not in note
    assert "resumes from its newest readable log" in note
    reader.newest([OWN])
    assert reader.take_notes() == [], "one note a log, however often the worker looks"
    assert cut.exists(), "a log that could not be read is never removed"


def test_a_log_that_cannot_have_changed_is_not_read_again(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = folder_of(played, tmp_path)
    opened = spy(monkeypatch, log_folder)
    reader = TaskLogReader(str(folder))
    names = [OWN, "ollama-m1_vs_ollama-m3"]
    reader.read(names)
    reader.read(names)
    assert len(opened) == 2
    log = log_of(folder, OTHERS[0])
    log.touch()  # rewritten by its worker: read again
    assert len(newest_logs(reader.read(names))) == 2 and len(opened) == 3


@pytest.mark.parametrize(
    ("pattern", "refused"),
    [("{task}_{model}_{id}", False), ("{task}_{id}", False), ("{id}_{task}", True)],
)
def test_a_log_file_pattern_that_hides_the_task_name_is_refused(
    monkeypatch: pytest.MonkeyPatch, pattern: str, refused: bool
) -> None:
    monkeypatch.setenv(tl.LOG_FILE_PATTERN, pattern)
    if not refused:
        check_log_file_names()
        return
    with pytest.raises(ConfigError) as error:
        check_log_file_names()
    assert tl.LOG_FILE_PATTERN in str(error.value) and "{task}_" in str(error.value)


def test_every_log_of_the_played_folder_is_found_by_its_file_name(played: Path) -> None:
    """The pairing the reader relies on: Inspect names each log after its task."""
    by_file = sorted(info.task for info in list_eval_logs(str(played)))
    assert by_file == sorted([OWN.replace("_", "-"), *OTHERS])
    assert {log_file_task(name) for name in (OWN,)} == {OWN.replace("_", "-")}
