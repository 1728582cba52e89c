"""Conflicts: the judge names which verified claims contradict which, and what would settle it.

The judge reads the claims blind (labels K1..., Side A/B). Every conflict must
name at least two shown claims, at least one from each side; an empty list is
an answer only with a stated reason (an empty list alone is indistinguishable
from a judge that did not look). Ids X1... are assigned here.
"""

from __future__ import annotations

import json
from typing import Any

from debatebench_eval.crucible.blindview import BlindView
from debatebench_eval.crucible.record import Conflict, CrucibleRecord
from debatebench_eval.crucible.replies import TEXT, array, obj

NATURES = ("empirical", "causal", "value", "definitional", "scope")


def conflicts_schema() -> dict[str, Any]:
    nature = {"type": "string", "enum": list(NATURES)}
    conflict = obj({"claims": array(TEXT), "question": TEXT, "nature": nature, "crux": TEXT})
    return obj({"conflicts": array(conflict), "none_reason": TEXT})


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
    if not isinstance(reply, dict) or not isinstance(reply.get("conflicts"), list):
        return None, ['the reply must be an object with a "conflicts" list']
    reason = reply.get("none_reason")
    items = reply["conflicts"]
    if not items:
        if not isinstance(reason, str) or not reason.strip():
            return None, ['"conflicts" is empty: say why in "none_reason", or list the conflicts']
        return ([], view.reveal(reason.strip())), []
    conflicts, problems = [], []
    for index, item in enumerate(items):
        conflict, found = _check_one(item, f"conflicts[{index}]", view, sides, index + 1)
        problems += found
        if conflict is not None:
            conflicts.append(conflict)
    return (None, problems) if problems else ((conflicts, None), [])


def _check_one(
    item: Any, at: str, view: BlindView, sides: dict[str, str], number: int
) -> tuple[Conflict | None, list[str]]:
    if not isinstance(item, dict):
        return None, [f'"{at}" is not an object']
    problems = []
    labels = item.get("claims")
    ids: list[str] = []
    if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
        problems.append(f'"{at}.claims" must be a list of claim labels')
    else:
        for label in labels:
            claim = view.claim_of(label.strip().strip("[]"))
            if claim is None:
                problems.append(f'"{at}.claims": {label!r} is not a shown claim')
            elif claim not in ids:
                ids.append(claim)
        if len({sides[c] for c in ids}) < 2 and not problems:
            problems.append(f'"{at}.claims" must name claims of both sides')
    for key in ("question", "crux"):
        if not isinstance(item.get(key), str) or not item[key].strip():
            problems.append(f'"{at}.{key}" is missing or empty')
    if item.get("nature") not in NATURES:
        problems.append(f'"{at}.nature" is {item.get("nature")!r}; expected one of {NATURES}')
    if problems:
        return None, problems
    return Conflict(
        id=f"X{number}",
        claims=ids,
        question=view.reveal(item["question"].strip()),
        nature=item["nature"],
        crux=view.reveal(item["crux"].strip()),
    ), []


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
