"""Ratings that human labels make valid: prediction-powered win rates and Bradley-Terry
ratings (PPI++, `annotation.ppi`) beside the judge-only ones.

The judge's verdict on every rated debate is Ŷ; people's verdict on the debates
they labelled is Y (pro's result: 1, 1/2 a tie, 0, averaged over a debate's
annotators). A model's win rate is the mean of its result over its debates;
the ratings are the tournament's Bradley-Terry model (`stats.bradley_terry`:
P(pro wins) = sigma(s_pro - s_con + h), its design and its ridge, so the
strengths sit at mean zero) fitted as a PPI++ logistic M-estimator. Both come
with the PPI++ interval, the humans-alone interval, and the labels that would
halve the interval. The judge-only intervals (the motion bootstrap) stay in the
leaderboard beside them.

PPI is valid when the labelled debates are a random draw of the rated ones: a
labelling page's default stratified sample is close to that; its
`--most-informative` selection (close margins, flips, split panels) is not,
and the figures say so when the labels say it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from debatebench_eval.annotation.ppi import PPIEstimate, ppi_logistic, ppi_mean
from debatebench_eval.matches.results import DebateResult
from debatebench_eval.stats.bradley_terry import ELO_PER_LOGIT, RIDGE
from debatebench_eval.stats.intervals import share

# A debate's key in both the labels and the results: (log file name, sample id).
Key = tuple[str, str]


def debate_key(debate: DebateResult) -> Key:
    return ((debate.log or "").rsplit("/", 1)[-1], str(debate.sample_id))


def human_ratings(
    debates: Sequence[DebateResult],
    human: Mapping[Key, float],
    models: Sequence[str],
    base: float = 1000.0,
) -> dict[str, Any]:
    """The prediction-powered figures of the rated `debates` (each with a judge's
    result), `human` holding pro's result by people on those they labelled."""
    rated = [d for d in debates if d.result is not None]
    labelled = [d for d in rated if debate_key(d) in human]
    figures: dict[str, Any] = {
        "labelled_debates": len(labelled),
        "rated_debates": len(rated),
        "win_rates": {m: _win_rate(rated, human, m) for m in models},
        "ratings": None,
        "no_ratings": "they need two labelled debates and one unlabelled",
    }
    if len(labelled) >= 2 and len(rated) > len(labelled):
        try:
            figures["ratings"], figures["no_ratings"] = _ratings(rated, human, models, base), None
        except (np.linalg.LinAlgError, NoFiniteFit):
            # People's labels contradict the judge in a way no finite rating fits (a side
            # or a model wins every labelled debate it is in): the fit has no optimum.
            figures["no_ratings"] = (
                "the labels separate the models or the sides (one wins every labelled debate "
                "it is in), so no finite prediction-powered rating fits them; label more "
                "debates, drawn at random"
            )
    return figures


# Logits beyond which a fit has run off rather than found an optimum (odds of millions
# to one, which no set of labelled debates supports): the unpenalised side term, or a
# humans-only fit with no ridge, on labels that separate the data.
SEPARATED_LOGITS = 15.0


class NoFiniteFit(ValueError):
    """The labels separate the data: no finite rating fits them."""


def _result_for(debate: DebateResult, pro_result: float, model: str) -> float:
    return pro_result if debate.pro == model else 1.0 - pro_result


def _win_rate(rated: Sequence[DebateResult], human: Mapping[Key, float], model: str) -> Any:
    """A model's win rate by PPI++ (None: fewer than two of its debates labelled, or
    every one of them labelled, where the humans alone are the answer)."""
    mine = [d for d in rated if model in (d.pro, d.con)]
    lab = [d for d in mine if debate_key(d) in human]
    unl = [d for d in mine if debate_key(d) not in human]
    judge = float(np.mean([_result_for(d, float(d.result or 0), model) for d in mine])) if mine \
        else math.nan  # fmt: skip
    if len(lab) < 2 or not unl:
        return {"judge_only": judge, "ppi": None, "labelled": len(lab), "debates": len(mine)}
    y = np.array([_result_for(d, human[debate_key(d)], model) for d in lab])
    yhat = np.array([_result_for(d, float(d.result or 0), model) for d in lab])
    yhat_u = np.array([_result_for(d, float(d.result or 0), model) for d in unl])
    found = ppi_mean(y, yhat, yhat_u)
    return {"judge_only": judge, "ppi": _share(_estimate(found, 0), float(y.mean())),
            "labelled": len(lab), "debates": len(mine)}  # fmt: skip


def _share(found: dict[str, Any], humans: float) -> dict[str, Any]:
    """A win rate's PPI++ and humans-only intervals inside [0, 1], each holding its own
    estimate (the humans' mean for theirs): both are normal approximations, which
    run past 0 or 1 near a model that won or lost nearly everything."""
    value, low, high = share(found["value"], found["low"], found["high"])
    first, last = found["humans_only"]
    _, first, last = share(humans, first, last)
    return {**found, "value": value, "low": low, "high": high, "humans_only": [first, last]}


def _estimate(found: PPIEstimate, i: int, scale: float = 1.0, shift: float = 0.0) -> dict[str, Any]:
    return {
        "value": shift + scale * float(found.value[i]),
        "low": shift + scale * float(found.low[i]),
        "high": shift + scale * float(found.high[i]),
        "humans_only": [
            shift + scale * float(found.classical_low[i]),
            shift + scale * float(found.classical_high[i]),
        ],
        "lambda": found.lam,
        "labels_to_halve": found.labels_to_halve,
        "labels_to_halve_with_more_debates": found.labels_to_halve_unbounded,
    }


def design(debates: Sequence[DebateResult], models: Sequence[str]) -> np.ndarray:
    """The Bradley-Terry design rows x = e_pro - e_con + e_side (bradley_terry's)."""
    index = {m: i for i, m in enumerate(models)}
    x = np.zeros((len(debates), len(models) + 1))
    for row, debate in enumerate(debates):
        x[row, index[debate.pro]] += 1.0
        x[row, index[debate.con]] -= 1.0
    x[:, -1] = 1.0
    return x


def _ratings(
    rated: Sequence[DebateResult], human: Mapping[Key, float], models: Sequence[str], base: float
) -> dict[str, Any]:
    lab = [d for d in rated if debate_key(d) in human]
    unl = [d for d in rated if debate_key(d) not in human]
    # The tournament's ridge is on the summed likelihood; PPI's loss is a mean.
    ridge = np.array([RIDGE / len(rated)] * len(models) + [0.0])
    found = ppi_logistic(
        design(lab, models), np.array([human[debate_key(d)] for d in lab]),
        np.array([float(d.result or 0) for d in lab]), design(unl, models),
        np.array([float(d.result or 0) for d in unl]), ridge,
    )  # fmt: skip
    bounds = np.concatenate([found.value, found.low, found.high, found.classical_low,
                             found.classical_high])  # fmt: skip
    if not np.all(np.isfinite(bounds)) or np.abs(bounds).max() > SEPARATED_LOGITS:
        raise NoFiniteFit
    return {
        "models": {m: _estimate(found, i, ELO_PER_LOGIT, base) for i, m in enumerate(models)},
        "side_advantage": _estimate(found, len(models), ELO_PER_LOGIT),
        "lambda": found.lam,
        "labels_to_halve": found.labels_to_halve,
        "labels_to_halve_with_more_debates": found.labels_to_halve_unbounded,
    }


def human_lines(found: dict[str, Any], board_models: Sequence[dict[str, Any]]) -> list[str]:
    """The leaderboard's section: PPI++ beside the judge-only figures, per model."""
    from debatebench_eval.matches.figure_text import interval_text as ci

    judge_only = {row["model"]: row for row in board_models}
    lines = [
        "", "## Human labels (prediction-powered inference)", "",
        f"{found['labelled_debates']} of {found['rated_debates']} rated debates labelled by "
        "people. PPI++ (Angelopoulos et al. 2023) corrects the judge's verdicts by its "
        "errors on the labelled debates: valid when the labelled debates are a random draw "
        "of the rated ones. Judge-only: the motion bootstrap above; humans only: the "
        "labelled debates alone; halve: labels that would halve the PPI interval (among "
        "these debates; with more judged debates).", "",
        "| model | rating, judge only | rating, PPI++ | humans only | win rate, judge only "
        "| win rate, PPI++ | labelled | halve |",
        "|---|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    ratings = (found.get("ratings") or {}).get("models", {})
    for model, rate in found["win_rates"].items():
        rating, ppi = ratings.get(model), rate.get("ppi")
        row = judge_only.get(model, {})
        humans = "n/a" if not rating else "[{:.0f}, {:.0f}]".format(*rating["humans_only"])
        halve = "n/a" if not rating else _halve(rating)
        lines.append(
            f"| {model} | {ci(row.get('rating'))} | {ci(rating)} | {humans} "
            f"| {ci(row.get('win_rate'), 2)} | {ci(ppi, 2)} | {rate['labelled']} of "
            f"{rate['debates']} | {halve} |"
        )
    if found.get("ratings") is None:
        why = found.get("no_ratings") or "they need two labelled debates and one unlabelled"
        lines += ["", f"No PPI++ ratings: {why}."]
    lines += [f"- {note}" for note in found.get("not_used", [])]
    return lines


def _halve(found: dict[str, Any]) -> str:
    within, more = found["labels_to_halve"], found["labels_to_halve_with_more_debates"]
    inside = str(within) if within is not None else "not within these debates"
    return f"{inside}; {more if more is not None else 'n/a'}"
