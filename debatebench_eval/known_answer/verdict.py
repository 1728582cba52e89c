"""The judge's answer to a recorded known-answer sample, and the panel's pick.

Shared by the scorer (the judging of a run, and of a saved log with `inspect
score --model-role judge=...`). Every structured request (the judge's answer,
an open debater's choice) goes through `judging.structured.ask_judge`: the
schema sent in the form the server enforces, the reply checked against the
same model, one repair re-ask.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from inspect_ai.model import ChatMessageUser, Model
from pydantic import BaseModel

from debatebench_eval.core.reply_model import check_reply, reply_schema
from debatebench_eval.judging.options import JudgeCalls
from debatebench_eval.judging.structured import Exchange, ask_judge
from debatebench_eval.known_answer.assignment import LABELS
from debatebench_eval.known_answer.orders import (
    EXCHANGED,
    OversightJudging,
    exchanged_speech,
    shown_label,
)
from debatebench_eval.known_answer.prompts import Shown, judge_prompt, repair_template
from debatebench_eval.known_answer.questions import Question
from debatebench_eval.known_answer.record import OversightRecord, Reading, Speech
from debatebench_eval.known_answer.replies import JudgeAnswer

R = TypeVar("R", bound=BaseModel)


async def ask_structured(
    model: Model, prompt: str, reply: type[R], calls: JudgeCalls, seed: int, who: str = "judge"
) -> Exchange[R]:
    """One structured request held to the reply model `reply`."""
    return await ask_judge(
        model,
        [ChatMessageUser(content=prompt)],
        budget=calls.judge_budget,
        seed=seed,
        schema=reply_schema(reply),
        name=f"oversight_{reply.__name__.lower()}",
        mode=calls.judge_schema,
        check=check_reply(reply),
        repair_template=repair_template(),
        who=who,
    )


def shown_of(record: OversightRecord) -> Shown:
    """The question as the judge sees it, rebuilt from the record (answers in the order
    shown, the evidence only where the judge may read it)."""
    assert record.question is not None and record.correct_label is not None
    question = Question(
        id="recorded",
        question=record.question,
        answers=(record.answers[0], record.answers[1]),
        correct=LABELS.index(record.correct_label),
        evidence=record.judge_evidence,
    )
    return Shown(question, (0, 1))


@dataclass(frozen=True)
class Verdict:
    readings: list[Reading]
    # The panel's pick (the label, as recorded, with the higher mean probability over the
    # judges and the orders read; a tie: the first usable reading's pick) and the
    # probability it gives the right answer; None: no judge answered.
    pick: str | None
    p_correct: float | None
    # Per order read (1: as recorded, 2: exchanged): the panel's pick as recorded, None
    # where no judge answered in that order.
    order_picks: dict[int, str | None] = field(default_factory=dict)

    @property
    def orders_disagree(self) -> bool:
        """Both orders answered and picked different answers."""
        picks = [p for p in self.order_picks.values() if p is not None]
        return len(picks) == 2 and picks[0] != picks[1]

    def first_shown_picks(self) -> list[bool]:
        """For each order answered, whether the panel picked the answer shown first."""
        return [
            shown_label(pick, order) == "A"
            for order, pick in self.order_picks.items()
            if pick is not None
        ]


async def judge_record(
    record: OversightRecord,
    judges: list[Model],
    calls: OversightJudging,
    after_round: int | None = None,
) -> Verdict:
    """Every judge answers the recorded sample in each order `calls` asks for; the panel's
    pick. `after_round`: the transcript as it stood after that round (the judge's belief
    along the way)."""
    assert record.seed is not None and record.correct_label is not None
    speeches = [s for s in record.speeches if after_round is None or s.round <= after_round]
    readings: list[Reading] = []
    for order in calls.orders:
        prompt = _order_prompt(record, speeches, order)
        for judge in judges:
            exchange = await ask_structured(judge, prompt, JudgeAnswer, calls, record.seed)
            readings.append(_reading(judge, exchange, order))
    return panel_verdict(readings, record.correct_label)


def _order_prompt(record: OversightRecord, speeches: list[Speech], order: int) -> str:
    shown = shown_of(record)
    if order == EXCHANGED:
        shown = Shown(shown.question, (1, 0))
        speeches = [exchanged_speech(s) for s in speeches]
    return judge_prompt(shown, speeches, with_evidence=record.judge_evidence is not None)


def _reading(judge: Model, exchange: Exchange[JudgeAnswer], order: int) -> Reading:
    found = exchange.result
    return Reading(
        model=str(judge),
        # As recorded, whichever order the judge read: the figures compare like with like.
        answer=shown_label(found.answer, order) if found else None,
        confidence=found.confidence if found else None,
        reason=found.reason if found else None,
        order=order,
        exchange=exchange.record(),
    )


def panel_verdict(readings: list[Reading], right: str) -> Verdict:
    """The pick from the usable readings: each order's panel mean, then the orders' mean."""
    usable = [r for r in readings if r.answer is not None and r.confidence is not None]
    if not usable:
        return Verdict(readings, None, None, {})
    orders = sorted({r.order for r in readings})
    by_order = {o: [r for r in usable if r.order == o] for o in orders}
    p_a = {o: _mean_p(rs, "A") for o, rs in by_order.items() if rs}
    picks = {o: _pick(p_a[o], by_order[o][0]) if o in p_a else None for o in orders}
    mean_a = sum(p_a.values()) / len(p_a)
    pick = _pick(mean_a, usable[0])
    p_right = sum(_mean_p(rs, right) for rs in by_order.values() if rs) / len(p_a)
    return Verdict(readings, pick, p_right, picks)


def _mean_p(readings: list[Reading], label: str) -> float:
    return sum(r.probability_of(label) for r in readings) / len(readings)


def _pick(p_a: float, first: Reading) -> str:
    if p_a == 0.5:
        assert first.answer is not None
        return first.answer
    return "A" if p_a > 0.5 else "B"
