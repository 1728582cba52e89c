"""A configuration error reaches stderr, once, in every display mode (Inspect's own
rendering goes to stdout and is silenced by --display none)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

INSPECT = str(Path(sys.executable).parent / "inspect")
MESSAGE = "-T bogus: unknown argument(s) bogus for task debate"


@pytest.mark.parametrize("display", ["none", "plain", "rich", "full", "conversation", "log"])
def test_a_bad_task_argument_is_printed_on_stderr(display: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [INSPECT, "eval", "debatebench/debate", "-T", "bogus=1", "--model", "mockllm/model",
         "--display", display, "--log-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.count(MESSAGE) == 1, result.stderr
    assert MESSAGE not in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
