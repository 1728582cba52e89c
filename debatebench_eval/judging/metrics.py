"""Cross-sample metrics of the judging scorers that need more than a per-key mean.

Per-key means and standard errors come from Inspect (`{"*": [mean(), stderr()]}`);
these read the score metadata for what a mean of one key cannot give: each
model's win rate with its sides pooled, and the panel's inter-judge agreement.
With several epochs Inspect reduces scores first and keeps the first epoch's
metadata, so these then describe the first epoch's judges.
"""

from __future__ import annotations

import math
from collections import defaultdict

from inspect_ai.scorer import Metric, SampleScore, Score, krippendorff_alpha, metric

from debatebench_eval.debate.protocol import SIDES


@metric
def model_win_rate() -> Metric:
    """Each debater model's share of the debates it argued, both sides pooled.

    With paired debates a model argues pro in one sample and con in its twin,
    so its rate is over both, and only over complete pairs (both halves
    scored): a lone half would count one side only. `incomplete_pairs` says
    how many pairs were left out. A model on both sides of one debate wins half.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        judged = [s.score for s in scores if isinstance(s.score.value, dict)]
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
        rates = {f"win_rate[{m}]": wins[m] / debates[m] for m in sorted(debates)}
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
    orientations as a fraction of the dimension's maximum. NaN with one judge.
    """
    alpha = krippendorff_alpha(level="interval")

    def compute(scores: list[SampleScore]) -> float:
        units = [unit for sample in scores for unit in panel_units(sample.score)]
        if not units:
            return math.nan
        value = alpha([SampleScore(score=Score(value=unit)) for unit in units])  # type: ignore[misc]
        return float(value)  # type: ignore[arg-type]

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
