"""Where a saved Inspect log is on disk."""

from __future__ import annotations

from pathlib import Path


def log_file(location: Path | str) -> Path:
    """A local log's path, from a path or from the `file:` URI by which Inspect
    names logs (its log listing and `EvalLog.location`)."""
    return Path(str(location).removeprefix("file://").removeprefix("file:"))
