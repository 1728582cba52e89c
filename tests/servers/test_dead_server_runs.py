"""Whole runs against a loopback server that dies mid-run: each sample still waiting
ends within seconds with the server's URL (and the last lines of its output, for a
server the project started), where Inspect alone retries every call for minutes, or
for ever in a judge validation (which sets no max_retries); the samples done before
keep their scores."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog

from debatebench_eval.servers.started import announced

from support.commands import INSPECT, only_log
from support.stub_server import StubBehaviour, StubServer

pytestmark = pytest.mark.command
# Far above what a run needs with the watch (seconds), far below what one needs
# without it (minutes, or never): passing the bound is the rule broken.
BOUND_S = 60
# The plain `inspect` command (INSPECT): the package's tasks register the sample hook
# that watches every model of every sample, where no probe reaches one (`-T
# probe=false`; judge_validation's plain generate()), from the sample's first call.


def dying_after(requests: int, **switches: Any) -> StubServer:
    """A stub server that stops listening once it has taken `requests` chat requests."""
    behaviour = StubBehaviour(**switches)
    stub = StubServer(behaviour)

    stopping = threading.Event()

    def count(request: dict[str, Any]) -> None:
        # At or past the count: two requests may arrive before either is counted.
        if len(behaviour.requests) >= requests and not stopping.is_set():
            stopping.set()
            threading.Thread(target=stub.__exit__).start()

    behaviour.script = count
    return stub


def run(command: list[str], url: str, log_dir: Path) -> tuple[float, EvalLog]:
    """The command to its end, its wall time, and its log."""
    start = time.monotonic()
    subprocess.run(
        [*command, "--log-dir", str(log_dir), "--display", "plain"],
        env={**os.environ, "OLLAMA_BASE_URL": url, "NO_COLOR": "1"},
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    return time.monotonic() - start, only_log(log_dir)


def split(log: EvalLog) -> tuple[list[Any], list[Any]]:
    samples = log.samples or []
    return [s for s in samples if s.error is None], [s for s in samples if s.error is not None]


def test_a_debate_run_whose_server_dies_ends_its_waiting_debates_at_once(tmp_path: Path) -> None:
    # Debates of two calls, two at a time; the task's own max_retries=3 would cost each
    # waiting debate about half a minute of backoff.
    stub = dying_after(7, latency_s=0.1)
    with stub:
        url = stub.base_url
        wall, log = run(
            [INSPECT, "eval", "debatebench/debate", "--model", "ollama/stub", "--limit", "12",
             "-T", "phases=[opening]", "-T", "fact_check=false", "-T", "swap_judging=false",
             "--max-samples", "2"],
            url, tmp_path,
        )  # fmt: skip
    done, failed = split(log)
    assert done and failed, "the death must land between finished and waiting debates"
    for sample in failed:
        assert f"the model server at {url} answered earlier in this run" in sample.error.message
    assert wall < BOUND_S, f"{wall:.0f} s"


def test_unprobed_debaters_are_watched_from_their_samples_start(tmp_path: Path) -> None:
    # No probe; the debaters' models are not the judge's, which the gate asks who it is.
    stub = dying_after(7, latency_s=0.1)
    with stub:
        url = stub.base_url
        wall, log = run(
            [INSPECT, "eval", "debatebench/debate", "--model",
             "ollama/stub", "--model-role", "pro=ollama/stub-pro", "--model-role",
             "con=ollama/stub-con", "--limit", "12", "-T", "phases=[opening]",
             "-T", "fact_check=false", "-T", "swap_judging=false", "-T", "probe=false",
             "--max-samples", "2"],
            url, tmp_path,
        )  # fmt: skip
    done, failed = split(log)
    assert done and failed
    for sample in failed:
        assert f"the model server at {url} answered earlier in this run" in sample.error.message
    assert wall < BOUND_S, f"{wall:.0f} s"


def test_a_judge_validation_whose_embedded_server_dies_ends_at_once_quoting_it(
    tmp_path: Path,
) -> None:
    output = tmp_path / "llama-server.log"
    output.write_text("llama_model_loader: loaded\nggml: the last line before dying\n")
    stub = dying_after(8, rate_speeches=True)
    with stub, announced(stub.base_url, "sha256:" + "0" * 64, output):
        url = stub.base_url
        wall, log = run(
            [INSPECT, "eval", "debatebench/judge_validation",
             "--model", "ollama/stub", "-T", "limit_per_source=15"],
            url, tmp_path / "logs",
        )  # fmt: skip
    done, failed = split(log)
    # What the server took before its listening socket closed was answered and scored.
    assert len(log.samples or []) == 120 and done and failed
    assert all(s.scores and "speech_rating" in s.scores for s in done)
    for sample in failed:
        message = sample.error.message
        assert f"the model server at {url} answered earlier in this run" in message
        assert f"the server's output ({output}) ends:" in message
        assert "  | ggml: the last line before dying" in message
    assert wall < BOUND_S, f"{wall:.0f} s"
