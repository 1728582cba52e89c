"""Conflicts: the judge names which verified claims contradict which, and what would settle it.

The judge reads the claims blind (labels K1..., Side A/B). Every conflict must
name at least two shown claims, at least one from each side; an empty list is
an answer only with a stated reason (an empty list alone is indistinguishable
from a judge that did not look). Ids X1... are assigned here.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from pydantic import ValidationInfo

from debatebench_eval.core.reply_model import Prose, ReplyModel, reply_schema
from debatebench_eval.truth_crucible.blindview import BlindView
from debatebench_eval.truth_crucible.record import Conflict, CrucibleRecord
from debatebench_eval.truth_crucible.replies import (
    MODELS_KEPT,
    items,
    list_of,
    model,
    one_of,
    parsed,
    wordy,
)

NATURES = ("empirical", "causal", "value", "definitional", "scope")


_CONFLICTS_DOC = (
    "The judge's conflicts. In the schema: each conflict's claims as the enum of the "
    "labels shown (at least two), its nature as the enum of NATURES, text bounds. Not in "
    "the schema (no grammar carries them): that a conflict names claims of both sides "
    '(checked on its "claims"), and that an empty list comes with a reason (checked on '
    '"none_reason", which is free text when there are conflicts).'
)


@lru_cache(maxsize=MODELS_KEPT)
def conflicts_model(sides: tuple[tuple[str, str], ...]) -> type[ReplyModel]:
    """The conflicts reply for the labels shown; `sides` pairs each label with its side."""
    side_of = dict(sides)

    def both_sides(value: list[str], info: ValidationInfo) -> list[str]:
        if len({side_of[label] for label in value}) < 2:
            named = ", ".join(dict.fromkeys(value))
            raise ValueError(f"expected claims of both sides, but {named} are one side's")
        return value

    conflict = model(
        "Conflict",
        "A set of claims that cannot all be right, with what would settle it.",
        {"claims": both_sides},
        claims=items(one_of(side_of), 2),
        question=Prose,
        nature=one_of(NATURES, normal=lambda v: v.strip().lower()),
        crux=Prose,
    )
    return model(
        "CrucibleConflicts",
        _CONFLICTS_DOC,
        {"none_reason": _reason_if_none},
        conflicts=list_of(conflict),
        none_reason=str,
    )


def _reason_if_none(value: str, info: ValidationInfo) -> str:
    if info.data.get("conflicts") == [] and not wordy(value):
        raise ValueError('"conflicts" is empty: say why here, or list the conflicts')
    return value.strip()


def label_sides(view: BlindView, sides: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """Each label the judge sees with its claim's side (`sides`: claim id -> side)."""
    return tuple((label, sides[claim]) for claim, label in view.labels.items())


def conflicts_schema(view: BlindView, sides: dict[str, str]) -> dict[str, Any]:
    return reply_schema(conflicts_model(label_sides(view, sides)))


def conflicts_shape() -> str:
    item = {"claims": ["K1", "K4"], "question": "...", "nature": "empirical", "crux": "..."}
    return json.dumps({"conflicts": [item, "..."], "none_reason": ""}, indent=2)


def render_for_conflicts(record: CrucibleRecord, view: BlindView) -> str:
    return "\n\n".join(view.claim_block(c, with_lines=False) for c in view.ordered(record))


def check_conflicts(
    reply: Any, view: BlindView, sides: dict[str, str]
) -> tuple[tuple[list[Conflict], str | None] | None, list[str]]:
    """The conflicts with real claim ids (and the none reason), or the problems. The
    judge's words are kept with its labels put back (`BlindView.reveal`).

    `sides` maps each claim id to its side.
    """
    value, problems = parsed(conflicts_model(label_sides(view, sides)), reply)
    if value is None:
        return None, problems
    if not value["conflicts"]:
        return ([], view.reveal(value["none_reason"])), []
    conflicts = [_conflict(item, view, n) for n, item in enumerate(value["conflicts"], 1)]
    return (conflicts, None), []


def _conflict(item: dict[str, Any], view: BlindView, number: int) -> Conflict:
    ids = [view.claim_of(label) for label in dict.fromkeys(item["claims"])]
    return Conflict(
        id=f"X{number}",
        claims=[i for i in ids if i is not None],
        question=view.reveal(item["question"]),
        nature=item["nature"],
        crux=view.reveal(item["crux"]),
    )


def render_conflicts(conflicts: list[Conflict], view: BlindView | None = None) -> str:
    """The conflicts, naming claims by id (or, for a judge, as `view` shows them)."""
    if not conflicts:
        return "(none identified)"
    rows = []
    for c in conflicts:
        if view is None:
            claims, question, crux = ", ".join(c.claims), c.question, c.crux
        else:
            claims = ", ".join(view.labels.get(i, i) for i in c.claims)
            question, crux = view.text(c.question), view.text(c.crux)
        rows.append(f"{c.id} ({c.nature}) {claims}: {question} Crux: {crux}")
    return "\n".join(rows)
