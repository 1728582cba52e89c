"""After each round: steelman fidelity, convergence (judged) and lexical similarity (counted).

Convergence is the judge's 0-1 reading of whether the sides now agree or one
is deferring without new reasons (sycophancy, not persuasion). Beside it the
harness counts a signal no judge can talk itself into: the Jaccard similarity
of the two speeches' content terms (the retrieval analyzer's terms, so Chinese
counts too). A judged convergence at or above the threshold ends the rounds
early; both signals are recorded every round either way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from debatebench_eval.crucible.blindview import BlindView
from debatebench_eval.crucible.record import CrucibleRecord, CrucibleTurn, SteelmanReview
from debatebench_eval.crucible.replies import INTEGER, NUMBER, TEXT, array, obj, whole


def lexical_similarity(first: str, second: str) -> float:
    """Jaccard similarity of the two texts' content terms, 0 (disjoint) to 1 (same terms)."""
    from debatebench_eval.prep.index import CJK_FOLD, tokens

    a, b = set(tokens(first, CJK_FOLD)), set(tokens(second, CJK_FOLD))
    if not a and not b:
        return 0.0
    return round(len(a & b) / len(a | b), 4)


def should_stop(convergence: float, threshold: float | None) -> bool:
    """The early-stop rule: a judged convergence at or above the threshold (None: never)."""
    return threshold is not None and convergence >= threshold


def review_schema() -> dict[str, Any]:
    grade = obj({"turn": TEXT, "fidelity": INTEGER, "reason": TEXT})
    return obj(
        {"steelman": array(grade), "convergence": NUMBER, "reason": TEXT, "conceded": array(TEXT)}
    )


def review_shape(turns: list[str]) -> str:
    grades = [{"turn": t, "fidelity": 4, "reason": "..."} for t in turns]
    return json.dumps(
        {"steelman": grades, "convergence": 0.2, "reason": "...", "conceded": []}, indent=2
    )


def render_round(record: CrucibleRecord, turns: list[CrucibleTurn], view: BlindView) -> str:
    claims = "\n\n".join(view.claim_block(c, with_lines=False) for c in view.ordered(record))
    blocks = [f"Claims:\n\n{claims}"]
    for turn in turns:
        lines = [
            f"[{turn.id}] {view.side(turn.side)}, {turn.kind}"
            + (f" (arguing {view.side(turn.argues)}'s position)" if turn.kind == "swap" else "")
        ]
        if turn.steelman is not None:
            restated = view.label_of(turn.steelman.claim)
            lines.append(f"  steelman of {restated}: {view.text(turn.steelman.restatement)}")
        lines += [
            f"  attack {view.label_of(a.claim)} -> {view.label_of(a.target)}: "
            f"{view.text(a.argument)}"
            for a in turn.attacks
        ]
        lines += [
            f"  defence of {view.label_of(d.claim)}: {view.text(d.reply)}" for d in turn.defends
        ]
        lines.append(f"  speech: {view.text(turn.speech)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


@dataclass(frozen=True)
class Review:
    steelman: list[SteelmanReview]
    convergence: float
    reason: str
    conceded: list[str]


def check_review(
    reply: Any, steelmen: list[str], view: BlindView
) -> tuple[Review | None, list[str]]:
    """The review with real claim ids and the judge's words with its labels put back
    (`BlindView.reveal`); `steelmen` are the ids of the turns that opened with one."""
    if not isinstance(reply, dict):
        return None, ["the reply must be a JSON object"]
    problems: list[str] = []
    grades = _grades(reply.get("steelman"), steelmen, problems)
    value = reply.get("convergence")
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        problems.append(f'"convergence" is {value!r}; expected a number from 0 to 1')
    reason = reply.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        problems.append('"reason" is missing or empty')
    conceded = _conceded(reply.get("conceded"), view, problems)
    if problems:
        return None, problems
    grades = [g.model_copy(update={"reason": view.reveal(g.reason)}) for g in grades]
    revealed = view.reveal(str(reason).strip())
    return Review(grades, float(value), revealed, conceded), []  # type: ignore[arg-type]


def _grades(value: Any, steelmen: list[str], problems: list[str]) -> list[SteelmanReview]:
    if not isinstance(value, list):
        problems.append('"steelman" must be a list')
        return []
    grades: dict[str, SteelmanReview] = {}
    seen = set()
    for index, item in enumerate(value):
        at = f"steelman[{index}]"
        turn = item.get("turn", "").strip().strip("[]") if isinstance(item, dict) else ""
        given = item.get("fidelity") if isinstance(item, dict) else None
        fidelity = whole(given, 1, 5)
        seen.add(turn)
        if turn not in steelmen:
            problems.append(
                f'"{at}.turn" is {turn!r}, not a turn with a steelman '
                f"({', '.join(steelmen) or 'there are none'})"
            )
        elif turn in grades:
            problems.append(f'"{at}": turn {turn} is graded twice')
        elif fidelity is None:
            problems.append(f'"{at}.fidelity" is {given!r}; expected a whole number 1-5')
        else:
            reason = str(item.get("reason", "")).strip()
            grades[turn] = SteelmanReview(turn=turn, fidelity=fidelity, reason=reason)
    problems += [
        f"turn {t} opened with a steelman but has no fidelity grade"
        for t in steelmen
        if t not in seen
    ]
    return [grades[t] for t in steelmen if t in grades]


def _conceded(value: Any, view: BlindView, problems: list[str]) -> list[str]:
    if not isinstance(value, list):
        problems.append('"conceded" must be a list of claim labels')
        return []
    ids = []
    for label in value:
        claim = view.claim_of(str(label).strip().strip("[]"))
        if claim is None:
            problems.append(f'"conceded": {label!r} is not a shown claim')
        elif claim not in ids:
            ids.append(claim)
    return ids
