"""Every call of a debate, planned before the first and checked against the context.

A judge refused for a transcript too long for its server is found, today,
only after the whole debate was spoken. So before the first turn the solver
plans every call at its worst: each turn with every earlier turn it is shown
at its budget, and each judge call (the rubric's readings, the fact-check)
over a transcript of every turn at its budget. The text not written yet is a
placeholder in the real prompts (so what each call is shown comes from the
same code that builds it), removed before the count and replaced by the
budget of the turn it stands for.

The check itself, and where the window comes from, is
`servers.context_window.check_plan`. A repair re-ask of a judge, which
carries the judge's first reply too, is not planned: the first ask is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model
from inspect_ai.util import Store

from debatebench_eval.debating.config import DebateSettings
from debatebench_eval.debating.prompts import phase_prompt
from debatebench_eval.debating.speech import (
    Speaker,
    turn_budget,
    turn_cap,
    turn_messages,
    turn_where,
)
from debatebench_eval.judging.blind import blind_orientation
from debatebench_eval.judging.fact_check import fact_check_messages
from debatebench_eval.judging.options import JudgingOptions
from debatebench_eval.judging.rubric_scorer import rubric_messages
from debatebench_eval.record.protocol import Side
from debatebench_eval.record.store import (
    DebateRecord,
    Passage,
    RunSettings,
    Turn,
    TurnUsage,
    turn_id,
)
from debatebench_eval.servers.context_window import PlannedCall, check_plan

# Stands for turn N's text until it is spoken; no prompt, name or mask has it.
_PLACEHOLDER = "\u27e6unwritten turn {}\u27e7"
_FOUND = re.compile("\u27e6unwritten turn (\\d+)\u27e7")


@dataclass(frozen=True)
class JudgedCalls:
    """What the judging scorers will ask of each debate."""

    options: JudgingOptions
    fact_check: bool


@dataclass(frozen=True)
class DebatePlan:
    """One sample's debate as the solver has it before its first turn."""

    settings: DebateSettings
    speakers: dict[Side, Speaker]
    orders: list[tuple[Side, Side]]
    run: RunSettings
    passages: list[Passage]
    sample_id: str | int
    epoch: int


async def check_debate_fits(
    plan: DebatePlan, judges: list[Model], judging: JudgedCalls | None, timeout: float
) -> None:
    """Raise DebateError, before any call, if a turn or a judge call of the debate
    cannot fit its model's context at the budgets set."""
    await check_plan(planned_calls(plan, judges, judging), plan.settings.context_window, timeout)


def planned_calls(
    plan: DebatePlan, judges: list[Model], judging: JudgedCalls | None
) -> list[PlannedCall]:
    """Every call of the debate at its worst: the turns in speaking order, then the
    judges' (none when `judging` is None)."""
    calls, turns = _turn_calls(plan)
    if judging is not None:
        calls += _judge_calls(plan, turns, judges, judging)
    return calls


def _turn_calls(plan: DebatePlan) -> tuple[list[PlannedCall], list[Turn]]:
    """Each turn's call at its worst, and every turn as a placeholder at its budget."""
    calls: list[PlannedCall] = []
    turns: list[Turn] = []
    phases = plan.settings.phases
    for phase_index, (phase, order) in enumerate(zip(phases, plan.orders, strict=True)):
        for position, side in enumerate(order):
            speaker = plan.speakers[side]
            # At its worst a speech runs to the whole cap: a model that thinks less
            # than its reasoning budget may speak for the rest.
            budget = turn_cap(
                speaker, turn_budget(speaker, phase, plan.settings.prep_budgets.get(speaker.role))
            )
            prompt = phase_prompt(phase, turns, side, plan.passages)
            sent = turn_messages(speaker, plan.run.motion, prompt)
            messages, unwritten = _filled(sent, turns)
            option = _budget_option(phase.is_prep, speaker.reasoning_budget is not None)
            calls.append(
                PlannedCall(
                    where=turn_where(speaker, phase, phase_index),
                    model=speaker.model,
                    messages=messages,
                    budget=budget,
                    option=option,
                    unwritten=unwritten,
                    required=speaker.context_window is not None,
                )
            )
            turns.append(
                _placeholder_turn(
                    plan, speaker, phase.name, phase_index, position, budget, len(turns)
                )
            )
    return calls, turns


def _budget_option(prep: bool, reasoning: bool) -> str:
    """The options that lower a turn's cap."""
    option = "-T prep_budget" if prep else "-T budget"
    return f"{option} or -T reasoning_budget" if reasoning else option


def _placeholder_turn(
    plan: DebatePlan,
    speaker: Speaker,
    phase: str,
    phase_index: int,
    order: int,
    budget: int,
    number: int,
) -> Turn:
    """Turn `number` at its worst: its text a placeholder for `budget` tokens."""
    return Turn(
        id=turn_id(plan.sample_id, plan.epoch, phase_index, speaker.side),
        phase_index=phase_index,
        phase=phase,
        side=speaker.side,
        order=order,
        role=speaker.role,
        team_id=speaker.team.id,
        text=_PLACEHOLDER.format(number),
        model=str(speaker.model),
        usage=TurnUsage(),
        budget=budget,
        hit_budget=True,
        finish_reason="max_tokens",
        latency_ms=0,
        started_at="",
    )


def _judge_calls(
    plan: DebatePlan, turns: list[Turn], judges: list[Model], judging: JudgedCalls
) -> list[PlannedCall]:
    """The rubric's first ask of each judge and the fact-check's, over the worst transcript
    (both orientations of a reading are the same length: one is planned)."""
    record = DebateRecord(store=Store(), run=plan.run, turns=turns, passages=plan.passages)
    orientation = blind_orientation(plan.run.seed)
    asks = [
        (f"the rubric's reading by judge {judge}", judge,
         rubric_messages(record, orientation, judging.options.rubric))
        for judge in judges
    ]  # fmt: skip
    if judging.fact_check and judges:
        fact_check = fact_check_messages(record, orientation)
        asks.append((f"the fact-check by judge {judges[0]}", judges[0], fact_check))
    return [_judge_call(where, judge, sent, turns, judging) for where, judge, sent in asks]


def _judge_call(
    where: str, judge: Model, sent: list[ChatMessage], turns: list[Turn], judging: JudgedCalls
) -> PlannedCall:
    messages, unwritten = _filled(sent, turns)
    return PlannedCall(
        where=where,
        model=judge,
        messages=messages,
        budget=judging.options.judge_budget,
        option="-T judge_budget",
        unwritten=unwritten,
    )


def _filled(messages: Sequence[ChatMessage], turns: list[Turn]) -> tuple[list[ChatMessage], int]:
    """The messages without the turns' placeholders, and the tokens those stand for
    (each turn's budget, as often as the messages show it)."""
    out: list[ChatMessage] = []
    unwritten = 0
    for message in messages:
        text = message.text
        unwritten += sum(turns[int(n)].budget for n in _FOUND.findall(text))
        kind = ChatMessageSystem if message.role == "system" else ChatMessageUser
        out.append(kind(content=_FOUND.sub("", text)))
    return out, unwritten
