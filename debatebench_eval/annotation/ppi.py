"""Prediction-powered inference (PPI++): a few human labels make the judge's many
verdicts into estimates with valid intervals.

Angelopoulos, Duchi and Zrnic, "PPI++: Efficient Prediction-Powered Inference"
(arXiv 2311.01453). n debates carry a human outcome Y and the judge's Ŷ; N more
carry only Ŷ. For an M-estimator with loss l, PPI++ minimises

    lambda/N sum_unlabelled l(theta; x, Ŷ)
        + 1/n sum_labelled [l(theta; x, Y) - lambda l(theta; x, Ŷ)]

The judge's own errors are measured on the labelled debates and subtracted, so
the estimate is unbiased however wrong the judge is; lambda (the power tuning,
clipped to [0, 1]) says how far to lean on the judge: 0 is the humans alone,
1 plain PPI. The variance is the sandwich H^-1 (n/N V_hat + Cov(g - lambda ĝ)) H^-1 / n.

Two estimands: the mean (a model's win rate) and logistic regression (the
Bradley-Terry ratings, `tournament.human_ratings`). Both follow the authors'
package `ppi-python` step for step (its tests compare them), so the figures are
the package's without its numba/statsmodels/scikit-learn dependencies at run
time: the same choice of lambda ("overall": the total variance over the
coordinates) at the same points. It is valid only when the labelled debates are
a random draw from all of them: a page of the most informative debates is not.

"Labels to halve the interval" re-evaluates the variance formula at more labels
with the moments measured now (lambda re-tuned at each count): how many of these
debates must be labelled, and, when labelling all of them is not enough (the
judge's own share of the variance stays), how many labels an unbounded number of
judged debates would need.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit, ndtri  # type: ignore[import-untyped]

from debatebench_eval.stats.intervals import tails

TOLERANCE = 1e-10
MAX_ITERATIONS = 100

Array = NDArray[np.float64]


@dataclass(frozen=True)
class Moments:
    """What the variance is made of: the inverse Hessian, the covariances of the
    labelled gradients with humans (g) and judge (ĝ), and of the judge's gradients
    over every debate. Enough to recompute the variance at other label counts."""

    inv_hessian: Array
    var_human: Array  # Cov(g)
    cross: Array  # Cov(g, ĝ) + Cov(ĝ, g)
    var_judge: Array  # Cov(ĝ) over labelled and unlabelled


@dataclass(frozen=True)
class PPIEstimate:
    """Estimates with their PPI++ intervals, lambda, the human-only (classical)
    interval beside them, and how many labels would halve the interval."""

    value: Array
    low: Array
    high: Array
    lam: float
    n: int  # labelled
    N: int  # judged only
    classical_low: Array
    classical_high: Array
    labels_to_halve: int | None  # among these debates (None: not reachable)
    labels_to_halve_unbounded: int | None  # with unboundedly many judged debates


def _z() -> float:
    return float(ndtri(tails()[1]))


def _column(values: Array) -> Array:
    found = np.asarray(values, dtype=np.float64)
    return found.reshape(-1, 1) if found.ndim == 1 else found


def _cov(values: Array) -> Array:
    return np.atleast_2d(np.cov(values.T))


def _lambda(grads: Array, grads_hat: Array, grads_unlabelled: Array, inv_h: Array) -> float:
    """ppi-python's `_calc_lam_glm` (overall mode, clipped): the lambda that minimises
    the trace of the variance."""
    n, big_n = len(grads), len(grads_unlabelled)
    centred, centred_hat = grads - grads.mean(0), grads_hat - grads_hat.mean(0)
    cross = (centred.T @ centred_hat + centred_hat.T @ centred) / n
    var_hat = _cov(np.concatenate([grads_hat, grads_unlabelled]))
    num = np.trace(inv_h @ cross @ inv_h)
    den = 2 * (1 + n / big_n) * np.trace(inv_h @ var_hat @ inv_h)
    return float(np.clip(num / den, 0.0, 1.0)) if den > 0 else 0.0


def _moments(grads: Array, grads_hat: Array, grads_unlabelled: Array, inv_h: Array) -> Moments:
    n = len(grads)
    centred, centred_hat = grads - grads.mean(0), grads_hat - grads_hat.mean(0)
    return Moments(
        inv_h,
        _cov(grads),
        (centred.T @ centred_hat + centred_hat.T @ centred) / (n - 1),
        _cov(np.concatenate([grads_hat, grads_unlabelled])),
    )


def variance(moments: Moments, n: int, big_n: int, lam: float | None = None) -> Array:
    """Each coordinate's variance with n labelled and big_n judged-only debates
    (big_n = 0: every debate labelled, the humans alone), lambda re-tuned when None.
    big_n = -1 stands for unboundedly many."""
    m = moments
    inv_h = m.inv_hessian
    share = 0.0 if big_n < 0 else (n / big_n if big_n else math.inf)
    if lam is None:
        num = np.trace(inv_h @ m.cross @ inv_h) / 2
        den = (1 + share) * np.trace(inv_h @ m.var_judge @ inv_h)
        lam = 0.0 if big_n == 0 or den <= 0 else float(np.clip(num / den, 0.0, 1.0))
    inner = m.var_human - lam * m.cross + lam * lam * m.var_judge
    if big_n:
        inner = inner + (share * lam * lam) * m.var_judge
    found: Array = np.diag(inv_h @ inner @ inv_h) / n
    return found


def labels_to_halve(
    moments: Moments, n: int, big_n: int, lam: float
) -> tuple[int | None, int | None]:
    """The fewest labels whose interval is at most half of today's on every coordinate:
    among these n + big_n debates, and with unboundedly many judged debates."""
    now = variance(moments, n, big_n, lam)
    total = n + big_n
    within = next(
        (k for k in range(n + 1, total + 1) if np.all(variance(moments, k, total - k) <= now / 4)),
        None,
    )
    # With unboundedly many judged debates the variance falls as 1/n: solve for n.
    unbounded = variance(moments, 1, -1)
    positive = now > 0
    if not positive.any():
        return within, None
    needed = float(np.max(4 * unbounded[positive] / now[positive]))
    return within, (math.ceil(needed) if math.isfinite(needed) else None)


# ---------------------------------------------------------------- the mean


def ppi_mean(y: Array, yhat: Array, yhat_unlabelled: Array) -> PPIEstimate:
    """The mean of Y (e.g. a model's win rate) from n labels and N + n judge outcomes,
    as ppi-python's `ppi_mean_ci` computes it (lambda tuned, then the interval)."""
    y, yhat, unl = (_column(a) for a in (y, yhat, yhat_unlabelled))
    n, big_n = len(y), len(unl)
    if n < 2 or big_n < 1:
        raise ValueError(f"PPI needs at least 2 labelled and 1 unlabelled debates ({n}, {big_n})")
    first = unl.mean(0) + (y - yhat).mean(0)
    inv_h = np.eye(y.shape[1])
    lam = _lambda(y - first, yhat - first, unl - first, inv_h)
    value = lam * unl.mean(0) + (y - lam * yhat).mean(0)
    se = np.sqrt((lam * unl).std(0) ** 2 / big_n + (y - lam * yhat).std(0) ** 2 / n)
    classical_se = y.std(0) / math.sqrt(n)
    moments = _moments(y - value, yhat - value, unl - value, inv_h)
    within, unbounded = labels_to_halve(moments, n, big_n, lam)
    z = _z()
    return PPIEstimate(
        value, value - z * se, value + z * se, lam, n, big_n,
        y.mean(0) - z * classical_se, y.mean(0) + z * classical_se, within, unbounded,
    )  # fmt: skip


# ---------------------------------------------------------------- logistic regression


def _fit(
    x: Array, y: Array, yhat: Array, xu: Array, yhat_u: Array, lam: float, ridge: Array
) -> Array:
    """The PPI++ logistic point estimate by Newton's method. Its objective is
    lambda x (the judge's logistic loss on every unlabelled debate) + (1 - lambda) x
    (the logistic loss on the labelled) + a linear term: convex for lambda in [0, 1]."""
    n, big_n = len(y), len(yhat_u)
    theta = np.zeros(x.shape[1])

    def objective(t: Array) -> float:
        eta, eta_u = x @ t, xu @ t
        lab = np.logaddexp(0, eta)
        return float(
            lam / big_n * (np.logaddexp(0, eta_u) - yhat_u * eta_u).sum()
            - lam / n * (lab - yhat * eta).sum()
            + (lab - y * eta).sum() / n
            + 0.5 * (ridge * t * t).sum()
        )

    for _ in range(MAX_ITERATIONS):
        p, pu = expit(x @ theta), expit(xu @ theta)
        grad = (lam / big_n * xu.T @ (pu - yhat_u) - lam / n * x.T @ (p - yhat)
                + x.T @ (p - y) / n + ridge * theta)  # fmt: skip
        hess = (lam / big_n * (xu.T * (pu * (1 - pu))) @ xu
                + (1 - lam) / n * (x.T * (p * (1 - p))) @ x + np.diag(ridge))  # fmt: skip
        step = np.linalg.solve(hess, grad)
        scale, current = 1.0, objective(theta)
        while objective(theta - scale * step) > current + 1e-15 * abs(current) and scale > 1e-9:
            scale /= 2
        theta = theta - scale * step
        if np.abs(scale * step).max() < TOLERANCE:
            break
    return theta


def _logistic_stats(
    theta: Array, x: Array, y: Array, yhat: Array, xu: Array, yhat_u: Array, ridge: Array
) -> tuple[Array, Array, Array, Array]:
    """ppi-python's `_logistic_get_stats`: the per-debate gradients (humans, judge on
    the labelled, judge on the rest) and the inverse Hessian over every debate."""
    p, pu = expit(x @ theta), expit(xu @ theta)
    total = len(y) + len(yhat_u)
    hess = ((x.T * (p * (1 - p))) @ x + (xu.T * (pu * (1 - pu))) @ xu) / total
    inv_h = np.linalg.inv(hess + np.diag(ridge))
    return x * (p - y)[:, None], x * (p - yhat)[:, None], xu * (pu - yhat_u)[:, None], inv_h


def ppi_logistic(
    x: Array,
    y: Array,
    yhat: Array,
    x_unlabelled: Array,
    yhat_unlabelled: Array,
    ridge: Array | None = None,
) -> PPIEstimate:
    """Logistic regression coefficients from labelled (x, Y, Ŷ) and judged-only (x, Ŷ)
    rows, as ppi-python's `ppi_logistic_ci` computes them: fitted at lambda 1, lambda
    tuned there, refitted, tuned again at the refit, refitted once more and the interval
    taken there. Y and Ŷ may be fractional (a tie is 1/2). `ridge` (per coefficient, on
    the mean loss) keeps a model that won everything finite; none by default."""
    args = (np.asarray(a, dtype=np.float64) for a in (x, y, yhat, x_unlabelled, yhat_unlabelled))
    x, y, yhat, xu, yhat_u = args
    n, big_n = len(y), len(yhat_u)
    if n < 2 or big_n < 1:
        raise ValueError(f"PPI needs at least 2 labelled and 1 unlabelled debates ({n}, {big_n})")
    ridge = np.zeros(x.shape[1]) if ridge is None else ridge
    lam = 1.0
    for _ in range(2):
        theta = _fit(x, y, yhat, xu, yhat_u, lam, ridge)
        lam = _lambda(*_logistic_stats(theta, x, y, yhat, xu, yhat_u, ridge))
    theta = _fit(x, y, yhat, xu, yhat_u, lam, ridge)
    grads, grads_hat, grads_u, inv_h = _logistic_stats(theta, x, y, yhat, xu, yhat_u, ridge)
    inner = n / big_n * _cov(lam * grads_u) + _cov(grads - lam * grads_hat)
    se = np.sqrt(np.diag(inv_h @ inner @ inv_h) / n)
    classical = _classical_logistic(x, y, ridge)
    within, unbounded = labels_to_halve(_moments(grads, grads_hat, grads_u, inv_h), n, big_n, lam)
    z = _z()
    return PPIEstimate(
        theta, theta - z * se, theta + z * se, lam, n, big_n,
        classical[0], classical[1], within, unbounded,
    )  # fmt: skip


def _classical_logistic(x: Array, y: Array, ridge: Array) -> tuple[Array, Array]:
    """The humans-alone interval (lambda 0): the sandwich over the labelled debates."""
    n = len(y)
    theta = _fit(x, y, y, x[:1], y[:1], 0.0, ridge)
    p = expit(x @ theta)
    inv_h = np.linalg.inv((x.T * (p * (1 - p))) @ x / n + np.diag(ridge))
    grads = x * (p - y)[:, None]
    se = np.sqrt(np.diag(inv_h @ _cov(grads) @ inv_h) / n)
    z = _z()
    return theta - z * se, theta + z * se
