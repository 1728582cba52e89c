"""Locations of a tournament's files: the folder of a path or URL, and a URL's bucket."""

from __future__ import annotations

from pathlib import Path

import pytest

from debatebench_eval.core._inspect import file
from debatebench_eval.runs.location import (
    bucket,
    check_reachable,
    child,
    file_names,
    is_remote,
    parent,
)


@pytest.mark.parametrize(
    ("path", "folder"),
    [
        ("s3://bucket/judged/outcomes.csv", "s3://bucket/judged"),
        ("s3://bucket/outcomes.csv", "s3://bucket"),
        ("s3://bucket/judged/", "s3://bucket"),
        ("results/outcomes.csv", "results"),
        ("outcomes.csv", "."),
    ],
)
def test_the_folder_of_a_url_keeps_its_scheme(path: str, folder: str) -> None:
    assert parent(path) == folder


@pytest.mark.parametrize(
    ("location", "found"),
    [
        ("s3://bucket/t", "s3://bucket"),
        ("gs://bucket/a/b", "gs://bucket"),
        ("memory://t", None),  # no bucket in this scheme: nothing to check
        ("/tmp/t", None),
        ("t", None),
    ],
)
def test_only_an_object_store_url_has_a_bucket(location: str, found: str | None) -> None:
    assert bucket(location) == found


def test_a_local_folder_is_not_remote_and_needs_no_check(tmp_path: Path) -> None:
    assert not is_remote("t") and not is_remote("file:///tmp/t") and is_remote("s3://b/t")
    check_reachable(str(tmp_path) + "/never-made", "--log-dir")  # no error, nothing made


@pytest.mark.parametrize(
    ("folder", "path"),
    [
        ("s3://bucket/judged/", "s3://bucket/judged/x-scores.json"),
        ("s3://bucket", "s3://bucket/x-scores.json"),
        ("runs/judged", "runs/judged/x-scores.json"),
        ("runs/judged/", "runs/judged/x-scores.json"),
    ],
)
def test_a_file_in_a_folder_is_named_in_the_form_the_folder_was_given(
    folder: str, path: str
) -> None:
    assert child(folder, "x-scores.json") == path


def test_a_folder_lists_its_own_files_on_a_disk_and_at_a_url(tmp_path: Path) -> None:
    (tmp_path / "a-scores.json").write_text("{}")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deeper.json").write_text("{}")
    assert file_names(str(tmp_path)) == {"a-scores.json"}  # not the subfolder, nor in it
    assert file_names(str(tmp_path / "a-scores.json")) is None  # a file is no folder
    assert file_names(str(tmp_path / "never-made")) is None
    # An fsspec URL goes through the same file access an s3:// folder does.
    for name in ("a-scores.json", "a.json", "sub/deeper.json"):
        with file(f"memory://judged/{name}", "w") as handle:
            handle.write("{}")
    assert file_names("memory://judged") == {"a-scores.json", "a.json"}
    assert file_names("memory://nothing-here") is None
