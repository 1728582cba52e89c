"""Locations of a tournament's files: the folder of a path or URL, and a URL's bucket."""

from __future__ import annotations

from pathlib import Path

import pytest

from debatebench_eval.tournament.location import bucket, check_reachable, is_remote, parent


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
