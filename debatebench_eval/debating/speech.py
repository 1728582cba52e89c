"""One turn: the call to the side's model and everything recorded about it."""

from __future__ import annotations

from dataclasses import dataclass

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model

from debatebench_eval.core.calls import DEFAULT_TIMEOUT
from debatebench_eval.debating.prompts import system_prompt
from debatebench_eval.record.protocol import Phase, Side
from debatebench_eval.record.store import Turn, turn_usage
from debatebench_eval.record.teams import Team
from debatebench_eval.servers.calls import call_config, completion_cap
from debatebench_eval.servers.context_window import check_fits
from debatebench_eval.servers.replies import BUDGET_TOLERANCE, generate_reply
from debatebench_eval.servers.replies import reply_text as speech_text

__all__ = [
    "BUDGET_TOLERANCE", "Speaker", "speak", "speaker_label", "speech_text", "turn_budget",
    "turn_cap", "turn_messages", "turn_where",
]  # fmt: skip


@dataclass(frozen=True)
class Speaker:
    side: Side
    role: str
    model: Model
    team: Team
    budget: int
    # Tokens the model's server can hold; None: not checked before a call.
    context_window: int | None = None
    # Thinking's cap beside `budget` (which then caps the answer alone); None:
    # thinking and speech share `budget`, as providers count them by default.
    reasoning_budget: int | None = None


def speaker_label(speaker: Speaker) -> str:
    """Who speaks for which side, as the transcript heads a turn. Inspect labels each
    model call by its role, and in a swapped sample the `con` role argues PRO: the
    label says so (`PRO: ollama/m5 (the con role, sides swapped)`)."""
    who = f"{speaker.side.upper()}: {speaker.model}"
    return (
        who if speaker.role == speaker.side else f"{who} (the {speaker.role} role, sides swapped)"
    )


def turn_budget(speaker: Speaker, phase: Phase, prep_budget: int | None) -> int:
    """A turn's answer-token cap: the prep budget in prep, else the side's."""
    return prep_budget if phase.is_prep and prep_budget else speaker.budget


def turn_cap(speaker: Speaker, budget: int) -> int:
    """The max_tokens a turn with this answer budget is sent (its reasoning budget added)."""
    return completion_cap(budget, speaker.reasoning_budget)


def turn_where(speaker: Speaker, phase: Phase, phase_index: int) -> str:
    """How a turn is named in its errors."""
    return f"phase {phase_index} ({phase}), side {speaker.side} ({speaker.model})"


def turn_messages(speaker: Speaker, motion: str, prompt: str) -> list[ChatMessage]:
    """What a turn's call sends: the side's system prompt, then the turn's prompt."""
    return [
        ChatMessageSystem(content=system_prompt(speaker.team, speaker.side, motion)),
        ChatMessageUser(content=prompt),
    ]


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
    where = turn_where(speaker, phase, phase_index)
    messages = turn_messages(speaker, motion, prompt)
    if speaker.context_window is not None:
        timeout = call_config(speaker.model, budget, seed).timeout or DEFAULT_TIMEOUT
        cap = turn_cap(speaker, budget)
        await check_fits(speaker.model, messages, cap, speaker.context_window, where, timeout)
    reply = await generate_reply(
        speaker.model,
        messages,
        budget=budget,
        seed=seed,
        retries=retries,
        where=where,
        reasoning_budget=speaker.reasoning_budget,
    )
    output = reply.output
    return Turn(
        id=turn_id,
        phase_index=phase_index,
        phase=phase.name,
        length=phase.length,
        side=speaker.side,
        order=order,
        role=speaker.role,
        team_id=speaker.team.id,
        text=reply.text,
        model=output.model or str(speaker.model),
        usage=turn_usage(output),
        budget=budget,
        reasoning_budget=speaker.reasoning_budget,
        hit_budget=output.stop_reason == "max_tokens",
        finish_reason=output.stop_reason,
        latency_ms=reply.latency_ms,
        started_at=reply.started_at,
        attempts=reply.attempts,
        reasoning_chars=reply.reasoning_chars,
    )
