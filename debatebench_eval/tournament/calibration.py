"""How well the ratings' win probabilities match the debates' outcomes.

A rating scale means something only through the probabilities it implies: a
gap of d points predicts pro wins with sigma(d / 173.7 + h). So the leaderboard
reports, for the fitted model, the mean log-loss (the negated log-likelihood a
debate, the figure other leaderboards' Bradley-Terry fits also minimise) and the
Brier score, in sample and held out.

Held out is K-fold cross-validation over motions, not debates: a motion's
debates (both sides of every pair on it) leave together, so a model is never
tested on a motion it was fitted on, as the bootstrap treats a motion as one
unit too. The K training fits are one batched fit, each fold a row of motion
weights (0 for the held-out motions). A tie (y = 1/2) scores as half a win and
half a loss, as in the fit. Two baselines say what the figures are worth: a coin
(log-loss ln 2 = 0.693, Brier 0.25) and the training folds' pro win share. The
calibration table groups the held-out predictions by predicted probability.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit  # type: ignore[import-untyped]

from debatebench_eval.stats.bradley_terry import ELO_PER_LOGIT, Array, Fit, Games, fit

FOLDS = 10
BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
# Keeps a probability the ridge pushed to 0 or 1 from an infinite log-loss.
_EPSILON = 1e-12


def calibration(games: Games, raw: Fit, length: Fit | None) -> dict[str, Any]:
    """The scale, the in-sample and cross-validated scores, and the calibration table."""
    y = games.y
    report: dict[str, Any] = {
        "points_per_logit": ELO_PER_LOGIT,
        "in_sample": _scores(y, probabilities(games, raw)),
        "in_sample_length_controlled": _scores(y, probabilities(games, length))
        if length is not None
        else None,
    }
    report["cross_validated"] = cross_validated(games, covariate=False)
    report["cross_validated_length_controlled"] = (
        cross_validated(games, covariate=True) if length is not None else None
    )
    return report


def probabilities(games: Games, fitted: Fit, row: int = 0) -> Array:
    """Each debate's fitted probability that pro wins, from one row of a fit."""
    eta = fitted.strengths[row, games.pro] - fitted.strengths[row, games.con] + fitted.side[row]
    if fitted.covariate is not None:
        assert games.z is not None
        eta = eta + fitted.covariate[row] * games.z
    p: Array = expit(eta)
    return p


def log_loss(y: Array, p: Array) -> float:
    """Mean -[y ln p + (1 - y) ln(1 - p)]."""
    p = np.clip(p, _EPSILON, 1 - _EPSILON)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def brier(y: Array, p: Array) -> float:
    return float(np.mean((p - y) ** 2))


def folds(motions: int, k: int = FOLDS) -> NDArray[np.int64]:
    """Which fold each motion (in sorted order) is held out in: every k-th."""
    return np.arange(motions) % min(k, motions)


def cross_validated(games: Games, *, covariate: bool, k: int = FOLDS) -> dict[str, Any] | None:
    """K-fold held-out scores over motions; None below two motions."""
    motions = len(games.motions)
    if motions < 2:
        return None
    fold = folds(motions, k)
    count = int(fold.max()) + 1
    train = (fold[None, :] != np.arange(count)[:, None]).astype(np.float64)  # (folds, motions)
    fitted = fit(games, train, covariate=covariate)
    held = fold[games.motion]  # each debate's fold
    p, share = np.empty(len(games.y)), np.empty(len(games.y))
    for f in range(count):
        mine = held == f
        p[mine] = probabilities(games, fitted, f)[mine]
        share[mine] = games.y[~mine].mean() if (~mine).any() else 0.5
    return {
        "folds": count,
        "by": "motion",
        **_scores(games.y, p),
        "baselines": {
            "coin": {"log_loss": math.log(2), "brier": 0.25},
            "pro_win_share": _scores(games.y, share),
        },
        "table": table(games.y, p),
    }


def table(y: Array, p: Array, bins: tuple[float, ...] = BINS) -> list[dict[str, Any]]:
    """Predictions grouped by probability: how many, the mean predicted, the share won."""
    where = np.clip(np.digitize(p, bins[1:-1]), 0, len(bins) - 2)
    rows = []
    for i in range(len(bins) - 1):
        mine = where == i
        n = int(mine.sum())
        rows.append({
            "predicted": [bins[i], bins[i + 1]], "debates": n,
            "mean_predicted": float(p[mine].mean()) if n else math.nan,
            "observed": float(y[mine].mean()) if n else math.nan,
        })  # fmt: skip
    return rows


def _scores(y: Array, p: Array) -> dict[str, float]:
    return {"log_loss": log_loss(y, p), "brier": brier(y, p), "debates": len(y)}
