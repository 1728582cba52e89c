"""Worker processes: a server's connections shared out among them whole, never more
workers than connections, and the plan a worker reads readable by it whoever made it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from debatebench_eval.runs.location import replace_file
from debatebench_eval.runs.processes import connection_share, workers_for


@pytest.mark.parametrize(("connections", "workers"), [(8, 3), (8, 2), (9, 4), (3, 3), (1, 1)])
def test_the_connections_are_shared_out_whole(connections: int, workers: int) -> None:
    parts = [connection_share(connections, k, workers) for k in range(workers)]
    assert sum(parts) == connections and max(parts) - min(parts) <= 1


def test_no_more_workers_than_connections() -> None:
    assert workers_for(16, 8) == (8, "16 workers would each need one of --max-connections 8")
    assert workers_for(2, 8) == (2, None) and workers_for(4, None) == (4, None)


def test_a_plan_written_in_place_is_as_readable_as_any_new_file(tmp_path: Path) -> None:
    before = os.umask(0o022)
    try:
        replace_file(str(tmp_path / "run-x.json"), "{}\n")
    finally:
        os.umask(before)
    mode = stat.S_IMODE((tmp_path / "run-x.json").stat().st_mode)
    assert mode == 0o644 and (tmp_path / "run-x.json").read_text() == "{}\n"
