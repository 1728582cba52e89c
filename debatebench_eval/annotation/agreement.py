"""Every judge-human figure of a folder's labelled debates, ready to print or store.

The labels are matched to the folder's items first (`annotation.labels`); only
matched labels count, and the others (the debate changed, the item is not in the
folder) are listed by file and line. A rubric debate the judge gave no verdict
counts for nothing and is listed too. The statistics are `agreement_stats`'.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from debatebench_eval.annotation.agreement_stats import (
    RESAMPLES,
    Pair,
    dimension_tau,
    human_alpha,
    kappa,
    position_bias,
    raw_agreement,
    shown_first_share,
    side_bias,
)
from debatebench_eval.annotation.items import Item
from debatebench_eval.annotation.judge_readings import JudgeReading
from debatebench_eval.annotation.labels import Label, Matched
from debatebench_eval.stats.bootstrap import cluster_interval
from debatebench_eval.stats.intervals import Estimate, share_difference, wilson

HUMAN_SCALE = 10  # the page's 1-10 per dimension


def other(side: str) -> str:
    return "con" if side == "pro" else "pro"


def human_winner(label: Label) -> str:
    """The label's winner as a side (the page showed the sides as A and B)."""
    if label.winner == "tie":
        return "tie"
    side_a = label.debate.a_side
    return side_a if label.winner == "A" else other(side_a)


def agreement_figures(
    matched: Matched, readings: dict[str, JudgeReading], *, resamples: int = RESAMPLES
) -> dict[str, Any]:
    """The figures, counts and notes of one folder's labels (JSON-ready: None for an
    undefined figure)."""
    rubric = [(label, item) for label, item in matched.matched if item.kind == "rubric"]
    judged = [(lb, it) for lb, it in rubric if it.verdict is not None and it.verdict.winner]
    unjudged = sorted({it.item for lb, it in rubric if (lb, it) not in judged})
    pairs = [_pair(label, item, readings.get(item.item)) for label, item in judged]
    known = [(lb, it) for lb, it in matched.matched if it.kind == "known_answer"]
    annotators = {label.annotator for label, _ in matched.matched}
    return {
        "counts": {
            "labels": len(matched.matched) + len(matched.changed) + len(matched.unknown),
            "matched": len(matched.matched),
            "changed": len(matched.changed),
            "unknown": len(matched.unknown),
            "annotators": len(annotators),
            "debates": len({item.item for _, item in matched.matched}),
            "rubric_pairs": len(pairs),
            "known_answer_labels": len(known),
        },
        "not_used": matched.notes(),
        "no_judge_verdict": unjudged,
        "winner": _winner_figures(pairs, resamples) if pairs else None,
        "dimensions": _dimension_figures(judged, readings),
        "humans": _human_figures(rubric, known, resamples),
        "known_answer": _known_answer_figures(known, resamples) if known else None,
        "judges": sorted({j for _, it in judged for j in _judges(readings.get(it.item))}),
    }


def _judges(reading: JudgeReading | None) -> tuple[str, ...]:
    return reading.judges if reading else ()


def _pair(label: Label, item: Item, reading: JudgeReading | None) -> Pair:
    assert item.verdict is not None and item.verdict.winner is not None
    return Pair(
        debate=item.item,
        judge=item.verdict.winner,
        human=human_winner(label),
        opener=reading.opener if reading else None,
        shown_first=label.debate.a_side,
    )


def figure(estimate: Estimate | None) -> dict[str, Any] | None:
    """An estimate as JSON: NaN bounds (no interval) become None."""
    if estimate is None:
        return None
    found = estimate.as_dict()
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in found.items()}


def _winner_figures(pairs: Sequence[Pair], resamples: int) -> dict[str, Any]:
    return {
        "agreement": figure(raw_agreement(pairs)),
        "kappa": figure(kappa(pairs, resamples=resamples)),
        "side_bias": figure(side_bias(pairs, resamples=resamples)),
        "position_bias": figure(position_bias(pairs, resamples=resamples)),
        "humans_pick_shown_first": figure(shown_first_share(pairs)),
    }


def _dimension_figures(
    judged: Sequence[tuple[Label, Item]], readings: dict[str, JudgeReading]
) -> dict[str, Any] | None:
    """Tau-c per dimension and pooled (every dimension's judge share against the human's
    1-10 share), over each labelled side of each debate the humans scored."""
    per: dict[str, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
    for label, item in judged:
        reading = readings.get(item.item)
        if not label.scores or reading is None or not reading.shares:
            continue
        shown = {"A": label.debate.a_side, "B": other(label.debate.a_side)}
        for letter, side in shown.items():
            for name, human in label.scores[letter].items():
                share = reading.shares.get(side, {}).get(name)
                if share is not None:
                    per[name][0].append(share)
                    per[name][1].append(human)
                    per["pooled"][0].append(share)
                    per["pooled"][1].append(human / HUMAN_SCALE)
    if not per:
        return None
    return {name: figure(dimension_tau(j, h)) for name, (j, h) in per.items()}


def _human_figures(
    rubric: Sequence[tuple[Label, Item]], known: Sequence[tuple[Label, Item]], resamples: int
) -> dict[str, Any] | None:
    """Krippendorff's alpha between annotators, on the winner and on the answer."""
    winners: dict[Hashable, list[str]] = defaultdict(list)
    for label, item in rubric:
        winners[item.item].append(human_winner(label))
    answers: dict[Hashable, list[str]] = defaultdict(list)
    for label, item in known:
        answers[item.item].append(str(label.answer))
    found = {
        "winner_alpha": figure(human_alpha(dict(winners), resamples=resamples)),
        "answer_alpha": figure(human_alpha(dict(answers), resamples=resamples)),
    }
    return found if any(found.values()) else None


def correct_answer(item: Item) -> str | None:
    """The right answer's label, from the judge's pick and whether it was right."""
    verdict = item.verdict
    if verdict is None or verdict.pick is None or verdict.pick_right is None:
        return None
    return verdict.pick if verdict.pick_right else ("B" if verdict.pick == "A" else "A")


def _judge_right(item: Item) -> float:
    return float(bool(item.verdict and item.verdict.pick_right))


def _known_answer_figures(known: Sequence[tuple[Label, Item]], resamples: int) -> dict[str, Any]:
    """The humans' accuracy, the judge's on the same debates, and the difference."""
    rows = [(lb, it, right) for lb, it in known if (right := correct_answer(it)) is not None]
    humans = wilson(sum(lb.answer == right for lb, _, right in rows), len(rows))
    debates = {it.item: it for _, it, _ in rows}
    judge = wilson(sum(_judge_right(it) for it in debates.values()), len(debates))
    diffs = [(it.item, float(lb.answer == right) - _judge_right(it)) for lb, it, right in rows]

    def mean(found: Sequence[tuple[str, float]]) -> float:
        return float(np.mean([d for _, d in found])) if found else math.nan

    low, high = cluster_interval(diffs, lambda row: row[0], mean, resamples=resamples)
    value, low, high = share_difference(mean(diffs), low, high)
    difference = Estimate(value, low, high, len(diffs), 0.0) if diffs else None
    return {
        "humans_accuracy": figure(humans),
        "judge_accuracy": figure(judge),
        "humans_minus_judge": figure(difference),
        "unknown_truth": len(known) - len(rows),
    }
