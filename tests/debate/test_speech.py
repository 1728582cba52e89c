"""One speaking turn, called directly: the call the side's model gets, the Turn
recorded from its reply field by field, and the context-window check that runs
before the call when the speaker has a window (counted by the server's own
tokenizer, within the call's timeout, failing with the turn and its figures)."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

import pytest
from inspect_ai.model import (
    ContentReasoning,
    ContentText,
    GenerateConfig,
    Model,
    ModelOutput,
    ModelUsage,
    get_model,
)

from debatebench_eval.core.errors import DebateError
from debatebench_eval.debating.prompts import system_prompt
from debatebench_eval.debating.speech import Speaker, speak
from debatebench_eval.record.protocol import Phase
from debatebench_eval.record.store import Turn
from debatebench_eval.record.teams import Team, resolve_team

from support.scripted import Script, output
from support.stub_server import StubBehaviour, StubServer

MOTION = "Cities should ban cars from their centres."
PROMPT = "Give your rebuttal now."
REBUTTAL = Phase("rebuttal", "long")
# The chat template's allowance for the system and user messages and the reply.
TEMPLATE = 8 * 2 + 4


def team() -> Team:
    return resolve_team("skeptic")


def con_turn(model: Model, *, budget: int = 200, window: int | None = None) -> Turn:
    """The con side's turn in phase 2, second to speak, its second attempt allowed."""
    speaker = Speaker("con", "con", model, team(), budget=999, context_window=window)
    return asyncio.run(
        speak(
            speaker,
            phase=REBUTTAL,
            phase_index=2,
            order=1,
            motion=MOTION,
            prompt=PROMPT,
            budget=budget,
            seed=41,
            retries=1,
            turn_id="turn-2-con",
        )
    )


def recorded(turn: Turn) -> dict[str, Any]:
    """The turn's fields, less the call's timing (checked for form only)."""
    assert turn.latency_ms >= 0
    datetime.strptime(turn.started_at, "%Y-%m-%dT%H:%M:%SZ")
    return turn.model_dump(exclude={"latency_ms", "started_at"})


def test_a_turn_records_the_reply_its_usage_budget_and_attempts() -> None:
    def reply(n: int, messages: Any, config: GenerateConfig) -> ModelOutput:
        if n == 1:
            return output("con-7b", "", tokens=3)
        content = [ContentReasoning(reasoning="plan"), ContentText(text="<think>x</think>Cut")]
        out = ModelOutput.from_content("con-7b", content, stop_reason="max_tokens")  # type: ignore[arg-type]
        out.usage = ModelUsage(
            input_tokens=70, output_tokens=200, total_tokens=270, reasoning_tokens=15
        )
        return out

    script = Script("con", reply)
    turn = con_turn(script.model())
    assert recorded(turn) == {
        "id": "turn-2-con",
        "phase_index": 2,
        "phase": "rebuttal",
        "length": "long",
        "side": "con",
        "order": 1,
        "role": "con",
        "team_id": team().id,
        "text": "Cut",
        "model": "con-7b",
        "usage": {
            "input_tokens": 70,
            "output_tokens": 200,
            "reasoning_tokens": 15,
            "answer_tokens": 185,  # the speech's own: output less reasoning
            "total_tokens": 270,
        },
        "budget": 200,  # the turn's budget, not the speaker's default
        "reasoning_budget": None,  # thinking shares the budget
        "hit_budget": True,
        "finish_reason": "max_tokens",
        "attempts": 2,
        "reasoning_chars": len("plan") + len("<think>x</think>"),
        "cited_ids": [],
        "citation_problems": {},
    }
    # Each attempt asked with the turn's budget, the retry with the next seed.
    assert [(c.config.max_tokens, c.config.seed) for c in script.calls] == [(200, 41), (200, 42)]
    system, user = script.calls[0].messages
    assert system.text == system_prompt(team(), "con", MOTION) and user.text == PROMPT


def test_a_reply_that_names_no_model_is_recorded_under_the_speakers_model() -> None:
    script = Script("con", lambda n, messages, config: output("", "A speech.", tokens=9))
    turn = con_turn(script.model())
    assert (turn.model, turn.text, turn.hit_budget, turn.finish_reason) == (
        "mockllm/con",
        "A speech.",
        False,
        "stop",
    )
    assert turn.usage.model_dump() == {
        "input_tokens": 50,
        "output_tokens": 9,
        "reasoning_tokens": 0,
        "answer_tokens": 9,
        "total_tokens": 59,
    }


def stub_model(stub: StubServer, timeout: int | None = None) -> Model:
    return get_model(
        "ollama/stub",
        base_url=stub.base_url,
        api_key="the-key",
        config=GenerateConfig(timeout=timeout),
        memoize=False,
    )


def prompt_words() -> int:
    """The stub's count (a word a token) of the two messages, joined as sent."""
    return len(f"{system_prompt(team(), 'con', MOTION)}\n{PROMPT}".split())


def test_a_turn_that_just_fits_is_counted_with_the_speakers_model_then_spoken() -> None:
    window = prompt_words() + TEMPLATE + 60
    with StubServer(StubBehaviour(tokenizer="llama-cpp-python")) as stub:
        turn = con_turn(stub_model(stub), budget=60, window=window)
    (count,) = stub.behaviour.count_requests
    assert count == {
        "input": f"{system_prompt(team(), 'con', MOTION)}\n{PROMPT}",
        "model": "stub",
        "authorization": "Bearer the-key",
    }
    (chat,) = stub.behaviour.requests
    assert chat["max_tokens"] == 60 and chat["seed"] == 41
    assert (turn.model, turn.budget, turn.attempts) == ("stub", 60, 1)
    assert turn.text.startswith("Speech 1 budget 60")


def test_a_turn_one_token_over_the_window_fails_before_the_call_with_its_figures() -> None:
    words = prompt_words()
    window = words + TEMPLATE + 60 - 1
    stub = StubServer(StubBehaviour(tokenizer="llama.cpp"))
    with stub, pytest.raises(DebateError) as failure:
        con_turn(stub_model(stub), budget=60, window=window)
    assert str(failure.value) == (
        "phase 2 (rebuttal:long), side con (ollama/stub): the prompt "
        f"({words} tokens by the server's tokenizer, plus {TEMPLATE} for the chat template) "
        f"and the budget (60) need {window + 1} tokens, more than the context window of "
        f"{window} (-T context_window); lower the budget or shorten the phases"
    )
    assert stub.behaviour.requests == []  # the model was never asked


def test_the_count_waits_no_longer_than_the_models_call_timeout() -> None:
    # The tokenizer answers after 2 s; the model's calls time out after 1 s.
    behaviour = StubBehaviour(tokenizer="llama-cpp-python", tokenizer_latency_s=2.0)
    with StubServer(behaviour) as stub:
        with pytest.raises(DebateError) as failure:
            con_turn(stub_model(stub, timeout=1), window=100_000)
        root = stub.base_url.removesuffix("/v1")
    assert str(failure.value).startswith(
        "phase 2 (rebuttal:long), side con (ollama/stub): counting the prompt's tokens at "
        f"{root}/extras/tokenize/count failed: ReadTimeout"
    )
    assert stub.behaviour.requests == []
