"""One log folder for the annotation tests, made once: two pairs of models debating two
motions each (one speech tries to inject markup), known-answer debates, and the logs a
reader must pass over (a protocol without speeches, one still being written, one broken)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log, write_eval_log

from support.annotation_logs import (
    BROKEN,
    INJECTION,
    STARTED,
    debate_log,
    oversight_log,
    plain_oversight,
)
from support.rubric_runs import STRONG


@pytest.fixture(scope="session")
def log_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("annotation")
    first = debate_log(root, "alpha", "beta", pro_text=f"{STRONG} As alpha, I say: {INJECTION}")
    debate_log(root, "gamma", "delta")
    oversight_log(root, plain_oversight(), "debate", n=2)
    oversight_log(root, plain_oversight(), "naive", n=2)
    logs = root / "logs"
    started = read_eval_log(str(first))
    started.status = "started"
    write_eval_log(started, str(logs / STARTED))
    (logs / BROKEN).write_bytes(b"not a zip at all")
    return logs
