"""Which tests must share a pytest-xdist worker (`--dist loadgroup`).

A file's tests stay on one worker, so a module-scoped fixture (a real server,
a recorded run read by several tests) is built once, as in a serial run.
Files that read one session-scoped fixture share a group for the same reason.
Everything else a test touches is its own: ports are picked free, files live
under `tmp_path`, the caches are per session (tests/conftest.py).
"""

from __future__ import annotations

# Files that read the same expensive session fixture, by the fixture's name.
SHARED: dict[str, str] = {
    # tests/tournament/conftest.py `played`: a 12-debate tournament against the stub.
    "tournament/test_outcomes.py": "tournament:played",
    "tournament/test_leaderboard.py": "tournament:played",
    # tests/annotation/conftest.py `log_folder`: debate and oversight runs to label.
    "annotation/test_items.py": "annotation:log_folder",
    "annotation/test_page_browser.py": "annotation:log_folder",
    "annotation/test_annotate_command.py": "annotation:log_folder",
}


def group_of(place: str) -> str:
    """The worker group of the test file at `place` (relative to tests/)."""
    return SHARED.get(place, place)
