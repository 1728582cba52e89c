"""Statistics of judge validation: how well a judge's speech scores agree with humans.

Plain functions with no Inspect dependency, so tests call them directly. The
primary statistic is the paper's (Sternlicht et al., *Debatable Intelligence*,
arXiv 2506.05062, `src/analyse_agreement_with_mean.py`): Kendall tau-c of the
judge's 1-5 score against the unrounded mean of the 15 human ratings, computed
once over all speeches, None when either side has a single distinct value.
Everything else here says how far that one number can be trusted: its
bootstrap interval, what knowing only a speech's source would score, the
agreement within a source or topic, the judge's calibration, and the human
ceiling (how well one human agrees with the others).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, fields
from statistics import fmean

import numpy as np

from debatebench_eval.stats.bootstrap import resampled
from debatebench_eval.stats.intervals import LEVEL, percentile

# scipy.stats is imported where it is used: importing it takes half a second,
# and every `inspect` command that loads this package's tasks would pay it.
# (scipy ships no type information; scipy-stubs would give it.)


def _tau(pred: Sequence[float], gold: Sequence[float], variant: str) -> float | None:
    if len(pred) != len(gold):
        raise ValueError(f"pred has {len(pred)} values but gold has {len(gold)}")
    # The paper returns None here; scipy would give NaN with a warning.
    if len(set(pred)) < 2 or len(set(gold)) < 2:
        return None
    from scipy.stats import kendalltau  # type: ignore[import-untyped]

    return float(kendalltau(pred, gold, variant=variant).statistic)


def tau_c(pred: Sequence[float], gold: Sequence[float]) -> float | None:
    """Kendall tau-c, the paper's statistic: it suits a 5-point judge scale set
    against a near-continuous human mean, where tau-b is held below 1 by the
    judge's ties. None when either side has one distinct value."""
    return _tau(pred, gold, "c")


def tau_b(pred: Sequence[float], gold: Sequence[float]) -> float | None:
    """Kendall tau-b, reported next to tau-c because debatebench 0.1.2 did."""
    return _tau(pred, gold, "b")


def tau_c_ci(
    pred: Sequence[float],
    gold: Sequence[float],
    *,
    confidence: float = LEVEL,
    resamples: int = 1000,
    seed: int = 0,
) -> tuple[float, float]:
    """Paired bootstrap interval of tau-c: speeches are resampled with their
    judge score and human mean kept together, so it shows how much the figure
    depends on which speeches were rated.

    Percentile method: simple, stays inside [-1, 1], needs no jackknife; on
    the 631 speeches it differs from BCa only in the fourth decimal. The same
    seed gives the same interval. Raises ValueError when tau-c is undefined.
    When some resample has a single distinct value (a few, near-constant rows)
    the bounds are NaN: no interval rather than one over the lucky resamples.
    The package's one bootstrap (`stats.bootstrap`) draws the speeches as
    scipy's `bootstrap(paired=True, method="percentile")` did before it, so the
    published intervals are the same numbers.
    """
    if tau_c(pred, gold) is None:
        raise ValueError("tau-c is undefined: one side has a single distinct value")
    from scipy.stats import kendalltau

    judge, human = np.asarray(pred, dtype=float), np.asarray(gold, dtype=float)

    def statistic(rows: np.ndarray) -> float:
        return float(kendalltau(judge[rows], human[rows], variant="c").statistic)

    low, high = percentile(resampled(statistic, len(judge), resamples, seed), confidence)
    return float(low), float(high)


def annotator_taus(
    ratings: Sequence[Sequence[int]], labelers: Sequence[Sequence[int]], min_speeches: int = 30
) -> dict[int, float]:
    """Each annotator's tau-c against the mean of the speech's other raters.

    Only annotators with at least `min_speeches` ratings count (a tau-c over a
    handful of speeches is noise); one whose tau-c is undefined (a single
    rating value throughout) is left out. A speech with one rating has no other
    raters to compare with, so it counts for nobody.
    """
    own: dict[int, list[float]] = defaultdict(list)
    others: dict[int, list[float]] = defaultdict(list)
    for row, ids in zip(ratings, labelers, strict=True):
        if len(row) < 2:
            continue
        total = sum(row)
        for rating, annotator in zip(row, ids, strict=True):
            own[annotator].append(rating)
            others[annotator].append((total - rating) / (len(row) - 1))
    taus = {a: tau_c(own[a], others[a]) for a in own if len(own[a]) >= min_speeches}
    return {a: t for a, t in sorted(taus.items()) if t is not None}


def human_ceiling_by_annotator(
    ratings: Sequence[Sequence[int]], labelers: Sequence[Sequence[int]], min_speeches: int = 30
) -> float:
    """Mean leave-one-annotator-out tau-c: how well a single human agrees with
    the others, the ceiling a judge scored against the same mean can be read
    against (0.405 over 64 annotators on the paper's 631 speeches). Raises
    ValueError when no annotator has `min_speeches` ratings."""
    taus = annotator_taus(ratings, labelers, min_speeches)
    if not taus:
        raise ValueError(f"no annotator has {min_speeches} rated speeches with a defined tau-c")
    return fmean(taus.values())


def position_taus(ratings: Sequence[Sequence[int]]) -> list[float]:
    """Tau-c of each rating position (column) against the mean of the other
    positions, over all speeches; undefined positions are left out (all of
    them when a speech has one rating: there are no other positions)."""
    if not ratings or len(ratings[0]) < 2:
        return []
    matrix = np.asarray(ratings, dtype=float)
    others = (matrix.sum(axis=1, keepdims=True) - matrix) / (matrix.shape[1] - 1)
    taus = [tau_c(matrix[:, j].tolist(), others[:, j].tolist()) for j in range(matrix.shape[1])]
    return [t for t in taus if t is not None]


def human_ceiling_by_position(ratings: Sequence[Sequence[int]]) -> float:
    """Mean tau-c of one rating position against the other positions' mean
    (0.362 on the full data). Lower than the by-annotator ceiling because a
    position mixes annotators; it needs no annotator ids. Raises ValueError
    when no position has a defined tau-c."""
    taus = position_taus(ratings)
    if not taus:
        raise ValueError("no rating position has a defined tau-c")
    return fmean(taus)


def _other_topic_ranks(
    gold: Sequence[float], sources: Sequence[str], topics: Sequence[Hashable]
) -> dict[Hashable, dict[str, int]]:
    """Per topic, each source's rank (0 = lowest, ties shared) by its mean
    human score over the other topics. Only sources seen in two or more topics
    take part, so every topic ranks the same set of sources."""
    values: dict[str, dict[Hashable, list[float]]] = defaultdict(lambda: defaultdict(list))
    for value, source, topic in zip(gold, sources, topics, strict=True):
        values[source][topic].append(value)
    ranks: dict[Hashable, dict[str, int]] = {}
    for topic in set(topics):
        means = {
            source: fmean(v for t, vs in by_topic.items() if t != topic for v in vs)
            for source, by_topic in values.items()
            if len(by_topic) > 1
        }
        order = sorted(set(means.values()))
        ranks[topic] = {source: order.index(mean) for source, mean in means.items()}
    return ranks


def source_baseline(
    gold: Sequence[float], sources: Sequence[str], topics: Sequence[Hashable]
) -> float | None:
    """Tau-c of a predictor that knows only each speech's source.

    If a judge's tau-c is not well above this, it may only be recognising
    which system wrote a speech. A speech is predicted by the rank of its
    source's mean human score, the means taken over the other topics, so its
    own rating (and its topic's) never feeds its prediction; a source seen in
    one topic only has no such prediction and is left out.

    Why the rank and not the mean itself: a leave-one-out mean is lower the
    higher the speech's own rating, so two speeches of one source would always
    be ordered in reverse and count as discordant (on the 631 speeches that
    drags tau-c from 0.578 to 0.400 without changing any cross-source order).
    The rank ties them, as a source-only predictor should.
    """
    ranks = _other_topic_ranks(gold, sources, topics)
    pred: list[float] = []
    kept: list[float] = []
    for value, source, topic in zip(gold, sources, topics, strict=True):
        if source in ranks[topic]:
            pred.append(ranks[topic][source])
            kept.append(value)
    return tau_c(pred, kept)


def within_group_tau(
    pred: Sequence[float], gold: Sequence[float], groups: Sequence[Hashable]
) -> float | None:
    """Unweighted mean of tau-c inside each group (source or topic).

    Within one source, agreement cannot come from telling systems apart; within
    one topic, not from topic difficulty. Groups where tau-c is undefined (one
    distinct value on a side) are skipped; None when no group has one.
    """
    if len(groups) != len(pred) or len(pred) != len(gold):
        raise ValueError("pred, gold and groups must have the same length")
    members: dict[Hashable, list[int]] = defaultdict(list)
    for i, group in enumerate(groups):
        members[group].append(i)
    taus = [tau_c([pred[i] for i in idx], [gold[i] for i in idx]) for idx in members.values()]
    defined = [t for t in taus if t is not None]
    return fmean(defined) if defined else None


def calibration(
    pred: Sequence[float], gold: Sequence[float], sources: Sequence[str]
) -> tuple[dict[str, float], float]:
    """Judge mean minus human mean, per source (sorted) and overall.

    Tau-c measures ordering only; a judge can rank well and still score every
    speech a point low, or one kind of speech much lower than humans do.
    """
    if not pred or not (len(pred) == len(gold) == len(sources)):
        raise ValueError("calibration needs pred, gold and sources of one non-zero length")
    diffs: dict[str, list[float]] = defaultdict(list)
    for p, g, source in zip(pred, gold, sources, strict=True):
        diffs[source].append(p - g)
    by_source = {source: fmean(diffs[source]) for source in sorted(diffs)}
    return by_source, fmean(pred) - fmean(gold)


@dataclass(frozen=True)
class Row:
    """One speech as validation sees it: the judge's score (None when the
    reply could not be parsed) and the human data it is compared with."""

    id: str
    score: float | None
    human_mean: float
    source: str
    topic_id: Hashable
    ratings: Sequence[int]
    labelers: Sequence[int]


@dataclass(frozen=True)
class ValidationSummary:
    """Every figure of one judge validation. Judge statistics are over the
    scored speeches only; the ceilings describe all the speeches given."""

    n: int
    n_scored: int
    parse_rate: float
    tau_c: float | None
    tau_c_low: float | None
    tau_c_high: float | None
    tau_b: float | None
    distinct_values: int
    source_baseline_tau_c: float | None
    within_source_tau: float | None
    within_topic_tau: float | None
    judge_mean: float | None
    human_mean: float | None
    bias: float | None
    bias_by_source: Mapping[str, float]
    ceiling_by_annotator: float | None
    ceiling_annotators: int
    ceiling_by_position: float | None

    def as_metrics(self) -> dict[str, float | None]:
        """Flat numeric figures, per-source bias as `bias.SOURCE`; the headline
        figures first, as the viewer shows the first few. An undefined figure is
        None, which Inspect leaves out of its results (no `nan` row in the terminal
        table; `why_undefined` says why it is missing), except tau-c, the log's
        headline, which is always there (NaN when undefined)."""
        metrics: dict[str, float | None] = {}
        for name in _HEADLINE_FIRST + tuple(f.name for f in fields(self)):
            value = getattr(self, name)
            if name != "bias_by_source" and name not in metrics:
                metrics[name] = None if value is None else float(value)
        metrics[HEADLINE] = _or_nan(metrics[HEADLINE])
        metrics.update({f"bias.{s}": b for s, b in self.bias_by_source.items()})
        return metrics

    def headline_metrics(self) -> dict[str, float | None]:
        """What a run prints (eight lines at most): tau-c with its interval, the
        source baseline and the annotators' ceiling it is read against, the parse
        rate, the speeches scored and the bias. Every other figure is in
        `debatebench-eval report LOG` and the trust record, computed from the samples."""
        every = self.as_metrics()
        return {name: every[name] for name in HEADLINE_FIGURES}


HEADLINE = "tau_c"
# The run's printed block, in order (`ValidationSummary.headline_metrics`).
HEADLINE_FIGURES = (
    HEADLINE, "tau_c_low", "tau_c_high", "source_baseline_tau_c", "ceiling_by_annotator",
    "parse_rate", "n_scored", "bias",
)  # fmt: skip
# Every figure of a summary by name (per-source bias aside), as its metrics name them.
FIGURES = tuple(f.name for f in fields(ValidationSummary) if f.name != "bias_by_source")
_HEADLINE_FIRST = (HEADLINE, "tau_c_low", "tau_c_high", "tau_b", "source_baseline_tau_c")
# What a summary of no speech at all reports: only the headline, undefined (Inspect
# computes a run's metrics once before any sample is scored).
NO_SPEECHES: dict[str, float | None] = {HEADLINE: math.nan}


def _or_nan(value: float | None) -> float:
    return math.nan if value is None else value


# The judge's own figures: undefined together when its ratings cannot be ranked.
_JUDGE_FIGURES = (
    "tau_c", "tau_c_low", "tau_c_high", "tau_b", "within_source_tau", "within_topic_tau",
)  # fmt: skip
_MEANS = ("judge_mean", "human_mean", "bias")


def why_undefined(
    undefined: Sequence[str], rows: Sequence[Row], min_speeches: int = 30
) -> dict[str, str]:
    """Why each figure named is undefined for these speeches, in words a reader can act
    on; cheap (no statistic is recomputed), so a run's end can say it."""
    scored = [row.score for row in rows if row.score is not None]
    distinct = sorted(set(scored))
    humans = sorted({row.human_mean for row in rows if row.score is not None})
    reasons: dict[str, str] = {}
    for name in undefined:
        reasons[name] = _why(name, len(rows), scored, distinct, humans, min_speeches)
    return reasons


def _why(
    name: str,
    n: int,
    scored: list[float],
    distinct: list[float],
    humans: list[float],
    min_speeches: int,
) -> str:
    if not scored and (name in _JUDGE_FIGURES or name in _MEANS or name == "source_baseline_tau_c"):
        return f"none of the {n} speeches was rated (no reply held a score from 1 to 5)"
    if name in _JUDGE_FIGURES and len(distinct) == 1:
        return (
            f"the judge gave all {len(scored)} rated speeches the same score ({distinct[0]:g}): "
            "a constant ranks nothing"
        )
    if name in ("tau_c_low", "tau_c_high"):
        return (
            "some bootstrap resamples held one distinct score (too few, or too nearly "
            "constant, ratings): no interval rather than one over the lucky resamples"
        )
    if name in ("within_source_tau", "within_topic_tau"):
        group = "source" if name == "within_source_tau" else "topic"
        return f"no {group} has two distinct judge scores and two distinct human means"
    if name == "source_baseline_tau_c":
        return "no source of the rated speeches appears in two or more topics"
    if name == "ceiling_by_annotator":
        return f"no annotator rated {min_speeches} or more of these {n} speeches"
    if name == "ceiling_by_position":
        return "no rating position has a defined tau-c (a speech with one rating has no others)"
    if name in _JUDGE_FIGURES and len(humans) == 1:
        return (
            f"all {len(scored)} rated speeches have the same human mean ({humans[0]:g}): "
            "nothing to rank the judge against"
        )
    return "too few rated speeches"


def _ceilings(rows: Sequence[Row], min_speeches: int) -> tuple[float | None, int, float | None]:
    ratings = [row.ratings for row in rows]
    by_annotator = annotator_taus(ratings, [row.labelers for row in rows], min_speeches)
    by_position = position_taus(ratings)
    return (
        fmean(by_annotator.values()) if by_annotator else None,
        len(by_annotator),
        fmean(by_position) if by_position else None,
    )


def _interval(
    pred: Sequence[float], gold: Sequence[float], defined: bool, resamples: int, seed: int
) -> tuple[float | None, float | None]:
    if not defined:
        return None, None
    low, high = tau_c_ci(pred, gold, resamples=resamples, seed=seed)
    return (None, None) if math.isnan(low) or math.isnan(high) else (low, high)


def summarise(
    rows: Sequence[Row], *, resamples: int = 1000, seed: int = 0, min_speeches: int = 30
) -> ValidationSummary:
    """All validation figures for one judge's scores.

    Unparsed speeches (score None) lower `parse_rate` and are left out of every
    judge statistic: scoring them 0 or -1 would invent a ranking.
    """
    if not rows:
        raise ValueError("no speeches to summarise")
    # One order for every reader (the run's metric, report, trust record): the
    # bootstrap resamples by position, so the same rows must give one interval.
    rows = sorted(rows, key=lambda row: (row.id, -1.0 if row.score is None else row.score))
    scored = [row for row in rows if row.score is not None]
    pred = [row.score for row in scored if row.score is not None]
    gold = [row.human_mean for row in scored]
    sources = [row.source for row in scored]
    topics = [row.topic_id for row in scored]
    tau = tau_c(pred, gold)
    low, high = _interval(pred, gold, tau is not None, resamples, seed)
    by_source, bias = calibration(pred, gold, sources) if scored else ({}, None)
    ceiling, annotators, position = _ceilings(rows, min_speeches)
    return ValidationSummary(
        n=len(rows),
        n_scored=len(scored),
        parse_rate=len(scored) / len(rows),
        tau_c=tau,
        tau_c_low=low,
        tau_c_high=high,
        tau_b=tau_b(pred, gold),
        distinct_values=len(set(pred)),
        source_baseline_tau_c=source_baseline(gold, sources, topics),
        within_source_tau=within_group_tau(pred, gold, sources),
        within_topic_tau=within_group_tau(pred, gold, topics),
        judge_mean=fmean(pred) if pred else None,
        human_mean=fmean(gold) if gold else None,
        bias=bias,
        bias_by_source=by_source,
        ceiling_by_annotator=ceiling,
        ceiling_annotators=annotators,
        ceiling_by_position=position,
    )
