"""One participant's turn: the call and everything recorded about it.

A speaking turn goes through the same call as a debater's speech
(servers.replies: empty replies retried with another seed, reasoning never
in the text, a server that ignores the budget refused, failures naming the
server). A judge's decision goes through judging.structured (its JSON mode
per server, one repair re-ask); both are recorded as turns.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, ModelOutput

from debatebench_eval.core.errors import DebateError
from debatebench_eval.judging.structured import Exchange, ask_judge
from debatebench_eval.protocols.decision import Decision, decision_check, decision_schema
from debatebench_eval.protocols.record import DeliberationTurn
from debatebench_eval.protocols.seats import Seated
from debatebench_eval.protocols.signals import parse_signal, without_signal
from debatebench_eval.record.store import TurnUsage, turn_usage
from debatebench_eval.servers.replies import generate_reply

# The judge's prompt holds every turn it reads, so its cap alone may not make it fit
# (seen on a 4096-token model: 4,261 tokens of prompt before the 2,000 of the reply).
TOO_LONG_HINT = "lower -T final_budget, or -T budget (the turns the judge reads)"


@dataclass(frozen=True)
class TurnSlot:
    """Where a turn falls and what its speaker was shown."""

    id: str
    round: int
    round_name: str
    visibility: str
    shown: list[str]
    budget: int
    max_words: int | None = None
    final: bool = False


def messages_for(seat: Seated, prompt: str) -> list[ChatMessage]:
    return [ChatMessageSystem(content=seat.plan.persona.system), ChatMessageUser(content=prompt)]


def where(seat: Seated, slot: TurnSlot) -> str:
    step = "final step" if slot.final else f"round {slot.round} ({slot.round_name})"
    return f"{step}, participant {seat.id} ({seat.model})"


async def speak(
    seat: Seated, slot: TurnSlot, prompt: str, *, seed: int, retries: int
) -> DeliberationTurn:
    reply = await generate_reply(
        seat.model,
        messages_for(seat, prompt),
        budget=slot.budget,
        seed=seed,
        retries=retries,
        where=where(seat, slot),
    )
    return _turn(
        seat,
        slot,
        reply.text,
        reply.output,
        turn_usage(reply.output),
        latency_ms=reply.latency_ms,
        started_at=reply.started_at,
        attempts=reply.attempts,
        reasoning_chars=reply.reasoning_chars,
    )


async def decide(
    seat: Seated,
    slot: TurnSlot,
    prompt: str,
    *,
    seed: int,
    allowed: tuple[str, ...],
    mode: str,
    repair: str,
) -> tuple[Exchange[Decision], DeliberationTurn]:
    """The judge's decision (checked, one repair) and its turn. A call that
    fails fails the sample; an unusable reply is returned for the caller to
    record as undecided."""
    started = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    clock = time.perf_counter()
    exchange = await ask_judge(
        seat.model,
        messages_for(seat, prompt),
        budget=slot.budget,
        seed=seed,
        schema=decision_schema(allowed),
        name="decision",
        mode=mode,
        check=decision_check(allowed),
        repair_template=repair,
        too_long_hint=TOO_LONG_HINT,
    )
    if exchange.error is not None or not exchange.outputs:
        raise DebateError(f"{where(seat, slot)}: {exchange.error or 'no reply'}")
    turn = _turn(
        seat,
        slot,
        exchange.replies[-1].strip(),
        exchange.outputs[-1],
        _summed(exchange.outputs),
        latency_ms=round((time.perf_counter() - clock) * 1000),
        started_at=started,
        attempts=len(exchange.outputs),
        reasoning_chars=0,
    )
    return exchange, turn


def _summed(outputs: list[ModelOutput]) -> TurnUsage:
    usages = [turn_usage(output) for output in outputs]
    return TurnUsage(
        **{key: sum(getattr(u, key) for u in usages) for key in TurnUsage.model_fields}
    )


def _turn(
    seat: Seated, slot: TurnSlot, text: str, output: ModelOutput, usage: TurnUsage, **call: Any
) -> DeliberationTurn:
    words = len(without_signal(text).split())
    return DeliberationTurn(
        id=slot.id,
        round=slot.round,
        round_name=slot.round_name,
        participant=seat.id,
        persona_id=seat.plan.persona.id,
        inspect_role=seat.role,
        model=output.model or str(seat.model),
        text=text,
        final=slot.final,
        signal=parse_signal(text),
        words=words,
        max_words=slot.max_words,
        over_word_limit=slot.max_words is not None and words > slot.max_words,
        budget=slot.budget,
        hit_budget=output.stop_reason == "max_tokens",
        finish_reason=output.stop_reason,
        usage=usage,
        visibility=slot.visibility,
        shown=slot.shown,
        **call,
    )
