"""Find the project's data folders, installed or in a checkout.

The data folders (`tasks/`, `scorers/`, `validation/`) sit at the top of a
checkout and are copied into the wheel under `debatebench_eval/data/` (not
beside the subpackages, where `validation/` would clash with the code of the
same name). This module is the one place that knows both layouts, so nothing
else hard-codes a path.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent
# Where the wheel puts the data folders (pyproject.toml, force-include).
_WHEEL_DATA_DIR = _PACKAGE_DIR / "data"
DATA_FOLDERS = ("tasks", "scorers", "validation")


def data_dir(folder: str) -> Path:
    """Return the directory of one of the shipped data folders.

    Args:
        folder: One of `tasks`, `scorers`, `validation`.
    """
    if folder not in DATA_FOLDERS:
        raise ValueError(f"unknown data folder {folder!r}; expected one of {DATA_FOLDERS}")
    for candidate in (_WHEEL_DATA_DIR / folder, _PACKAGE_DIR.parent / folder):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"data folder {folder!r} is missing: looked in {_WHEEL_DATA_DIR} and "
        f"{_PACKAGE_DIR.parent}. The package is installed incompletely; reinstall debatebench-eval."
    )


def data_file(folder: str, *parts: str) -> Path:
    """Return a file inside a shipped data folder (it must exist)."""
    path = data_dir(folder).joinpath(*parts)
    if not path.is_file():
        raise FileNotFoundError(f"shipped data file {'/'.join((folder, *parts))} is missing")
    return path
