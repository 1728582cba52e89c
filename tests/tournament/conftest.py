"""One small tournament played against the stub, shared by the tests that read logs
(each copies it before changing anything)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.tournaments import MODELS, run_tournament


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """3 models, 2 motions, 12 debates, judges j1 and j2 (fact-check off)."""
    folder = tmp_path_factory.mktemp("played") / "tourney"
    run_tournament(folder, MODELS)
    return folder
