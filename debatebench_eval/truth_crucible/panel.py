"""Blind per-claim scoring: each reading's view and reply check, and the panel's medians.

A reading is one judge call over every verified claim, under its own seed (so
its own Side A/B and its own order of labels K1...). The reply must score every
shown claim exactly once (an object keyed by the labels shown, so the schema
itself requires each label once), each of the six dimensions a whole number 1-5 with a
comment; after one repair, a reply that still misses a claim makes the reading
invalid (never a partial reading). Per claim and dimension the panel's score is
the median over valid readings; a claim's weighted total is the weighted mean
of its six medians (1-5).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any

from pydantic import Field

from debatebench_eval.core.reply_model import Prose, ReplyModel, reply_schema
from debatebench_eval.judging.verdict import median_by_key
from debatebench_eval.truth_crucible.blindview import BlindView
from debatebench_eval.truth_crucible.conflicts import render_conflicts
from debatebench_eval.truth_crucible.record import CrucibleRecord
from debatebench_eval.truth_crucible.replies import MODELS_KEPT, keyed, model, parsed

# claim id -> dimension -> (score, comment)
ClaimScores = dict[str, dict[str, tuple[int, str]]]


class DimensionScore(ReplyModel):
    """One dimension of one claim: a whole number 1-5 and a comment."""

    score: Annotated[int, Field(ge=1, le=5)]
    comment: Prose


@lru_cache(maxsize=MODELS_KEPT)
def scores_model(labels: tuple[str, ...], dimensions: tuple[str, ...]) -> type[ReplyModel]:
    """A reading: every shown claim once, as an object keyed by the labels shown (so
    the schema requires each label as a property and admits no other), each with every
    dimension scored. Every rule is in the schema; none is left to the check alone."""
    claim = keyed("ClaimScores", dict.fromkeys(dimensions, DimensionScore))
    by_label = keyed("Scores", dict.fromkeys(labels, claim))
    return model(
        "CrucibleScores",
        "Every shown claim scored once on every dimension, 1-5 with a comment.",
        scores=by_label,
    )


def scores_schema(view: BlindView, dimensions: list[str]) -> dict[str, Any]:
    return reply_schema(scores_model(tuple(view.labels.values()), tuple(dimensions)))


def scores_shape(view: BlindView, dimensions: list[str]) -> str:
    first = next(iter(view.labels.values()), "K1")
    item = {d: {"score": 3, "comment": "..."} for d in dimensions}
    return json.dumps({"scores": {first: item, "...": "..."}}, indent=2)


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
    shape = scores_model(tuple(view.labels.values()), tuple(dimensions))
    value, problems = parsed(shape, reply)
    if value is None:
        return None, problems
    scores: ClaimScores = {}
    for claim, label in view.labels.items():
        given = value["scores"][label]
        scores[claim] = {
            d: (given[d]["score"], view.reveal(given[d]["comment"])) for d in dimensions
        }
    return scores, []


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
