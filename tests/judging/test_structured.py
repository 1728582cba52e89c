"""Structured judge requests: a refused reply format is named with what to change."""

from __future__ import annotations

import asyncio
from typing import Any

from inspect_ai.model import ChatMessageUser, GenerateConfig, ModelOutput

from debatebench_eval.judging.structured import ask_json

from support.scripted import Script, output


def test_a_refused_reply_format_names_the_option_to_change() -> None:
    def refuse(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        raise RuntimeError("Input should be 'text' or 'json_object' (loc: response_format)")

    exchange = asyncio.run(
        ask_json(
            Script("judge", reply=refuse).model(),
            [ChatMessageUser(content="Judge.")],
            GenerateConfig(max_retries=0),
            lambda reply: (reply, []),
            "Repair: {problems}",
        )
    )
    assert exchange.result is None and exchange.replies == []
    assert "response_format" in str(exchange.failure)
    assert "set -T judge_schema=object (llama.cpp servers)" in str(exchange.failure)


def test_other_call_failures_get_no_format_hint() -> None:
    def fail(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        raise RuntimeError("connection reset")

    exchange = asyncio.run(
        ask_json(
            Script("judge", reply=fail).model(),
            [ChatMessageUser(content="Judge.")],
            GenerateConfig(max_retries=0),
            lambda reply: (reply, []),
            "Repair: {problems}",
        )
    )
    assert "connection reset" in str(exchange.failure)
    assert "judge_schema" not in str(exchange.failure)


def test_a_request_too_long_for_the_context_is_not_repaired_and_says_so() -> None:
    def too_long(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        return output("judge", "This model's maximum context length is 4096 tokens.",
                      stop="model_length")  # fmt: skip

    judge = Script("judge", reply=too_long)
    exchange = asyncio.run(
        ask_json(
            judge.model(),
            [ChatMessageUser(content="Judge.")],
            GenerateConfig(max_retries=0),
            lambda reply: (reply, []),
            "Repair: {problems}",
        )
    )
    assert len(judge.calls) == 1 and exchange.result is None
    assert "do not fit the judge's context window" in str(exchange.failure)
    assert "maximum context length is 4096" in str(exchange.failure)
    assert "lower -T judge_budget" in str(exchange.failure)
