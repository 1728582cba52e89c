"""Cross-sample metrics of the judging scorers that need more than a per-key mean.

Per-key means and standard errors come from Inspect (`KEY_METRICS`); the
metrics here read the score metadata for what a mean of one key cannot give:
each model's win rate with its sides pooled, and the panel's inter-judge
agreement. With several epochs Inspect reduces scores first and keeps the
first epoch's metadata, so these then describe the first epoch's judges.

A figure these metrics cannot compute for a run (agreement with one judge,
win rates with no scored debate) is reported as `None`, which Inspect leaves
out of its results, so the terminal table shows no `nan` row for it; the
per-sample values it would be computed from stay in the log.
"""

from __future__ import annotations

import math
from collections import defaultdict

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    krippendorff_alpha,
    mean,
    metric,
    stderr,
)

from debatebench_eval.record.protocol import SIDES

# The key a debate log's headline reads (how often the `pro` role's model won).
HEADLINE_KEY = "pro_role_win"
# Each key's mean and standard error. The headline key is named as well as
# globbed: Inspect expands `*` over the keys of a scored sample, so before the
# first debate is scored, or when none is, the only per-key score it holds is
# named `*` and a headline naming `pro_role_win` would not be found (Inspect
# warns, then shows another figure). Named, it is always there (NaN when
# nothing was scored); when a sample is scored the two entries merge into one.
KEY_METRICS = {"*": [mean(), stderr()], HEADLINE_KEY: [mean(), stderr()]}


@metric
def model_win_rate() -> Metric:
    """Each debater model's share of the debates it argued, both sides pooled.

    With paired debates a model argues pro in one sample and con in its twin,
    so its rate is over both, and only over complete pairs (both halves
    scored): a lone half would count one side only. `incomplete_pairs` says
    how many pairs were left out. A model on both sides of one debate wins half.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        judged = [s.score for s in scores if isinstance(s.score.value, dict)]
        if not judged:
            return {"win_rate": None}  # no debate was scored: no rate to report
        kept, incomplete = complete_pairs(judged)
        wins: dict[str, float] = defaultdict(float)
        debates: dict[str, int] = defaultdict(int)
        for score in kept:
            value, meta = score.value, score.metadata or {}
            models = meta.get("models")
            if not isinstance(value, dict) or not isinstance(models, dict):
                continue
            for role, model in models.items():
                debates[model] += 1
                share = value["pro_role_win"] if role == "pro" else 1 - value["pro_role_win"]
                wins[model] += share
        rates: dict[str, float | None] = {
            f"win_rate[{m}]": wins[m] / debates[m] for m in sorted(debates)
        }
        return {**rates, "incomplete_pairs": float(incomplete)} if incomplete else rates

    return compute


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
    orientations as a fraction of the dimension's maximum. Undefined (None, left
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
    judges = [r for r in meta.get("readings", []) if r.get("valid")]
    if len(judges) < 2 or not maxima:
        return []
    units = []
    for side in SIDES:
        for name, top in maxima.items():
            ratings = []
            for judge in judges:
                values = [o["scores"][side][name] for o in judge["orientations"]]
                ratings.append(sum(values) / len(values) / top)
            units.append(ratings)
    return units
