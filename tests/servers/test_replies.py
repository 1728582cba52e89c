"""One speaking call (servers.replies): the seed and budget each attempt gets,
how many attempts an empty reply is given, what is recorded about the call that
answered, and the exact words of every failure."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageUser,
    ContentReasoning,
    ContentText,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
)

from debatebench_eval.core.errors import DebateError, ServerError
from debatebench_eval.servers.replies import Reply, check_budget, generate_reply, reply_text

from support.scripted import Script, output

WHERE = "opening, pro"
URL = "http://127.0.0.1:9/v1"


def replies(*texts: str, tokens: int = 12) -> Script:
    """A model whose n-th call answers the n-th text."""
    return Script("a", lambda n, _input, _config: output("a", texts[n - 1], tokens=tokens))


def generate(model: Model, *, budget: int = 100, seed: int = 7, retries: int = 2) -> Reply:
    prompt = [ChatMessageUser(content="Argue.")]
    return asyncio.run(
        generate_reply(model, prompt, budget=budget, seed=seed, retries=retries, where=WHERE)
    )


def test_each_attempt_gets_the_budget_and_the_next_seed() -> None:
    script = replies("", "  ", "Speech at last.")
    reply = generate(script.model(GenerateConfig(temperature=0.3)))
    assert (reply.text, reply.attempts) == ("Speech at last.", 3)
    assert [c.config.seed for c in script.calls] == [7, 8, 9]
    assert [c.config.max_tokens for c in script.calls] == [100, 100, 100]
    # The role's own settings are kept; the prompt is sent unchanged.
    assert [c.config.temperature for c in script.calls] == [0.3, 0.3, 0.3]
    assert [m.text for m in script.calls[0].messages] == ["Argue."]


def test_only_empty_replies_fail_after_retries_plus_one_attempts() -> None:
    script = replies("", "<think>only thinking</think>", " ", "never asked")
    with pytest.raises(DebateError) as failed:
        generate(script.model(), retries=2)
    assert str(failed.value) == f"{WHERE}: the model returned no speech text in 3 attempts"
    assert len(script.calls) == 3


def test_no_retries_means_one_attempt() -> None:
    script = replies("", "never asked")
    with pytest.raises(DebateError) as failed:
        generate(script.model(), retries=0)
    assert str(failed.value) == f"{WHERE}: the model returned no speech text in 1 attempts"
    assert [c.config.seed for c in script.calls] == [7]


def test_a_model_error_is_not_retried_and_is_quoted() -> None:
    def errs(_n: int, _input: Any, _config: GenerateConfig) -> ModelOutput:
        out = output("a", "")
        out.error = "the server is overloaded"
        return out

    script = Script("a", errs)
    with pytest.raises(DebateError) as failed:
        generate(script.model())
    assert str(failed.value) == f"{WHERE}: the model returned an error: the server is overloaded"
    assert len(script.calls) == 1


def refusing(base_url: str | None) -> Model:
    def raises(_input: Any, _tools: Any, _choice: Any, _config: GenerateConfig) -> ModelOutput:
        raise RuntimeError("connection refused") from OSError("port 9 closed")

    return get_model("mockllm/b", base_url=base_url, custom_outputs=raises)


@pytest.mark.parametrize(("base_url", "server"), [(URL, URL), (None, "mockllm/b")])
def test_a_failed_call_names_the_server_and_the_error(base_url: str | None, server: str) -> None:
    with pytest.raises(DebateError) as failed:
        generate(refusing(base_url))
    assert str(failed.value) == (
        f"{WHERE}: the model call to {server} failed: "
        "RuntimeError: connection refused (OSError: port 9 closed)"
    )


def test_a_reply_over_the_budget_allowance_refuses_the_server() -> None:
    script = replies("Too long.", tokens=117)
    with pytest.raises(ServerError) as failed:
        generate(script.model(), budget=100)
    assert str(failed.value) == (
        f"{WHERE}: the server at mockllm/a returned 117 completion tokens for a budget "
        "of 100; it ignores max_tokens, so budgets cannot be enforced on it"
    )


def test_an_empty_reply_over_the_budget_is_refused_not_retried() -> None:
    script = replies("", "never asked", tokens=117)
    with pytest.raises(ServerError, match="returned 117 completion tokens"):
        generate(script.model(), budget=100)
    assert len(script.calls) == 1


def test_the_budget_allows_exactly_sixteen_tokens_more() -> None:
    assert generate(replies("Just fits.", tokens=116).model(), budget=100).text == "Just fits."


def test_the_budget_check_names_the_servers_url() -> None:
    out = output("b", "Too long.", tokens=50)
    with pytest.raises(ServerError) as failed:
        check_budget(get_model("mockllm/b", base_url=URL + "/"), 30, out, "rebuttal, con")
    assert str(failed.value).startswith(f"rebuttal, con: the server at {URL} returned 50 ")


def test_a_reply_without_usage_passes_the_budget_check() -> None:
    out = output("a", "Speech.")
    out.usage = None
    check_budget(Script("a").model(), 1, out, WHERE)


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """time.perf_counter reads this value, which only the scripted model advances."""
    now = [100.0]
    monkeypatch.setattr(time, "perf_counter", lambda: now[0])
    yield now


def test_the_latency_is_the_answering_calls_in_milliseconds(fake_clock: list[float]) -> None:
    def slow(n: int, _input: Any, _config: GenerateConfig) -> ModelOutput:
        fake_clock[0] += 9.0 if n == 1 else 1.5
        return output("a", "" if n == 1 else "Speech.")

    assert generate(Script("a", slow).model()).latency_ms == 1500


@pytest.fixture
def far_from_utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A local time zone that is never UTC (+05:45 all year)."""
    monkeypatch.setenv("TZ", "Asia/Kathmandu")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("far_from_utc")
def test_the_start_is_utc_to_the_second() -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    reply = generate(replies("Speech.").model())
    after = datetime.now(UTC)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", reply.started_at)
    started = datetime.strptime(reply.started_at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert before <= started <= after


def test_reply_text_without_reasoning_counts_none() -> None:
    assert reply_text(output("a", "  Plain speech.\n")) == ("Plain speech.", 0)


def test_reply_text_counts_reasoning_blocks_and_think_tags() -> None:
    thought = ContentReasoning(reasoning="weighing it")
    out = ModelOutput.from_message(
        ChatMessageAssistant(content=[thought, ContentText(text="<think>hm</think> Yes.")])
    )
    assert reply_text(out) == ("Yes.", len("weighing it") + len("<think>hm</think>"))
