"""Where the checkout's folders are, for tests and benchmark scripts."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"
RESULTS = ROOT / "results"


# The links data_home made, removed after each test (tests/conftest.py).
DATA_HOME_LINKS: set[Path] = set()


def data_home(tmp_path: Path, name: str = "xdg") -> Path:
    """An Inspect data folder (XDG_DATA_HOME) for a command under test: the folder is in
    the test's own, reached through a short link in the system's temporary folder. A
    tournament worker binds Inspect's ACP socket in it, and a socket's path has at most
    107 bytes, which a pytest folder under xdist can pass with a five-digit pid."""
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    digest = hashlib.sha256(str(folder).encode()).hexdigest()[:12]
    link = Path(tempfile.gettempdir()) / f"xdg-{digest}"
    if not link.is_symlink():
        link.symlink_to(folder, target_is_directory=True)
    DATA_HOME_LINKS.add(link)
    return link


def remove_data_home_links() -> None:
    for link in DATA_HOME_LINKS:
        link.unlink(missing_ok=True)
    DATA_HOME_LINKS.clear()
