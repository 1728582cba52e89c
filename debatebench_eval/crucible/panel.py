"""Blind per-claim scoring: each reading's view and reply check, and the panel's medians.

A reading is one judge call over every verified claim, under its own seed (so
its own Side A/B and its own order of labels K1...). The reply must score every
shown claim exactly once, each of the six dimensions a whole number 1-5 with a
comment; after one repair, a reply that still misses a claim makes the reading
invalid (never a partial reading). Per claim and dimension the panel's score is
the median over valid readings; a claim's weighted total is the weighted mean
of its six medians (1-5).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from debatebench_eval.crucible.blindview import BlindView
from debatebench_eval.crucible.conflicts import render_conflicts
from debatebench_eval.crucible.record import CrucibleRecord
from debatebench_eval.crucible.replies import INTEGER, TEXT, array, obj, whole
from debatebench_eval.judging.verdict import median_by_key

# claim id -> dimension -> (score, comment)
ClaimScores = dict[str, dict[str, tuple[int, str]]]


def scores_schema(dimensions: list[str]) -> dict[str, Any]:
    dimension = obj({"score": INTEGER, "comment": TEXT})
    return obj({"scores": array(obj({"claim": TEXT, **dict.fromkeys(dimensions, dimension)}))})


def scores_shape(dimensions: list[str]) -> str:
    item = {"claim": "K1", **{d: {"score": 3, "comment": "..."} for d in dimensions}}
    return json.dumps({"scores": [item, "..."]}, indent=2)


def render_for_scoring(record: CrucibleRecord, view: BlindView) -> str:
    """Each shown claim with its cited lines, the attacks it received and its defences."""
    blocks = []
    for claim in view.ordered(record):
        lines = [view.claim_block(claim, with_lines=True)]
        for turn in record.turns:
            for attack in turn.attacks:
                if attack.target == claim.id:
                    lines.append(
                        f"  attacked in {turn.id} from {_name(view, attack.claim)}: "
                        f"{view.text(attack.argument)}"
                    )
            for defence in turn.defends:
                if defence.claim == claim.id:
                    lines.append(f"  defended in {turn.id}: {view.text(defence.reply)}")
        blocks.append("\n".join(lines))
    shown = [c for c in record.conflicts if all(i in view.labels for i in c.claims)]
    conflicts = render_conflicts(shown, view)
    return "\n\n".join(blocks) + f"\n\nConflicts identified earlier:\n{conflicts}"


def _name(view: BlindView, claim_id: str) -> str:
    return view.labels.get(claim_id, "a claim not shown")


def check_scores(
    reply: Any, view: BlindView, dimensions: list[str]
) -> tuple[ClaimScores | None, list[str]]:
    """Scores by real claim id, every shown claim exactly once, or the problems; each
    comment with the judge's labels put back (`BlindView.reveal`)."""
    if not isinstance(reply, dict) or not isinstance(reply.get("scores"), list):
        return None, ['the reply must be an object with a "scores" list']
    scores: ClaimScores = {}
    problems: list[str] = []
    for index, item in enumerate(reply["scores"]):
        at = f"scores[{index}]"
        label = item.get("claim") if isinstance(item, dict) else None
        claim = view.claim_of(str(label).strip().strip("[]")) if isinstance(label, str) else None
        if claim is None:
            problems.append(f'"{at}.claim": {label!r} is not a shown claim')
            continue
        if claim in scores:
            problems.append(f"{view.labels[claim]} is scored twice")
            continue
        found = _dimensions(item, dimensions, f"{at} ({view.labels[claim]})", problems)
        if found is not None:
            scores[claim] = {d: (s, view.reveal(c)) for d, (s, c) in found.items()}
    mentioned = {
        view.claim_of(str(i.get("claim", "")).strip("[] "))
        for i in reply["scores"]
        if isinstance(i, dict)
    }
    problems += [
        f"{label} has no scores" for claim, label in view.labels.items() if claim not in mentioned
    ]
    return (None, problems) if problems else (scores, [])


def _dimensions(
    item: dict[str, Any], dimensions: list[str], at: str, problems: list[str]
) -> dict[str, tuple[int, str]] | None:
    found = {}
    for name in dimensions:
        value = item.get(name)
        given = value.get("score") if isinstance(value, dict) else None
        score = whole(given, 1, 5)
        comment = value.get("comment") if isinstance(value, dict) else None
        if score is None:
            problems.append(f'"{at}.{name}.score" is {given!r}; expected a whole number 1-5')
        elif not isinstance(comment, str) or not comment.strip() or comment.strip() == "...":
            problems.append(f'"{at}.{name}.comment" is missing or a placeholder')
        else:
            found[name] = (score, comment.strip())
    return found if len(found) == len(dimensions) else None


def weighted_total(scores: Mapping[str, float], weights: Mapping[str, float]) -> float:
    """The weighted mean of a claim's dimension scores (weights sum to 1), on the 1-5 scale."""
    return round(sum(weights[name] * scores[name] for name in weights), 4)


def numbers(scores: ClaimScores) -> dict[str, dict[str, float]]:
    return {claim: {d: float(s) for d, (s, _) in dims.items()} for claim, dims in scores.items()}


def medians(readings: list[ClaimScores]) -> dict[str, dict[str, float]]:
    """Per claim and dimension, the median over the valid readings."""
    rows = [numbers(reading) for reading in readings]
    return {claim: median_by_key([row[claim] for row in rows]) for claim in rows[0]}


def side_mean(totals: Mapping[str, float], sides: Mapping[str, str], side: str) -> float | None:
    """The mean weighted total of one side's scored claims (None when it has none)."""
    own = [total for claim, total in totals.items() if sides[claim] == side]
    return round(sum(own) / len(own), 4) if own else None
