"""One turn: the call to the side's model and everything recorded about it."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    ContentReasoning,
    GenerateConfig,
    Model,
    ModelOutput,
)

from ._inspect import active_generate_config
from .config import DEFAULT_TIMEOUT
from .context_window import check_fits
from .errors import DebateError, ServerError, call_failure
from .probe import model_base_url
from .prompts import system_prompt
from .protocol import Phase, Side
from .record import Turn, TurnUsage
from .teams import Team

# Completion tokens a reply may exceed its budget by before the server is
# judged to ignore the cap (debatebench's tolerance: tokenizers and stop
# sequences make the last few tokens fuzzy).
BUDGET_TOLERANCE = 16
# Some servers leave reasoning inside the content; it is never speech.
_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class Speaker:
    side: Side
    role: str
    model: Model
    team: Team
    budget: int
    # Tokens the model's server can hold; None: not checked before a call.
    context_window: int | None = None


def call_config(model: Model, budget: int, seed: int) -> GenerateConfig:
    """The settings for one call: the command line's generate settings (which
    Inspect gives only to the main model), then the role's own settings, then
    the turn's budget and seed, which always win."""
    base = active_generate_config().merge(model.config)
    return base.merge(GenerateConfig(max_tokens=budget, seed=seed))


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


def without_reasoning(text: str) -> str:
    """The text with any <think> block (closed or cut off) removed."""
    return _THINK.sub("", text)


def turn_heading(turn: Turn) -> str:
    """The heading the log viewer shows above a speech (it labels messages only by chat role)."""
    length = f" ({turn.length})" if turn.length else ""
    return (
        f"### {turn.phase_index + 1}. {turn.phase.capitalize()}{length} — {turn.side.upper()}\n"
        f"*{turn.team_id} · {turn.model} · role {turn.role} · "
        f"{turn.usage.output_tokens}/{turn.budget} tokens"
        f"{' · hit budget' if turn.hit_budget else ''}{_cites(turn)}*"
    )


def _cites(turn: Turn) -> str:
    if not turn.cited_ids:
        return ""
    problems = [f"{pid} ({why})" for pid, why in turn.citation_problems.items()]
    flagged = f" · flagged {', '.join(problems)}" if problems else ""
    return f" · cites {', '.join(turn.cited_ids)}{flagged}"


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
