"""The judge's answer to a recorded known-answer sample, and the panel's pick.

Shared by the scorer (the judging of a run, and of a saved log with `inspect
score --model-role judge=...`). Every structured request (the judge's answer,
an open debater's choice) goes through `judging.structured.ask_judge`: the
schema sent in the form the server enforces, the reply checked against the
same model, one repair re-ask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from inspect_ai.model import ChatMessageUser, Model
from pydantic import BaseModel

from debatebench_eval.core.reply_model import check_reply, reply_schema
from debatebench_eval.judging.options import JudgeCalls
from debatebench_eval.judging.structured import Exchange, ask_judge
from debatebench_eval.known_answer.assignment import LABELS
from debatebench_eval.known_answer.prompts import Shown, judge_prompt, repair_template
from debatebench_eval.known_answer.questions import Question
from debatebench_eval.known_answer.record import OversightRecord, Reading
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
    # The panel's pick (the label with the higher mean probability; a tie: the first
    # judge's pick) and the probability it gives the right answer; None: no judge answered.
    pick: str | None
    p_correct: float | None


async def judge_record(record: OversightRecord, judges: list[Model], calls: JudgeCalls) -> Verdict:
    """Every judge answers the recorded sample; the panel's pick."""
    assert record.seed is not None and record.correct_label is not None
    prompt = judge_prompt(
        shown_of(record), record.speeches, with_evidence=record.judge_evidence is not None
    )
    readings: list[Reading] = []
    answers: list[JudgeAnswer] = []
    for judge in judges:
        exchange = await ask_structured(judge, prompt, JudgeAnswer, calls, record.seed)
        found = exchange.result
        readings.append(
            Reading(
                model=str(judge),
                answer=found.answer if found else None,
                confidence=found.confidence if found else None,
                reason=found.reason if found else None,
                exchange=exchange.record(),
            )
        )
        if found is not None:
            answers.append(found)
    if not answers:
        return Verdict(readings, None, None)
    p_a = sum(a.probability_of("A") for a in answers) / len(answers)
    pick = answers[0].answer if p_a == 0.5 else ("A" if p_a > 0.5 else "B")
    right = record.correct_label
    p_correct = sum(a.probability_of(right) for a in answers) / len(answers)
    return Verdict(readings, pick, p_correct)
