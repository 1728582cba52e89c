"""Cross-sample metrics of the judging scorers that need more than a per-key mean.

Per-key means and standard errors of the keys a score's value keeps (the
ones the sample list shows) are `value_stats`, Inspect's mean and stderr over
the samples where the key is a number; the metrics here read the score
metadata for the rest: every other figure's mean and standard error
(`figure_stats`, see `judging.figures`), each model's win rate with its sides
pooled, and the panel's inter-judge agreement. With
several epochs Inspect reduces scores first and keeps the first epoch's
metadata, so these then describe the first epoch.

A figure these metrics cannot compute for a run (agreement with one judge,
win rates with no scored debate) is reported as `None`, which Inspect leaves
out of its results, so the terminal table shows no `nan` row for it; the
per-sample values it would be computed from stay in the log.

Metric names carry no square brackets: Inspect's terminal table renders them
as rich markup, where `win_rate[ollama/m5]` prints as `win_rate`. A figure of
one thing among several is `FIGURE.THING` (`win_rate.ollama/m5`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    krippendorff_alpha,
    mean,
    metric,
    stderr,
)

from debatebench_eval.judging.figures import FIGURES_KEY, figures_of
from debatebench_eval.judging.reliability import (
    PANEL,
    Judged,
    effective_judges,
    judges_of,
    length_bias,
    position_bias,
    self_preference,
    side_bias,
)
from debatebench_eval.judging.repeats import combine_repeats, judge_groups, outcome
from debatebench_eval.judging.score_schema import PRO_OPENED, WORDS
from debatebench_eval.judging.verdict import mean_scores
from debatebench_eval.judging.verdict import totals as verdict_totals
from debatebench_eval.record.protocol import SIDES
from debatebench_eval.stats.intervals import Estimate, wilson

# Shown when one model argued every side: no model beat another, and what the
# run measures is the side advantage.
PRO_SIDE_WIN_RATE = "pro_side_win_rate"
# The prefix of a value key's or figure's standard error: `stderr.pro_total`.
STDERR = "stderr."


@metric
def value_stats(keys: Sequence[str] = (), with_stderr: bool = True) -> Metric:
    """Mean (as `KEY`) and standard error (as `stderr.KEY`) of each key of a score's
    value (`keys`, in their order; none given: every key found, in the order first
    found), over the samples where it is a number; every mean, then every stderr.

    One metric, not Inspect's per-key form (`{KEY: [mean(), stderr()]}`): over zero
    scored samples Inspect fills that form with `nan`, a row per key, while a key
    here with no number in any sample is left out (None). With no key to report at
    all it says `scored_samples: 0`, so the scorer's row still says what happened.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        rows = [(s, s.score.value) for s in scores if isinstance(s.score.value, dict)]
        names = list(keys) or list(dict.fromkeys(k for _, value in rows for k in value))
        if not rows or not names:
            return {"scored_samples": 0.0}
        return _stats(rows, names, with_stderr)

    return compute


@metric
def figure_stats(with_stderr: bool = True) -> Metric:
    """Mean (as `KEY`) and standard error (as `stderr.KEY`) of every figure a score
    keeps in its metadata, over the samples where it is a number (NaN: not
    applicable); every mean, then every stderr. A figure that is a number in no
    sample is left out (None), so the terminal table shows no `nan` row; its NaN
    stays in each sample.

    With no scored sample at all it reports `scored_samples: 0`, so a scorer that
    failed on every sample says so in the results rather than showing nothing.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        rows = [(s, figures) for s in scores if (figures := _figures(s.score)) is not None]
        if not rows:
            return {"scored_samples": 0.0}
        names = list(dict.fromkeys(name for _, figures in rows for name in figures))
        return _stats(rows, names, with_stderr)

    return compute


def _stats(
    rows: Sequence[tuple[SampleScore, Mapping[str, Any]]], names: list[str], with_stderr: bool
) -> dict[str, float | None]:
    """Inspect's mean of each name over the rows where it is a number, then its stderr
    as `stderr.NAME`; None where it is a number in none of them, and a stderr None
    (left out) where fewer than two rows give a number: one sample has no spread, and
    its `0.000` row told a reader nothing.

    The means come first and the stderr's name leads with `stderr.` because the
    viewer's header shows a scorer's first few metrics, each cut to about nine
    characters: `pro_total_stderr` would read there as a second `pro_total`."""
    average, spread = mean(), stderr()
    found = {
        name: [
            SampleScore(score=Score(value=float(v)), sample_id=s.sample_id)
            for s, row in rows
            if isinstance(v := row.get(name), int | float) and not math.isnan(v)
        ]
        for name in names
    }
    out: dict[str, float | None] = {
        name: float(average(each)) if each else None  # type: ignore[arg-type]
        for name, each in found.items()
    }
    if with_stderr:
        for name, each in found.items():
            two = len(each) >= 2
            out[f"{STDERR}{name}"] = float(spread(each)) if two else None  # type: ignore[arg-type]
    return out


@metric
def headline_shares(keys: Sequence[str]) -> Metric:
    """The mean of each key (a 0/1 or 0-100 figure per debate: a verdict tier, a swap
    flip) over the samples where it is a number, read from the score's value or its
    figures, with no standard error: a share a reader compares across runs, each on one
    line of the terminal. A key no sample has a number for is left out (None)."""

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        rows = [
            (s, {**(_figures(s.score) or {}), **s.score.value})
            for s in scores
            if isinstance(s.score.value, dict)
        ]
        return _stats(rows, list(keys), with_stderr=False)

    return compute


@metric
def claims_supported() -> Metric:
    """The share of all claims, both sides pooled over every debate, that the fact-check
    found supported by the record (`supported`); None when no claim was made."""

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        rows = [{**(_figures(s.score) or {}), **s.score.value} for s in scores
                if isinstance(s.score.value, dict)]  # fmt: skip
        claims = sum(_number(row.get(f"{side}_claims")) for row in rows for side in SIDES)
        found = sum(_number(row.get(f"{side}_supported")) for row in rows for side in SIDES)
        return {"supported": found / claims if claims else None}

    return compute


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not math.isnan(value) else 0.0


def _figures(score: Score) -> Mapping[str, Any] | None:
    """A scored sample's figures (None when unscored)."""
    figures = (score.metadata or {}).get(FIGURES_KEY)
    return figures if isinstance(figures, dict) else None


@metric
def model_win_rate() -> Metric:
    """Each debater model's share of the debates it argued, both sides pooled, as
    `win_rate.MODEL`; the first is the run's headline (what the log listing shows).
    With two models or more, each rate over two debates or more has its 95% Wilson
    interval, as `win_rate_low.MODEL` / `win_rate_high.MODEL` (a tie is half a win).

    With paired debates a model argues pro in one sample and con in its twin,
    so its rate is over both, and only over complete pairs (both halves
    scored): a lone half would count one side only. `incomplete_pairs` says
    how many pairs were left out. The `pro` role's model comes first: in a
    paired run or a tournament pair its rate is the head-to-head result. When
    one model argued every side (its rate is 1/2 by construction) the first
    figure is `pro_side_win_rate`, the share of debates the pro side won.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        judged = [s.score for s in scores if isinstance(s.score.value, dict)]
        if not judged:
            return {"win_rate": None}  # no debate was scored: no rate to report
        kept, incomplete = complete_pairs(judged)
        wins: dict[str, float] = defaultdict(float)
        debates: dict[str, int] = defaultdict(int)
        pro_side_wins: list[float] = []
        first: str | None = None
        for score in kept:
            figures, models = figures_of(score), (score.metadata or {}).get("models")
            if not isinstance(models, dict) or "pro_role_win" not in figures:
                continue
            first = first or models.get("pro")
            pro_side_wins.append(figures["pro_win"])
            for role, model in models.items():
                debates[model] += 1
                won = figures["pro_role_win"]
                wins[model] += won if role == "pro" else 1 - won
        order = sorted(debates, key=lambda m: (m != first, m))
        rates: dict[str, float | None] = {f"win_rate.{m}": wins[m] / debates[m] for m in order}
        for m in order:
            # One debate has no interval worth a line; one model's rate is 1/2 by design.
            if debates[m] >= 2 and len(debates) > 1:
                low, high = _interval(wilson(wins[m], debates[m]))
                rates.update({f"win_rate_low.{m}": low, f"win_rate_high.{m}": high})
        if len(debates) == 1:
            rates = {PRO_SIDE_WIN_RATE: sum(pro_side_wins) / len(pro_side_wins), **rates}
        return {**rates, "incomplete_pairs": float(incomplete)} if incomplete else rates

    return compute


def _interval(found: Estimate | None) -> tuple[float | None, float | None]:
    return (None, None) if found is None else (found.low, found.high)


def complete_pairs(scores: list[Score]) -> tuple[list[Score], int]:
    """The scores of unpaired debates and of pairs with both halves scored, and how
    many pairs had one half only."""
    halves: dict[str, list[Score]] = defaultdict(list)
    kept = []
    for score in scores:
        pair = (score.metadata or {}).get("pair_id")
        if pair is None:
            kept.append(score)
        else:
            halves[str(pair)].append(score)
    whole = [pair for pair in halves.values() if len(pair) == 2]
    return kept + [score for pair in whole for score in pair], len(halves) - len(whole)


@metric
def panel_alpha() -> Metric:
    """Krippendorff's alpha (interval) among a panel's judges over every dimension score.

    Units are (sample, side, dimension); each judge's rating is its mean over
    orientations (and repeats) as a fraction of the dimension's maximum. Undefined (None, left
    out of the results) with one judge or no scored debate.
    """
    alpha = krippendorff_alpha(level="interval")

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        units = [unit for sample in scores for unit in panel_units(sample.score)]
        if not units:
            return {"panel_alpha": None}
        value = alpha([SampleScore(score=Score(value=unit)) for unit in units])  # type: ignore[misc]
        found = float(value)  # type: ignore[arg-type]
        return {"panel_alpha": None if math.isnan(found) else found}

    return compute


def panel_units(score: Score) -> list[list[float]]:
    """One rating list per (side, dimension), one rating per valid judge (needs two or more)."""
    meta = score.metadata or {}
    maxima = {
        name: dim["max"]
        for name, dim in (meta.get("sides") or {}).get("pro", {}).get("dimensions", {}).items()
    }
    # A judge's repeats are one judge: its rating is the mean over all its readings.
    judges = [
        [o for record in group for o in record["orientations"]]
        for group in judge_groups(meta.get("readings", []))
        if all(record.get("valid") for record in group)
    ]
    if len(judges) < 2 or not maxima:
        return []
    units = []
    for side in SIDES:
        for name, top in maxima.items():
            ratings = []
            for readings in judges:
                values = [o["scores"][side][name] for o in readings]
                ratings.append(sum(values) / len(values) / top)
            units.append(ratings)
    return units


@metric
def judge_reliability() -> Metric:
    """The run's reliability figures (`judging.reliability`), for the panel's verdict: the
    side bias (`side_bias`, pro's share of decided debates), the length slope
    (`length_slope`, rubric points of margin per standard deviation of the length share,
    from each score's `words.pro`/`words.con`) and the position bias (`position_bias`,
    the opener's share of decided debates, from `pro_opened`), each with its 95%
    interval as `_low`/`_high`; each judge's self-preference when a judge of another
    family judged the same debates (`self_preference.JUDGE`, with `_low`/`_high`); and
    with a panel the effective number of judges over the verdict correlation, all
    verdicts and decisive ones (`effective_judges`, `effective_judges_decisive`, beside
    `verdict_correlation[_decisive]`). Position is left out unless both sides opened
    some debate: a debate run always has pro open, so there it would repeat the side
    bias (it applies to the judge task's transcripts). Length is left out under three
    debates or when the length share never varies. Undefined figures are None (left
    out)."""

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        debates = [d for s in scores if (d := judged_debate(s.score)) is not None]
        if not debates:
            return {"side_bias": None}
        out: dict[str, float | None] = {}
        out.update(_estimate("side_bias", side_bias(debates, PANEL)))
        if {d.opener for d in debates} >= set(SIDES):
            out.update(_estimate("position_bias", position_bias(debates, PANEL)))
        out.update(_estimate("length_slope", length_bias(debates, PANEL)))
        for judge in judges_of(debates):
            out.update(_estimate(f"self_preference.{judge}", self_preference(debates, judge)))
        for coding, suffix in (("all", ""), ("decisive", "_decisive")):
            found = effective_judges(debates, decisive=coding == "decisive")
            if found is not None:
                out[f"effective_judges{suffix}"] = found["n_eff"]
                out[f"verdict_correlation{suffix}"] = found["mean_correlation"]
        return out

    return compute


def _estimate(name: str, found: Estimate | None) -> dict[str, float | None]:
    if found is None:
        return {}
    head, dot, tail = name.partition(".")
    return {name: found.value, f"{head}_low{dot}{tail}": found.low,
            f"{head}_high{dot}{tail}": found.high}  # fmt: skip


def judged_debate(score: Score) -> Judged | None:
    """A scored debate's verdicts as the reliability figures read them: each judge's own
    (orientations averaged, repeats by the median) and the panel's."""
    meta = score.metadata or {}
    totals_ = meta.get("totals") or {}
    if not isinstance(score.value, dict) or "sides" not in meta or not totals_:
        return None
    verdicts = {PANEL: (str(meta.get("winner")), totals_["pro"] - totals_["con"])}
    repeats: dict[str, tuple[str, ...]] = {}
    for group in judge_groups(meta.get("readings", [])):
        scored = [[o["scores"] for o in r["orientations"] if "scores" in o] for r in group]
        if not all(r.get("valid") for r in group) or not all(scored):
            continue
        by_repeat = [mean_scores(readings) for readings in scored]
        combined = combine_repeats(by_repeat)
        sums = verdict_totals(combined)
        verdicts[group[0]["judge"]] = (outcome(combined), sums["pro"] - sums["con"])
        if len(by_repeat) > 1:
            repeats[group[0]["judge"]] = tuple(outcome(s) for s in by_repeat)
    models = meta.get("models") or {}
    sides: dict[str, str] = {side: models.get(meta["sides"][side]["role"], "") for side in SIDES}
    opener, words = _speeches(meta.get(FIGURES_KEY) or {})
    return Judged(verdicts, sides, opener, words, repeats)


def _speeches(figures: dict[str, Any]) -> tuple[str | None, dict[str, int] | None]:
    """The opener and each side's words a score keeps (None in logs from before them)."""
    pro_opened = figures.get(PRO_OPENED)
    opener = (
        {1.0: "pro", 0.0: "con"}.get(float(pro_opened))
        if isinstance(pro_opened, int | float)
        else None
    )
    counts = {str(side): figures.get(f"{WORDS}.{side}") for side in SIDES}
    words = {side: int(n) for side, n in counts.items() if isinstance(n, int | float)}
    return opener, words if len(words) == 2 else None
