"""Statistics of the fact-check validation: how often a judge's verdicts are the planted ones.

Plain functions over claim outcomes (claim_matching). Over the planted claims
of the debates whose fact-check could be read: per-verdict precision, recall
and F1, their macro mean with a bootstrap interval, the confusion matrix
(a missed claim is its own column), claim recall, citation accuracy, and the
baselines a judge must beat. A debate whose reply could not be used lowers
the parse rate and is left out of every other figure, never counted as wrong.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from debatebench_eval.judging.ledger import VERDICTS
from debatebench_eval.stats.bootstrap import resampled
from debatebench_eval.stats.intervals import percentile
from debatebench_eval.validation.claim_matching import ClaimOutcome

MISSED = "missed"
COLUMNS = (*VERDICTS, MISSED)
RESAMPLES = 1000
# Draws of the uniform random judge whose mean macro-F1 is the random baseline.
RANDOM_DRAWS = 2000


@dataclass(frozen=True)
class DebateOutcome:
    """One debate of the set: whether the judge's reply could be used, and its claims."""

    debate: str
    parsed: bool
    claims: Sequence[ClaimOutcome] = ()
    extras: int = 0


@dataclass(frozen=True)
class VerdictFigures:
    precision: float
    recall: float
    f1: float
    gold: int
    predicted: int


@dataclass(frozen=True)
class FactCheckSummary:
    debates: int
    parsed: int
    parse_rate: float
    planted: int
    found: int
    claim_recall: float | None
    macro_f1: float | None
    macro_f1_low: float | None
    macro_f1_high: float | None
    per_verdict: dict[str, VerdictFigures]
    confusion: dict[str, dict[str, int]]
    citation_accuracy: float | None
    citations_judged: int
    extras: int
    baselines: dict[str, float] = field(default_factory=dict)

    def as_metrics(self) -> dict[str, float | None]:
        """Flat numbers for Inspect's metric. An undefined figure is None, which
        Inspect leaves out of its results (no `nan` row in the terminal table; the
        per-debate values stay in the log), except macro-F1, the headline, which is
        always there (NaN when undefined)."""
        out: dict[str, float | None] = {
            "macro_f1": _nan(self.macro_f1),
            "macro_f1_low": self.macro_f1_low,
            "macro_f1_high": self.macro_f1_high,
            "claim_recall": self.claim_recall,
            "citation_accuracy": self.citation_accuracy,
            "parse_rate": self.parse_rate,
            "debates": float(self.debates),
            "planted": float(self.planted),
            "found": float(self.found),
            "extras": float(self.extras),
        }
        for verdict, figures in self.per_verdict.items():
            out[f"precision.{verdict}"] = figures.precision
            out[f"recall.{verdict}"] = figures.recall
            out[f"f1.{verdict}"] = figures.f1
        out.update({f"baseline.{name}": value for name, value in self.baselines.items()})
        for gold, row in self.confusion.items():
            out.update({f"confusion.{gold}>{pred}": float(n) for pred, n in row.items()})
        return out


def _nan(value: float | None) -> float:
    return math.nan if value is None else float(value)


def confusion_counts(claims: Sequence[ClaimOutcome]) -> np.ndarray:
    """Gold verdicts (rows, VERDICTS order) by judged verdict or missed (COLUMNS order)."""
    counts = np.zeros((len(VERDICTS), len(COLUMNS)), dtype=int)
    for claim in claims:
        column = claim.predicted if claim.predicted in VERDICTS else MISSED
        counts[VERDICTS.index(claim.gold), COLUMNS.index(column)] += 1
    return counts


def verdict_figures(counts: np.ndarray) -> dict[str, VerdictFigures]:
    """Per verdict: precision over the claims judged that verdict, recall over the claims
    planted with it (a missed claim counts against recall). An F1 with no prediction or
    no gold claim of its verdict is 0, as scikit-learn's zero_division=0 gives."""
    out = {}
    for i, verdict in enumerate(VERDICTS):
        hit, gold, predicted = int(counts[i, i]), int(counts[i].sum()), int(counts[:, i].sum())
        precision = hit / predicted if predicted else 0.0
        recall = hit / gold if gold else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        out[verdict] = VerdictFigures(precision, recall, f1, gold, predicted)
    return out


def macro_f1(counts: np.ndarray) -> float:
    return float(np.mean([f.f1 for f in verdict_figures(counts).values()]))


def macro_f1_interval(
    per_debate: Sequence[np.ndarray], resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float | None, float | None]:
    """Percentile bootstrap 95% interval, resampling whole debates: the claims of
    one debate share its judge reply, so they are not independent draws."""
    if len(per_debate) < 2:
        return None, None
    stack = np.stack(per_debate)

    def statistic(rows: np.ndarray) -> float:
        return macro_f1(stack[rows].sum(axis=0))

    low, high = percentile(resampled(statistic, len(stack), resamples, seed))
    return float(low), float(high)


def baselines(gold: Sequence[str], seed: int = 0) -> dict[str, float]:
    """Macro-F1 of judges that find every claim but know nothing of the record:
    one that calls every claim not_checkable, one that always answers the most common
    planted verdict, and one that picks a verdict uniformly at random (mean over draws)."""
    if not gold:
        return {}
    counts = {v: sum(g == v for g in gold) for v in VERDICTS}
    majority = max(VERDICTS, key=lambda v: (counts[v], -VERDICTS.index(v)))
    rng = np.random.default_rng(seed)
    codes = np.array([VERDICTS.index(g) for g in gold])
    draws = rng.integers(0, len(VERDICTS), size=(RANDOM_DRAWS, len(gold)))
    return {
        "all_not_checkable": _constant(codes, VERDICTS.index("not_checkable")),
        "majority": _constant(codes, VERDICTS.index(majority)),
        "random": float(np.mean([_macro(codes, draw) for draw in draws])),
    }


def _constant(gold: np.ndarray, code: int) -> float:
    return _macro(gold, np.full(len(gold), code))


def _macro(gold: np.ndarray, predicted: np.ndarray) -> float:
    counts = np.zeros((len(VERDICTS), len(COLUMNS)), dtype=int)
    np.add.at(counts, (gold, predicted), 1)
    return macro_f1(counts)


def summarise_claims(
    debates: Sequence[DebateOutcome], *, resamples: int = RESAMPLES, seed: int = 0
) -> FactCheckSummary:
    """Every figure of one fact-check validation run."""
    if not debates:
        raise ValueError("no debates to summarise")
    debates = sorted(debates, key=lambda d: d.debate)  # one order, one interval
    parsed = [d for d in debates if d.parsed]
    claims = [c for d in parsed for c in d.claims]
    per_debate = [confusion_counts(d.claims) for d in parsed]
    counts = sum(per_debate, np.zeros((len(VERDICTS), len(COLUMNS)), dtype=int))
    found = sum(c.predicted is not None for c in claims)
    decided = [c for c in claims if c.cited is not None]
    low, high = macro_f1_interval(per_debate, resamples, seed)
    return FactCheckSummary(
        debates=len(debates),
        parsed=len(parsed),
        parse_rate=len(parsed) / len(debates),
        planted=len(claims),
        found=found,
        claim_recall=found / len(claims) if claims else None,
        macro_f1=macro_f1(counts) if claims else None,
        macro_f1_low=low,
        macro_f1_high=high,
        per_verdict=verdict_figures(counts),
        confusion={
            gold: {col: int(counts[i, j]) for j, col in enumerate(COLUMNS)}
            for i, gold in enumerate(VERDICTS)
        },
        citation_accuracy=sum(bool(c.cited) for c in decided) / len(decided) if decided else None,
        citations_judged=len(decided),
        extras=sum(d.extras for d in parsed),
        baselines=baselines([c.gold for c in claims], seed),
    )
