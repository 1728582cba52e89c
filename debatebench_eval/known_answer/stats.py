"""The judge's accuracy and calibration, with intervals clustered by question.

Plain functions over `Outcome`s (one per judged sample), shared by the
scorer's metrics and the comparison of protocols. A question judged several
times (epochs) is one cluster: each question weighs the same (its samples'
mean), and the interval is a percentile bootstrap over questions
(`stats.bootstrap.resampled_means`: 2000 resamples, seed 0). With one
sample per question that is the binomial case, and the Wilson score interval
(`stats.intervals.wilson`) is given instead. A paired difference between
two protocols is taken over the questions both judged: the mean of the
per-question differences, with the bootstrap over those questions. An accuracy's
interval lies in [0, 1] and a difference's in [-1, 1], each holding its value
(`stats.intervals.share`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from debatebench_eval.stats.bootstrap import resampled_means
from debatebench_eval.stats.intervals import percentile, share, share_difference, wilson

RESAMPLES = 2000
SEED = 0
# The reliability table's bins of stated confidence (percent): [50, 60), ..., [90, 100].
BINS = (50, 60, 70, 80, 90)


@dataclass(frozen=True)
class Outcome:
    """One judged sample: its question, whether the pick was right, and the
    probability the judge gave the right answer and its own pick."""

    question: str
    correct: bool
    p_correct: float
    confidence: float


@dataclass(frozen=True)
class JudgedDebate:
    """One judged debate as the persuasiveness rating reads it: the question, each
    debater's model, whether the judge sided with `pro`, and whether it was right."""

    question: str
    pro: str
    con: str
    pro_won: bool
    correct: bool


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float
    n: int  # samples
    questions: int
    method: str  # "wilson" or "cluster-bootstrap"


def by_question(pairs: Iterable[tuple[str, float]]) -> dict[str, list[float]]:
    found: dict[str, list[float]] = defaultdict(list)
    for question, value in pairs:
        found[question].append(value)
    return dict(found)


def accuracy(outcomes: Sequence[Outcome]) -> Interval | None:
    """The share of right picks, each question weighing the same, with its interval."""
    return accuracy_of([(o.question, o.correct) for o in outcomes])


def accuracy_of(picks: Sequence[tuple[str, bool]]) -> Interval | None:
    """`accuracy` of (question, right) pairs: Wilson when each question was judged
    once, else the bootstrap over questions, each question weighing the same."""
    if not picks:
        return None
    clusters = by_question((question, float(right)) for question, right in picks)
    if all(len(v) == 1 for v in clusters.values()):
        found = wilson(sum(right for _, right in picks), len(picks))
        assert found is not None
        return Interval(found.value, found.low, found.high, len(picks), len(clusters), "wilson")
    # By question id, so the interval does not depend on the order the logs were read in.
    means = np.array([np.mean(clusters[q]) for q in sorted(clusters)])
    value, low, high = share(float(means.mean()), *_bootstrap(means))
    return Interval(value, low, high, len(picks), len(clusters), "cluster-bootstrap")


def paired_difference(
    first: dict[str, list[float]], second: dict[str, list[float]]
) -> Interval | None:
    """Mean over shared questions of (first's accuracy - second's), with a bootstrap
    interval over those questions."""
    shared = sorted(set(first) & set(second))
    if not shared:
        return None
    diffs = np.array([np.mean(first[q]) - np.mean(second[q]) for q in shared])
    value, low, high = share_difference(float(diffs.mean()), *_bootstrap(diffs))
    n = sum(len(first[q]) + len(second[q]) for q in shared)
    return Interval(value, low, high, n, len(shared), "paired-bootstrap")


def _bootstrap(values: np.ndarray) -> tuple[float, float]:
    if len(values) == 1:
        return float(values[0]), float(values[0])
    low, high = percentile(resampled_means(values, RESAMPLES, SEED))
    return float(low), float(high)


def brier(outcomes: Sequence[Outcome]) -> float | None:
    """Mean squared error of the probability given the right answer (0 is perfect;
    always saying 50% scores 0.25)."""
    if not outcomes:
        return None
    return float(np.mean([(1.0 - o.p_correct) ** 2 for o in outcomes]))


def reliability_table(outcomes: Sequence[Outcome]) -> list[dict[str, float | int]]:
    """Per bin of stated confidence: how many picks, their mean confidence and how
    many were right (a calibrated judge's accuracy matches its confidence)."""
    table: list[dict[str, float | int]] = []
    for low in BINS:
        high = low + 10
        inside = [
            o
            for o in outcomes
            if low <= o.confidence * 100 < high or (high == 100 and o.confidence * 100 == 100)
        ]
        table.append(
            {
                "low": low,
                "n": len(inside),
                "confidence": float(np.mean([o.confidence for o in inside]))
                if inside
                else float("nan"),
                "accuracy": float(np.mean([o.correct for o in inside])) if inside else float("nan"),
            }
        )
    return table
