"""The context-window check: each turn's prompt is counted by the model server's
tokenizer before the call, and a turn that cannot fit with its budget fails
without reaching the model (before the first turn, by the plan of every call:
tests/servers/test_context_plan.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from debatebench_eval.record.store import DebateRecord

from support.commands import only_log, run
from support.stub_server import StubBehaviour, StubServer

DEBATE = ["eval", "debatebench/debate", "--model", "ollama/stub", "--limit", "1",
          "-T", "phases=[opening:short, conclusion:short]", "-T", "fact_check=false",
          "-T", "swap_judging=false"]  # fmt: skip


def chat_requests(behaviour: StubBehaviour) -> list[str]:
    return [r["model"] for r in behaviour.requests if "debater in a formal" in str(r["messages"])]


def failure(tmp_path: Path) -> str:
    sample = (only_log(tmp_path).samples or [])[0]
    assert sample.error is not None and not sample.scores
    return sample.error.message


@pytest.mark.parametrize("server", ["llama-cpp-python", "llama.cpp"])
def test_every_turn_is_counted_and_a_fitting_debate_runs(tmp_path: Path, server: str) -> None:
    with StubServer(StubBehaviour(tokenizer=server)) as stub:
        run([*DEBATE, "-M", "api_key=the-key", "-T", "context_window=4096", "-T", "budget=60",
             "-T", "judge_budget=1000"], stub.base_url, tmp_path)  # fmt: skip
    sample = (only_log(tmp_path).samples or [])[0]
    assert sample.error is None and sample.store_as(DebateRecord).complete
    counts = stub.behaviour.count_requests
    # Before the first turn, one per planned call (4 turns, the judge's reading); then
    # one per turn, before its call.
    assert len(counts) == 5 + 4
    # Counted with the debater's own model, carrying its key.
    assert {c["model"] for c in counts} == {"stub"}
    assert {c["authorization"] for c in counts} == {"Bearer the-key"}


def test_a_turn_that_cannot_fit_fails_before_the_call(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(tokenizer="llama-cpp-python")) as stub:
        run([*DEBATE, "-T", "context_window=300", "-T", "budget=250"], stub.base_url, tmp_path)
    message = failure(tmp_path)
    assert "phase 0 (opening:short), side pro (ollama/stub) cannot fit" in message
    assert "the call's budget of 250" in message
    assert "the window is 300 (-T context_window)" in message
    assert chat_requests(stub.behaviour) == []  # the model was never asked


def test_a_server_that_cannot_count_tokens_is_named(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(tokenizer="")) as stub:
        run([*DEBATE, "-T", "context_window=4096"], stub.base_url, tmp_path)
    root = stub.base_url.removesuffix("/v1")
    assert f"the server at {root} does not count tokens" in failure(tmp_path)
    assert chat_requests(stub.behaviour) == []


@pytest.mark.parametrize(("status", "shown"), [(503, "HTTP 503"), (401, "HTTP 401")])
def test_a_failed_count_is_an_error_of_its_own_not_a_missing_tokenizer(
    tmp_path: Path, status: int, shown: str
) -> None:
    behaviour = StubBehaviour(tokenizer="llama-cpp-python", tokenizer_status=status)
    with StubServer(behaviour) as stub:
        run([*DEBATE, "-T", "context_window=4096"], stub.base_url, tmp_path)
    message = failure(tmp_path)
    assert "phase 0 (opening:short), side pro" in message
    assert "counting the prompt" in message and shown in message
    assert "does not count tokens" not in message
