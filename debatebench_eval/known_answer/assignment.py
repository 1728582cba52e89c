"""Who defends which answer, and in which order the judge sees the answers.

Everything is drawn over the whole question set from Inspect's --seed (0 when
none is given) when the first sample starts, and kept in each sample's
metadata, so a run can be read (and repeated) without the model calls. Each
draw is balanced in consecutive pairs of questions (one of each pair gets True,
which one is a seeded coin), so any prefix of the set (`--limit`) is balanced
to within one question: the right answer is shown first for half of the
questions, the `pro` debater defends the right answer in half, and the
consultant argues for the right answer in half.
"""

from __future__ import annotations

import random
from typing import Any

from debatebench_eval.known_answer.questions import Question

PROTOCOLS = ("debate", "consultancy", "naive", "expert", "open")
LABELS = ("A", "B")
DEBATERS = ("pro", "con")
CONSULTANT = "consultant"
# The protocols with two debaters, whose models a paired run exchanges.
TWO_DEBATERS = ("debate", "open")
# A paired run's second sample of a question (as the debate task names its twin).
SWAPPED_SUFFIX = ".swapped"


def balanced(n: int, seed: int, salt: str) -> list[bool]:
    """n flags, one True in each consecutive pair, which one a seeded coin."""
    rng = random.Random(f"{seed}:{salt}")
    flags: list[bool] = []
    for _ in range(0, n, 2):
        first = rng.random() < 0.5
        flags += [first, not first]
    return flags[:n]


def other(label: str) -> str:
    return LABELS[1 - LABELS.index(label)]


def assignments(questions: tuple[Question, ...], protocol: str, seed: int) -> list[dict[str, Any]]:
    """Each question's draw, as its sample's metadata (module docstring)."""
    n = len(questions)
    right_first = balanced(n, seed, "right-first")
    pro_right = balanced(n, seed, "pro-right")
    consultant_right = balanced(n, seed, "consultant-right")
    found: list[dict[str, Any]] = []
    for i, question in enumerate(questions):
        wrong = 1 - question.correct
        order = [question.correct, wrong] if right_first[i] else [wrong, question.correct]
        correct_label = LABELS[order.index(question.correct)]
        meta: dict[str, Any] = {
            "question_id": question.id,
            "category": question.category,
            "protocol": protocol,
            "answer_order": order,
            "correct_label": correct_label,
            "assignment_seed": seed,
            "assignment": _roles(protocol, pro_right[i], consultant_right[i], correct_label),
        }
        if protocol == "consultancy":
            meta["consultant_right"] = consultant_right[i]
        found.append(meta)
    return found


def _roles(protocol: str, pro_right: bool, right: bool, correct_label: str) -> dict[str, str]:
    if protocol == "debate":
        wrong = other(correct_label)
        return (
            {"pro": correct_label, "con": wrong}
            if pro_right
            else {"pro": wrong, "con": correct_label}
        )
    if protocol == "consultancy":
        return {CONSULTANT: correct_label if right else other(correct_label)}
    return {}  # naive and expert have no speaker; open's debaters choose in the run


def open_sides(choices: dict[str, str]) -> dict[str, str]:
    """Open debate: each debater defends the answer it chose; when both chose the
    same, `con` is given the other one (its own choice stays recorded)."""
    if choices["pro"] != choices["con"]:
        return dict(choices)
    return {"pro": choices["pro"], "con": other(choices["pro"])}
