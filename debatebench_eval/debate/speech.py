"""One turn: the call to the side's model and everything recorded about it."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    ContentReasoning,
    Model,
    ModelOutput,
)

from debatebench_eval.core.errors import DebateError, ServerError, call_failure
from debatebench_eval.debate.config import DEFAULT_TIMEOUT
from debatebench_eval.debate.prompts import system_prompt
from debatebench_eval.debate.protocol import Phase, Side
from debatebench_eval.debate.record import Turn, TurnUsage
from debatebench_eval.debate.teams import Team
from debatebench_eval.servers.calls import call_config, without_reasoning
from debatebench_eval.servers.context_window import check_fits
from debatebench_eval.servers.probe import model_base_url

# Completion tokens a reply may exceed its budget by before the server is
# judged to ignore the cap (debatebench's tolerance: tokenizers and stop
# sequences make the last few tokens fuzzy).
BUDGET_TOLERANCE = 16


@dataclass(frozen=True)
class Speaker:
    side: Side
    role: str
    model: Model
    team: Team
    budget: int
    # Tokens the model's server can hold; None: not checked before a call.
    context_window: int | None = None


def speech_text(output: ModelOutput) -> tuple[str, int]:
    """The speech without reasoning, and how many characters of reasoning it had."""
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


async def speak(
    speaker: Speaker,
    *,
    phase: Phase,
    phase_index: int,
    order: int,
    motion: str,
    prompt: str,
    budget: int,
    seed: int,
    retries: int,
    turn_id: str,
) -> Turn:
    """Generate one turn, retrying an empty reply; fail naming phase and side."""
    where = f"phase {phase_index} ({phase}), side {speaker.side} ({speaker.model})"
    messages: list[ChatMessage] = [
        ChatMessageSystem(content=system_prompt(speaker.team, speaker.side, motion)),
        ChatMessageUser(content=prompt),
    ]
    if speaker.context_window is not None:
        timeout = call_config(speaker.model, budget, seed).timeout or DEFAULT_TIMEOUT
        await check_fits(speaker.model, messages, budget, speaker.context_window, where, timeout)
    for attempt in range(1, retries + 2):
        started = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        clock = time.perf_counter()
        try:
            # A retry changes the seed: the same seed would give the same empty reply.
            output = await speaker.model.generate(
                messages, config=call_config(speaker.model, budget, seed + attempt - 1)
            )
        except Exception as exc:
            server = model_base_url(speaker.model) or str(speaker.model)
            raise DebateError(
                f"{where}: the model call to {server} failed: {call_failure(exc)}"
            ) from exc
        latency_ms = round((time.perf_counter() - clock) * 1000)
        if output.error:
            raise DebateError(f"{where}: the model returned an error: {output.error}")
        text, reasoning_chars = speech_text(output)
        usage = _usage(output)
        _check_budget(speaker, budget, usage, where)
        if text:
            return Turn(
                id=turn_id,
                phase_index=phase_index,
                phase=phase.name,
                length=phase.length,
                side=speaker.side,
                order=order,
                role=speaker.role,
                team_id=speaker.team.id,
                text=text,
                model=output.model or str(speaker.model),
                usage=usage,
                budget=budget,
                hit_budget=output.stop_reason == "max_tokens",
                finish_reason=output.stop_reason,
                latency_ms=latency_ms,
                started_at=started,
                attempts=attempt,
                reasoning_chars=reasoning_chars,
            )
    raise DebateError(f"{where}: the model returned no speech text in {retries + 1} attempts")


def _usage(output: ModelOutput) -> TurnUsage:
    usage = output.usage
    if usage is None:
        return TurnUsage()
    return TurnUsage(
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        reasoning_tokens=usage.reasoning_tokens or 0,
        total_tokens=usage.total_tokens,
    )


def _check_budget(speaker: Speaker, budget: int, usage: TurnUsage, where: str) -> None:
    if usage.output_tokens > budget + BUDGET_TOLERANCE:
        raise ServerError(
            f"{where}: the server at {model_base_url(speaker.model) or speaker.model} returned "
            f"{usage.output_tokens} completion tokens for a budget of {budget}; it ignores "
            "max_tokens, so budgets cannot be enforced on it"
        )
