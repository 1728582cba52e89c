"""The real `inspect` command against a loopback server, as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

INSPECT = str(Path(sys.executable).parent / "inspect")


def run(args: list[str], base_url: str, log_dir: Path, wait: bool = True) -> subprocess.Popen[str]:
    env = {**os.environ, "OLLAMA_BASE_URL": base_url, "NO_COLOR": "1"}
    process = subprocess.Popen(
        [INSPECT, *args, "--log-dir", str(log_dir), "--display", "plain"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    if wait:
        process.communicate(timeout=600)
    return process


def run_inspect(
    args: list[str], base_url: str, log_dir: Path, display: str = "plain"
) -> subprocess.CompletedProcess[str]:
    """The `inspect` command to its end, with what it printed."""
    env = {**os.environ, "OLLAMA_BASE_URL": base_url, "NO_COLOR": "1"}
    return subprocess.run(
        [INSPECT, *args, "--log-dir", str(log_dir), "--display", display],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def only_log(log_dir: Path):  # type: ignore[no-untyped-def]
    logs = list_eval_logs(str(log_dir))
    assert len(logs) == 1
    return read_eval_log(logs[0].name)
