"""The context-window check: each turn's prompt is counted by the model server's
tokenizer before the call, and a turn that cannot fit with its budget fails
without reaching the model."""

from __future__ import annotations

from pathlib import Path

from stub_server import StubBehaviour, StubServer
from test_faults import only_log, run

from debatebench_eval.record import DebateRecord

DEBATE = ["eval", "debatebench/debate", "--model", "ollama/stub", "--limit", "1",
          "-T", "phases=[opening:short, conclusion:short]", "-T", "fact_check=false",
          "-T", "swap_judging=false"]  # fmt: skip


def chat_requests(behaviour: StubBehaviour) -> list[str]:
    return [r["model"] for r in behaviour.requests if "debater in a formal" in str(r["messages"])]


def test_every_turn_is_counted_and_a_fitting_debate_runs(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(tokenizer=True)) as stub:
        run([*DEBATE, "-T", "context_window=4096", "-T", "budget=60"], stub.base_url, tmp_path)
    sample = (only_log(tmp_path).samples or [])[0]
    assert sample.error is None and sample.store_as(DebateRecord).complete
    assert stub.behaviour.token_counts == 4  # one count per turn, before its call


def test_a_turn_that_cannot_fit_fails_before_the_call(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(tokenizer=True)) as stub:
        run([*DEBATE, "-T", "context_window=300", "-T", "budget=250"], stub.base_url, tmp_path)
    sample = (only_log(tmp_path).samples or [])[0]
    assert sample.error is not None and not sample.scores
    message = sample.error.message
    assert "phase 0 (opening:short), side pro" in message
    assert "the budget (250) need" in message and "context window of 300" in message
    assert chat_requests(stub.behaviour) == []  # the model was never asked


def test_a_server_that_cannot_count_tokens_is_named(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(tokenizer=False)) as stub:
        run([*DEBATE, "-T", "context_window=4096"], stub.base_url, tmp_path)
    sample = (only_log(tmp_path).samples or [])[0]
    assert sample.error is not None
    assert f"the server at {stub.base_url.removesuffix('/v1')} does not count tokens" in (
        sample.error.message
    )
    assert chat_requests(stub.behaviour) == []


def test_a_failed_count_is_an_error_of_its_own_not_a_missing_tokenizer(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(tokenizer=True, tokenizer_status=503)) as stub:
        run([*DEBATE, "-T", "context_window=4096"], stub.base_url, tmp_path)
    sample = (only_log(tmp_path).samples or [])[0]
    assert sample.error is not None
    message = sample.error.message
    assert "phase 0 (opening:short), side pro" in message
    assert "counting the prompt" in message and "HTTP 503" in message
    assert "does not count tokens" not in message
