"""How far a judge agrees with people on the debates they labelled, and people with
each other: plain functions over pairs, each figure with a 95% interval.

A `Pair` is one human label set beside the judge's verdict on the same debate
(the winner as `pro`, `con` or `tie`). Several annotators may have labelled one
debate, so pairs are not independent: every bootstrap here resamples debates
(a drawn debate brings all of its pairs), never single pairs.

- **Raw agreement**: the share of pairs where the judge and the human named the
  same winner (a tie is its own answer), with the Wilson interval
  (`stats.intervals.wilson`, the project's one).
- **Cohen's kappa**: agreement beyond what each side's own answer rates give
  (`judging.reliability.cohen_kappa`), with a percentile bootstrap over debates
  (`stats.bootstrap.cluster_interval`, 2000 resamples, seed 0).
  It is 1 when they always agree, 0 when they agree as often as chance would.
- **Kendall's tau-c** on dimension scores where the humans gave them: the judge's
  score as a share of the dimension's maximum against the human's 1-10, per
  dimension and pooled (`trust.stats`, the statistic of the speech validation).
- **Side bias against the humans**: the judge's rate of picking pro minus the
  humans' rate on the same debates (a tie half a pick); 0 when the judge favours
  pro no more than people do. **Position bias**: the same for the side that spoke
  first. And the humans' own position habit: their share of picks of the side
  shown as A (drawn per item, so 1/2 when they have none).
- **Krippendorff's alpha** (nominal) between annotators on the debates two or more
  labelled, computed by Inspect's own metric, with a bootstrap over debates.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from debatebench_eval.judging.reliability import cohen_kappa
from debatebench_eval.stats.bootstrap import cluster_interval
from debatebench_eval.stats.intervals import Estimate, share_difference, wilson
from debatebench_eval.trust.stats import tau_c, tau_c_ci

RESAMPLES = 2000
SEED = 0


@dataclass(frozen=True)
class Pair:
    """One human's label of one debate beside the judge's verdict on it."""

    debate: Hashable
    judge: str  # pro, con or tie
    human: str  # pro, con or tie
    opener: str | None = None  # the side that spoke first, when recorded
    shown_first: str | None = None  # the side shown as A to the human


def raw_agreement(pairs: Sequence[Pair]) -> Estimate | None:
    """The share of pairs naming the same winner, with its Wilson interval (None: no pair).
    Wilson treats the pairs as independent; with several annotators a debate the kappa
    interval, over debates, is the one to read."""
    return wilson(sum(p.judge == p.human for p in pairs), len(pairs))


def kappa(pairs: Sequence[Pair], *, resamples: int = RESAMPLES) -> Estimate | None:
    """Cohen's kappa of judge against humans, with a bootstrap over debates (None: no pair)."""
    if not pairs:
        return None

    def statistic(found: Sequence[Pair]) -> float:
        return cohen_kappa([(p.judge, p.human) for p in found])

    low, high = cluster_interval(pairs, _debate, statistic, resamples=resamples, seed=SEED)
    return Estimate(statistic(pairs), low, high, len(pairs), 0.0)


def _debate(pair: Pair) -> Hashable:
    return pair.debate


def _pick(winner: str, side: str) -> float:
    return 0.5 if winner == "tie" else float(winner == side)


def _excess(found: Sequence[Pair], side: Callable[[Pair], str | None]) -> float:
    rows = [(p, s) for p in found if (s := side(p)) is not None]
    if not rows:
        return math.nan
    return float(np.mean([_pick(p.judge, s) - _pick(p.human, s) for p, s in rows]))


def _biased_toward(
    pairs: Sequence[Pair], side: Callable[[Pair], str | None], resamples: int
) -> Estimate | None:
    kept = [p for p in pairs if side(p) is not None]
    if not kept:
        return None

    def statistic(found: Sequence[Pair]) -> float:
        return _excess(found, side)

    low, high = cluster_interval(kept, _debate, statistic, resamples=resamples, seed=SEED)
    value, low, high = share_difference(statistic(kept), low, high)
    return Estimate(value, low, high, len(kept), 0.0)


def side_bias(pairs: Sequence[Pair], *, resamples: int = RESAMPLES) -> Estimate | None:
    """The judge's pro-pick rate minus the humans' on the same debates."""
    return _biased_toward(pairs, lambda p: "pro", resamples)


def position_bias(pairs: Sequence[Pair], *, resamples: int = RESAMPLES) -> Estimate | None:
    """The judge's rate of picking the side that spoke first minus the humans' (None:
    no debate records its opener)."""
    return _biased_toward(pairs, lambda p: p.opener, resamples)


def shown_first_share(pairs: Sequence[Pair]) -> Estimate | None:
    """The humans' share of decisive picks of the side shown as A, against 1/2."""
    decided = [p for p in pairs if p.shown_first is not None and p.human != "tie"]
    return wilson(sum(p.human == p.shown_first for p in decided), len(decided))


# ---------------------------------------------------------------- dimension scores


def dimension_tau(judge: Sequence[float], human: Sequence[float]) -> Estimate | None:
    """Kendall's tau-c of the judge's dimension scores against the humans', with the
    speech validation's paired bootstrap (None: fewer than two distinct values a side)."""
    value = tau_c(judge, human)
    if value is None:
        return None
    low, high = tau_c_ci(judge, human)
    return Estimate(value, low, high, len(judge), 0.0)


# ---------------------------------------------------------------- between humans


def krippendorff_nominal(units: Sequence[Sequence[str]]) -> float:
    """Krippendorff's alpha (nominal) over units, each the answers of one debate's
    annotators (a unit of fewer than two is skipped), by Inspect's own metric."""
    from inspect_ai.scorer import SampleScore, Score, krippendorff_alpha

    metric = krippendorff_alpha(level="nominal")
    scores = [SampleScore(score=Score(value=list(unit))) for unit in units if len(unit) >= 2]
    value = metric(scores)  # type: ignore[arg-type]
    return float(value)  # type: ignore[arg-type]


def human_alpha(
    units: dict[Hashable, Sequence[str]], *, resamples: int = RESAMPLES
) -> Estimate | None:
    """Alpha between annotators over the debates two or more labelled, with a bootstrap
    over those debates (None: no debate has two labels)."""
    shared = [(debate, list(answers)) for debate, answers in units.items() if len(answers) >= 2]
    if not shared:
        return None

    def statistic(found: Sequence[tuple[Hashable, list[str]]]) -> float:
        return krippendorff_nominal([answers for _, answers in found])

    low, high = cluster_interval(
        shared, lambda unit: unit[0], statistic, resamples=resamples, seed=SEED
    )
    return Estimate(statistic(shared), low, high, len(shared), 0.0)
