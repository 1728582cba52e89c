"""What each speaker and the judge are shown, from tasks/prompts/oversight.yaml.

Plain functions over plain data, so a test can read the exact prompt: the
evidence goes into the speakers' prompts (and the expert judge's), never into
a judge's prompt in the other protocols.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from debatebench_eval.core.resources import data_file
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.known_answer.questions import Question
from debatebench_eval.known_answer.record import Speech

# A token is about 0.75 English words: a speech budget of N tokens asks for 0.6 N words,
# so a speech ends before its cap.
WORDS_PER_TOKEN = 0.6


@dataclass(frozen=True)
class Shown:
    """A question as one sample shows it: the answers in their drawn order."""

    question: Question
    order: tuple[int, int]

    def answer(self, label: str) -> str:
        return self.question.answers[self.order[0 if label == "A" else 1]]

    def fields(self) -> dict[str, str]:
        return {
            "question": self.question.question,
            "answer_a": self.answer("A"),
            "answer_b": self.answer("B"),
        }


@cache
def templates() -> dict[str, str]:
    data: dict[str, Any] = load_yaml(data_file("tasks", "prompts", "oversight.yaml"), "prompts")
    return {key: str(value) for key, value in data.items()}


def _evidence_part(question: Question) -> str:
    t = templates()
    if question.evidence is None:
        return t["no_evidence"]
    return t["evidence"].format(evidence=question.evidence)


def _transcript(speeches: list[Speech], raw: bool) -> str:
    """The speeches, each headed by its round and speaker; `raw`: as written (what the
    speakers read), else as the judge reads them (quotes marked)."""
    return "\n\n".join(
        f"[Round {s.round}, {_who(s)}]\n{s.text if raw else s.shown}" for s in speeches
    )


def _history(speeches: list[Speech], raw: bool) -> str:
    if not speeches:
        return ""
    return templates()["history"].format(history=_transcript(speeches, raw))


def _who(speech: Speech) -> str:
    if speech.role == "judge":
        return "the judge asks"
    if speech.defends is None:
        return speech.role
    return f"the {'consultant' if speech.role == 'consultant' else 'debater'} for {speech.defends}"


def speaker_prompt(
    shown: Shown,
    role: str,
    label: str,
    speeches: list[Speech],
    number: int,
    rounds: int,
    budget: int,
) -> str:
    """A debater's or the consultant's prompt for one round (it reads the evidence)."""
    t = templates()
    template = t["consultant"] if role == "consultant" else t["debater"]
    head = template.format(
        **shown.fields(),
        label=label,
        defended=shown.answer(label),
        other="B" if label == "A" else "A",
        evidence_part=_evidence_part(shown.question),
        words=max(int(budget * WORDS_PER_TOKEN), 20),
    )
    return (
        head + _history(speeches, raw=True) + "\n" + t["round"].format(number=number, rounds=rounds)
    )


def choice_prompt(shown: Shown) -> str:
    return templates()["choose"].format(
        **shown.fields(), evidence_part=_evidence_part(shown.question)
    )


def judge_prompt(shown: Shown, speeches: list[Speech], with_evidence: bool) -> str:
    """The judge's prompt: the transcript as the judge reads it (quotes marked), or
    nothing (naive), or the evidence itself (expert)."""
    t = templates()
    if with_evidence and shown.question.evidence is not None:
        material = t["expert_material"].format(evidence=shown.question.evidence)
        return t["judge_alone"].format(**shown.fields(), material=material)
    if not speeches:
        return t["judge_alone"].format(**shown.fields(), material="")
    transcript = _transcript(speeches, raw=False)
    return t["judge"].format(
        **shown.fields(), material=t["transcript"].format(transcript=transcript)
    )


def judge_question_prompt(shown: Shown, speeches: list[Speech]) -> str:
    transcript = _transcript(speeches, raw=False)
    return templates()["judge_question"].format(**shown.fields(), transcript=transcript)


def repair_template() -> str:
    return templates()["repair"]
