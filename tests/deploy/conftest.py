"""The local scheduler the deploy templates' tests submit to: one Slurm node, started
once a session for the tests marked `slurm` (tests/support/slurm.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.slurm import LocalSlurm, require


@pytest.fixture(scope="session")
def slurm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSlurm]:
    require()
    cluster = LocalSlurm(tmp_path_factory.mktemp("slurm"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
