"""A judge-aware Bradley-Terry: each judge its own discrimination, fitted with the
models' strengths by maximum likelihood.

Weighting every judge alike can make a rating more confidently wrong as data
grow (arXiv 2601.21817): a judge that answers at random pulls every gap towards
zero, and more of its readings only narrow the interval around the wrong,
shrunken value. Here judge j's reading of debate d (pro model i, con model k)
is pro's result by that judge, and

    P(judge j gives the debate to pro) = sigma(a_j (s_i - s_k + h)),

a_j >= 0 the judge's discrimination: 1 as sharp as the sharpest judge, 0 a
coin. The likelihood does not change when every a_j is multiplied and every s
divided by the same number, so it is fitted with a = J softmax(u) (mean 1; a
small ridge on s and u keeps a coin-like judge's u finite) by scipy's BFGS
on the exact gradient, and reported on the scale of its sharpest judge (the
largest a set to 1, the strengths multiplied by it): a rating then means the
odds the panel's best judge would give. A judge's weight is its share of the
panel's discrimination, a_j / sum(a). `equal` fixes every a_j at 1: the
equal-weight fit of the same readings, for comparison.

Intervals come from the one cluster bootstrap over motions (the caller's
weights), each resample refitted from the full fit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import minimize  # type: ignore[import-untyped]
from scipy.special import expit, log_softmax, softmax  # type: ignore[import-untyped]

from debatebench_eval.stats.bradley_terry import RIDGE

Array = NDArray[np.float64]
Ints = NDArray[np.int64]


@dataclass(frozen=True)
class Readings:
    """Every judge's reading of every debate: the debate's pro and con model and
    motion, the judge, and pro's result by that judge (1, 1/2 or 0)."""

    models: tuple[str, ...]
    judges: tuple[str, ...]
    motions: int
    pro: Ints
    con: Ints
    motion: Ints
    judge: Ints
    y: Array


@dataclass(frozen=True)
class JudgeFit:
    """Per resample (one row without weights): strengths (logits, mean zero, on the
    sharpest judge's scale), the side advantage, and each judge's discrimination
    relative to the sharpest (the largest is 1)."""

    strengths: Array
    side: Array
    discrimination: Array

    @property
    def weight(self) -> Array:
        """Each judge's share of the panel's discrimination (1/J each for equal judges,
        0 for a coin): unlike the discrimination relative to the sharpest, its
        interval says something for the sharpest judge too."""
        share: Array = self.discrimination / self.discrimination.sum(axis=1, keepdims=True)
        return share


def fit_judges(
    readings: Readings, weights: Array | None = None, *, equal: bool = False
) -> JudgeFit:
    """The maximum-likelihood fit for each row of motion weights (module docstring)."""
    weights = np.ones((1, readings.motions)) if weights is None else weights
    m, j = len(readings.models), len(readings.judges)
    everything = np.ones(len(readings.y))
    start = _fit_row(readings, everything, np.zeros(m + 1 + (0 if equal else j)), equal)
    theta = np.vstack([_fit_row(readings, row[readings.motion], start, equal) for row in weights])
    a = np.ones((len(theta), j)) if equal else j * softmax(theta[:, m + 1 :], axis=1)
    sharpest = a.max(axis=1, keepdims=True)
    strengths = theta[:, :m] - theta[:, :m].mean(axis=1, keepdims=True)
    return JudgeFit(strengths * sharpest, theta[:, m] * sharpest[:, 0], a / sharpest)


def _fit_row(readings: Readings, w: Array, start: Array, equal: bool) -> Array:
    result = minimize(
        _objective, start, args=(readings, w, equal), jac=True, method="BFGS",
        options={"maxiter": 2000, "gtol": 1e-8},  # L-BFGS-B: the same fit, 10x the time
    )  # fmt: skip
    found: Array = np.asarray(result.x, dtype=np.float64)
    return found


def _objective(theta: Array, r: Readings, w: Array, equal: bool) -> tuple[float, Array]:
    """The negated penalised log-likelihood and its gradient."""
    m, j = len(r.models), len(r.judges)
    s, h = theta[:m], theta[m]
    u = np.zeros(j) if equal else theta[m + 1 :]
    a = np.exp(np.log(j) + log_softmax(u))
    gap = s[r.pro] - s[r.con] + h
    eta = a[r.judge] * gap
    ll = float((w * (r.y * eta - np.logaddexp(0.0, eta))).sum())
    penalty = 0.5 * RIDGE * (float(s @ s) + (0.0 if equal else float(u @ u)))
    residual = w * (r.y - expit(eta))
    by_gap = residual * a[r.judge]
    grad = np.zeros_like(theta)
    np.add.at(grad, r.pro, by_gap)
    np.add.at(grad, r.con, -by_gap)
    grad[m] = by_gap.sum()
    grad[:m] -= RIDGE * s
    if not equal:
        per_judge = np.bincount(r.judge, weights=residual * gap, minlength=j)
        grad[m + 1 :] = a * (per_judge - (per_judge * a).sum() / j) - RIDGE * u
    return -(ll - penalty), -grad
