"""One model call that must return text: the rules every speaking turn shares.

A debater's speech and a deliberation participant's turn are both one call
with a budget and a seed, where an empty reply is retried with another seed,
reasoning is never part of the text, a server that ignores the budget (or
the reasoning budget, when one is set) is refused, and a failure names the
server. Judges are different (they want
JSON, with one repair): `judging.structured`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from inspect_ai.model import ChatMessage, ContentReasoning, Model, ModelOutput

from debatebench_eval.core.errors import DebateError, ServerError, call_failure
from debatebench_eval.servers.calls import call_config, completion_cap, without_reasoning
from debatebench_eval.servers.probe import model_base_url

# Completion tokens a reply may exceed its budget by before the server is
# judged to ignore the cap (debatebench's tolerance: tokenizers and stop
# sequences make the last few tokens fuzzy).
BUDGET_TOLERANCE = 16


@dataclass(frozen=True)
class Reply:
    """A non-empty reply and what is recorded about its call."""

    output: ModelOutput
    # The reply without reasoning, stripped; never empty.
    text: str
    reasoning_chars: int
    latency_ms: int
    # UTC, to the second, of the attempt that gave the reply.
    started_at: str
    attempts: int


def reply_text(output: ModelOutput) -> tuple[str, int]:
    """The reply without reasoning, and how many characters of reasoning it had."""
    message = output.message
    reasoning = 0
    if not isinstance(message.content, str):
        reasoning = sum(
            len(c.reasoning) for c in message.content if isinstance(c, ContentReasoning)
        )
    text = message.text
    stripped = without_reasoning(text)
    reasoning += len(text) - len(stripped)
    return stripped.strip(), reasoning


async def generate_reply(
    model: Model,
    messages: Sequence[ChatMessage],
    *,
    budget: int,
    seed: int,
    retries: int,
    where: str,
    reasoning_budget: int | None = None,
) -> Reply:
    """Generate until the reply has text, at most `retries` + 1 times.

    `budget` caps the answer; a `reasoning_budget` caps thinking on top of it
    (servers.calls.call_config).

    Raises DebateError (the call failed, the model returned an error or only
    empty replies) or ServerError (the server ignores max_tokens or the
    reasoning budget), each starting with `where`.
    """
    cap = completion_cap(budget, reasoning_budget)
    for attempt in range(1, retries + 2):
        started = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        clock = time.perf_counter()
        try:
            # A retry changes the seed: the same seed would give the same empty reply.
            output = await model.generate(
                list(messages),
                config=call_config(model, budget, seed + attempt - 1, reasoning_budget),
            )
        except Exception as exc:
            server = model_base_url(model) or str(model)
            raise DebateError(
                f"{where}: the model call to {server} failed: {call_failure(exc)}"
            ) from exc
        latency_ms = round((time.perf_counter() - clock) * 1000)
        if output.error:
            raise DebateError(f"{where}: the model returned an error: {output.error}")
        text, reasoning_chars = reply_text(output)
        check_budget(model, cap, output, where)
        if reasoning_budget is not None:
            check_reasoning_budget(model, reasoning_budget, output, where)
        if text:
            return Reply(output, text, reasoning_chars, latency_ms, started, attempt)
    raise DebateError(f"{where}: the model returned no speech text in {retries + 1} attempts")


def check_budget(model: Model, budget: int, output: ModelOutput, where: str) -> None:
    """Refuse a server that returned more completion tokens than the budget allows."""
    used = output.usage.output_tokens if output.usage is not None else 0
    if used > budget + BUDGET_TOLERANCE:
        raise ServerError(
            f"{where}: the server at {model_base_url(model) or model} returned "
            f"{used} completion tokens for a budget of {budget}; it ignores "
            "max_tokens, so budgets cannot be enforced on it"
        )


def check_reasoning_budget(
    model: Model, reasoning_budget: int, output: ModelOutput, where: str
) -> None:
    """Refuse a server that reported more reasoning tokens than the reasoning budget
    allows: the thinking then ate the answer's share of max_tokens, and two sides'
    speeches are no longer held to the same budget."""
    used = (output.usage.reasoning_tokens or 0) if output.usage is not None else 0
    if used > reasoning_budget + BUDGET_TOLERANCE:
        raise ServerError(
            f"{where}: the server at {model_base_url(model) or model} returned "
            f"{used} reasoning tokens for a reasoning budget of {reasoning_budget}; it "
            "ignores the reasoning budget (reasoning_tokens), so speeches cannot be "
            "held to -T budget on it"
        )
