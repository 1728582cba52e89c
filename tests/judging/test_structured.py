"""Structured judge requests: a refused reply format is named with what to change."""

from __future__ import annotations

import asyncio
from typing import Any

from inspect_ai.model import ChatMessageUser, GenerateConfig, ModelOutput

from debatebench_eval.judging.structured import ask_json

from support.scripted import Script


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
