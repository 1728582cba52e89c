"""The deliberation loop: rounds walked in order, then the final step.

Thin on purpose: who speaks comes from the plan, what they see from
`visibility`, what they are asked from `prompts`, when to stop from
`signals`, what a decision must hold from `decision`, and each call's
bookkeeping from `turns`. This module wires them to Inspect: a span per
round (a participant's span inside it), a headed chat message per turn, an
info event per round, and the record in the store.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

import anyio
from inspect_ai.log import transcript
from inspect_ai.model import ChatMessageAssistant
from inspect_ai.solver import TaskState
from inspect_ai.util import span

from debatebench_eval.protocols.answers import parse_answer
from debatebench_eval.protocols.decision import decision_shape, next_step
from debatebench_eval.protocols.display import outcome_heading, turn_heading
from debatebench_eval.protocols.plan import Plan
from debatebench_eval.protocols.prompts import final_prompt, round_prompt
from debatebench_eval.protocols.record import (
    DeliberationRecord,
    DeliberationTurn,
    Outcome,
    Signal,
    turn_id,
)
from debatebench_eval.protocols.seats import Seated
from debatebench_eval.protocols.signals import assess, stop_reason, unheard
from debatebench_eval.protocols.spec import DEFAULT_TURN_BUDGET, Turns
from debatebench_eval.protocols.turns import TurnSlot, decide, speak
from debatebench_eval.protocols.visibility import shown_turns

T = TypeVar("T")


@dataclass
class Deliberation:
    plan: Plan
    seats: dict[str, Seated]
    state: TaskState
    record: DeliberationRecord
    task: str
    seed: int
    # Set when another task's scorer reads the answer (the `deliberate` solver).
    answer_instruction: str | None = None
    # Every signal a signalled round read (None: the turn's block was unreadable).
    heard: list[Signal | None] = field(default_factory=list)

    async def run(self) -> Outcome:
        rounds, reason = await self._rounds()
        if self.plan.protocol.final.kind == "decision":
            outcome = await self._decision(rounds, reason)
        else:
            outcome = await self._synthesis(rounds, reason)
        self.record.outcome = outcome
        final = next(t for t in reversed(self.record.turns) if t.final)
        self._show(final, outcome_heading(outcome))
        return outcome

    async def _rounds(self) -> tuple[int, str]:
        number = 0
        while True:
            turns = self.plan.protocol.round_at(number + 1, self.plan.max_rounds)
            if turns is None:
                return number, "max"
            number += 1
            await self._round(number, turns)
            reason = stop_reason(self.record.rounds, self.plan.converge, self.plan.max_rounds)
            if reason is not None:
                return number, reason

    async def _round(self, number: int, turns: Turns, question: str | None = None) -> None:
        speakers = [self.seats[seat.id] for seat in self.plan.speakers(turns)]
        async with span(f"Round {number}: {turns.name}", type="round"):
            if turns.order == "parallel":
                shown = shown_turns(self.record.turns, number, turns.visibility, False)
                jobs = [
                    (seat.id, self._speaker(seat, number, turns, shown, question))
                    for seat in speakers
                ]
                spoken = await together(jobs)
                self._add(spoken)
            else:
                spoken = []
                for seat in speakers:
                    shown = shown_turns(self.record.turns, number, turns.visibility, True)
                    async with span(seat.id, type="participant"):
                        turn = await self._speaker(seat, number, turns, shown, question)()
                    spoken.append(turn)
                    self._add([turn])
        converge = self.plan.converge
        previous = self.record.rounds[-1] if self.record.rounds else None
        signals = [t.signal if turns.signal else None for t in spoken]
        if turns.signal:
            self.heard += signals
        result = assess(
            number, turns.name, signals, converge.until if converge else "all", previous
        )
        self.record.rounds = [*self.record.rounds, result]
        transcript().info(result.model_dump(), source="deliberation")

    def _speaker(
        self,
        seat: Seated,
        number: int,
        turns: Turns,
        shown: list[DeliberationTurn],
        question: str | None,
    ) -> Callable[[], Awaitable[DeliberationTurn]]:
        prompt = round_prompt(self.plan.protocol, turns, self.task, shown, number, question)
        slot = TurnSlot(
            id=self._turn_id(number, seat.id),
            round=number,
            round_name=turns.name,
            visibility=turns.visibility,
            shown=[t.id for t in shown],
            budget=self.plan.turn_budget(turns, DEFAULT_TURN_BUDGET),
            max_words=turns.max_words,
        )
        retries = self.plan.options.run.empty_retries
        return lambda: speak(seat, slot, prompt, seed=self.seed, retries=retries)

    def _final_slot(
        self, number: int, name: str
    ) -> tuple[Seated, TurnSlot, list[DeliberationTurn]]:
        final = self.plan.protocol.final
        seat = self.seats[self.plan.final_seat.id]
        shown = shown_turns(self.record.turns, number, final.visibility, False)
        slot = TurnSlot(
            id=self._turn_id(number, f"{seat.id}:final"),
            round=number,
            round_name=name,
            visibility=final.visibility,
            shown=[t.id for t in shown],
            budget=self.plan.final_budget,
            max_words=final.max_words,
            final=True,
        )
        return seat, slot, shown

    async def _synthesis(self, rounds: int, reason: str) -> Outcome:
        final = self.plan.protocol.final
        seat, slot, shown = self._final_slot(rounds + 1, "synthesis")
        prompt = final_prompt(final, self.task, shown, answer_instruction=self.answer_instruction)
        async with span("Synthesis", type="final"):
            turn = await speak(
                seat, slot, prompt, seed=self.seed, retries=self.plan.options.run.empty_retries
            )
        self.record.turns = [*self.record.turns, turn]
        answer = parse_answer(turn.text) if self.answer_instruction else turn.text
        # Only a converging panel's stop depends on its signals.
        why = unheard(self.heard, rounds, reason) if self.plan.converge else None
        return Outcome(
            kind="synthesis",
            status="decided" if why is None else "undecided",
            stop_reason=reason,
            rounds=rounds,
            answer=answer,
            undecided_reason=why,
            final_turn_ids=[turn.id],
        )

    async def _decision(self, rounds: int, reason: str) -> Outcome:
        final = self.plan.protocol.final
        extra = final.extra_round
        number, extra_run = rounds + 1, 0
        exchanges, ids = [], []
        while True:
            seat, slot, shown = self._final_slot(number, "decision")
            prompt = final_prompt(final, self.task, shown, shape=decision_shape(final.allowed))
            async with span(f"Decision (round {number})", type="final"):
                exchange, turn = await decide(
                    seat,
                    slot,
                    prompt,
                    seed=self.seed,
                    allowed=final.allowed,
                    mode=self.plan.options.judge_schema,
                    repair=final.repair,
                )
            self.record.turns = [*self.record.turns, turn]
            exchanges.append(exchange.record())
            ids.append(turn.id)
            decision = exchange.result
            if decision is None:
                return Outcome(
                    kind="decision",
                    status="undecided",
                    stop_reason=reason,
                    rounds=number,
                    undecided_reason=exchange.failure,
                    exchanges=exchanges,
                    final_turn_ids=ids,
                )
            step = next_step(decision, extra_run, extra.max if extra else 0)
            if step != "extra_round":
                break
            assert extra is not None
            self._show(turn, f"**The judge asks for another round:** {decision.question}")
            extra_run, number, reason = extra_run + 1, number + 1, "judge_request"
            await self._round(number, extra.turns, question=decision.question)
        forced = step == "forced"
        return Outcome(
            kind="decision",
            status="decided",
            stop_reason=reason,
            rounds=number,
            answer=extra.unresolved if forced and extra else decision.value,
            decision=decision.record,
            forced_escalate=forced,
            exchanges=exchanges,
            final_turn_ids=ids,
        )

    def _turn_id(self, number: int, participant: str) -> str:
        return turn_id(self.state.sample_id, self.state.epoch, number, participant)

    def _add(self, turns: list[DeliberationTurn]) -> None:
        self.record.turns = [*self.record.turns, *turns]
        for turn in turns:
            self._show(turn)

    def _show(self, turn: DeliberationTurn, note: str | None = None) -> None:
        kind = self.plan.protocol.final.kind
        parts = [turn_heading(turn, kind), note, turn.text]
        self.state.messages.append(
            ChatMessageAssistant(
                content="\n\n".join(p for p in parts if p),
                model=turn.model,
                metadata={"round": turn.round, "participant": turn.participant, "turn_id": turn.id},
            )
        )


async def together(jobs: list[tuple[str, Callable[[], Awaitable[T]]]]) -> list[T]:
    """Run the jobs at once, each in a span named for its participant; results
    in the jobs' order. One failure cancels the others and is raised as itself."""
    results: dict[int, T] = {}

    async def run(index: int, name: str, job: Callable[[], Awaitable[T]]) -> None:
        async with span(name, type="participant"):
            results[index] = await job()

    try:
        async with anyio.create_task_group() as group:
            for index, (name, job) in enumerate(jobs):
                group.start_soon(run, index, name, job)
    except BaseExceptionGroup as failed:
        first: BaseException = failed
        while isinstance(first, BaseExceptionGroup):
            first = first.exceptions[0]
        raise first from None
    return [results[index] for index in range(len(jobs))]
