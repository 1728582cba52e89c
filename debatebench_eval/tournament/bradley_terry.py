"""Bradley-Terry ratings with a side advantage, fitted by maximum likelihood.

For debate d, with model i arguing pro and model j con:

    P(pro wins) = sigma(s_i - s_j + h + gamma*z_d)

y_d is pro's result: 1, 1/2 for a tie (equal totals before the tiebreaks) or 0.
h is the advantage of arguing pro. gamma*z_d is an optional per-debate covariate
(the length control: z is how much more pro spoke than con, standardised).
The log-likelihood, the sum of w_d [y_d log sigma(eta_d) + (1 - y_d) log sigma(-eta_d)],
stays concave with ties as halves, so one Newton method fits everything.

A small ridge (lambda/2)*|s|^2 keeps a model that won or lost every debate finite.
The unpenalised likelihood does not change when every s shifts by the same
amount, so at the optimum lambda*sum(s) = 0: the ridge anchors the ratings at their
mean, exactly. As a prior it is N(0, 31.6^2) on each strength; it moves an
estimate by about lambda*s over the estimate's Fisher information: 1e-4 logit
for two models with 20 debates, less with more. gamma gets the same ridge; h
gets none.

`weights` are bootstrap weights per motion (B resamples x K motions): every
resample is fitted at once, as batched Newton steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit  # type: ignore[import-untyped]

ELO_PER_LOGIT = 400 / math.log(10)  # 173.7 points a logit: 400 points are 10:1 odds
RIDGE = 1e-3
# Newton converges quadratically: after a step of size s the error left is of
# order s^2, so stopping below 1e-7 leaves estimates good to far below 1e-9.
TOLERANCE = 1e-7
# Steps shorter than this (in logits) skip the objective check: see _newton.
SAFE_STEP = 0.25
MAX_ITERATIONS = 200
_HALVINGS = 40

Array = NDArray[np.float64]


@dataclass(frozen=True)
class Games:
    """Debates as arrays: the pro and con model, the motion (the bootstrap's
    cluster), pro's result, and the covariate when there is one."""

    models: tuple[str, ...]
    motions: tuple[str, ...]
    pro: NDArray[np.int64]
    con: NDArray[np.int64]
    motion: NDArray[np.int64]
    y: Array
    z: Array | None = None


@dataclass(frozen=True)
class Fit:
    """Estimates per resample (one row without weights): strengths in logits
    (mean zero), the side advantage h, the covariate's coefficient gamma."""

    strengths: Array
    side: Array
    covariate: Array | None
    iterations: int


def fit(
    games: Games,
    weights: Array | None = None,
    *,
    covariate: bool = False,
    ridge: float = RIDGE,
    start: Fit | None = None,
) -> Fit:
    """Maximum likelihood (with the ridge) for each row of motion weights.

    `start` (the full data's fit) starts every resample near its answer, so a
    bootstrap needs fewer Newton steps; the result does not depend on it.
    """
    weights = np.ones((1, len(games.motions))) if weights is None else weights
    if covariate and games.z is None:
        raise ValueError("a covariate fit needs games.z")
    model = _Design(games, weights, covariate)
    m = len(games.models)
    penalty = np.zeros(model.params)
    penalty[:m] = ridge
    if covariate:
        penalty[-1] = ridge
    theta = np.zeros((model.batch, model.params))
    if start is not None:
        theta[:, :m], theta[:, m] = start.strengths[0], start.side[0]
        if covariate and start.covariate is not None:
            theta[:, -1] = start.covariate[0]
    theta, iterations = _newton(model, penalty, theta)
    strengths = theta[:, :m] - theta[:, :m].mean(axis=1, keepdims=True)
    return Fit(strengths, theta[:, m], theta[:, m + 1] if covariate else None, iterations)


def elo(strengths: Array, anchor: int | None = None, base: float = 1000.0) -> Array:
    """Ratings on the Elo-like scale: base at the mean, or at the anchor model."""
    reference = (
        strengths.mean(axis=-1, keepdims=True) if anchor is None else strengths[..., [anchor]]
    )
    return base + ELO_PER_LOGIT * (strengths - reference)


class _Design:
    """The likelihood's pieces. Debates with the same (pro, con) share a design
    row (a cell); without a covariate the fit needs only each cell's weighted
    games and wins, so it runs on cells. With one, on debates (sorted by cell,
    so per-cell sums are contiguous), with the Hessian still summed per cell."""

    def __init__(self, games: Games, weights: Array, covariate: bool) -> None:
        m = len(games.models)
        cells, cell = np.unique(
            np.stack([games.pro, games.con], axis=1), axis=0, return_inverse=True
        )
        cell = cell.reshape(-1)
        c = len(cells)
        x = np.zeros((c, m + 1))
        x[np.arange(c), cells[:, 0]] += 1.0
        x[np.arange(c), cells[:, 1]] -= 1.0
        x[:, m] = 1.0
        self.x = x
        self.pro, self.con = cells[:, 0], cells[:, 1]
        self.outer = (x[:, :, None] * x[:, None, :]).reshape(c, -1)
        self.covariate = covariate
        self.params = m + 1 + int(covariate)
        self.batch = weights.shape[0]
        if covariate:
            assert games.z is not None
            order = np.argsort(cell, kind="stable")
            self.cell = cell[order]
            self.starts = np.flatnonzero(np.r_[True, self.cell[1:] != self.cell[:-1]])
            self.w = weights[:, games.motion[order]]  # (B, n)
            self.y, self.z = games.y[order], games.z[order]
        else:
            k = len(games.motions)
            played = np.zeros((k, c))
            won = np.zeros((k, c))
            np.add.at(played, (games.motion, cell), 1.0)
            np.add.at(won, (games.motion, cell), games.y)
            self.games, self.wins = weights @ played, weights @ won

    def _eta(self, theta: Array) -> Array:
        m = self.x.shape[1] - 1
        base = theta[:, self.pro] - theta[:, self.con] + theta[:, m : m + 1]  # (B, C)
        if not self.covariate:
            return base
        eta: Array = base[:, self.cell]
        eta += theta[:, -1:] * self.z[None, :]
        return eta

    def objective(self, theta: Array, penalty: Array) -> Array:
        """The penalised log-likelihood per resample."""
        eta = self._eta(theta)
        if self.covariate:
            ll = (self.w * (self.y * eta - np.logaddexp(0.0, eta))).sum(axis=1)
        else:
            ll = (self.wins * eta - self.games * np.logaddexp(0.0, eta)).sum(axis=1)
        value: Array = ll - 0.5 * (penalty * theta**2).sum(axis=1)
        return value

    def derivatives(self, theta: Array, penalty: Array) -> tuple[Array, Array]:
        """The gradient and the negated Hessian (positive definite) per resample."""
        b, k = theta.shape
        p = expit(self._eta(theta))
        if not self.covariate:
            grad = (self.wins - self.games * p) @ self.x
            hess = ((self.games * p * (1 - p)) @ self.outer).reshape(b, k, k)
        else:
            # In place where it can be: these are (resamples x debates) arrays.
            r = self.y - p
            r *= self.w
            v = 1 - p
            v *= p
            v *= self.w
            vz = v * self.z
            grad = np.empty((b, k))
            grad[:, :-1] = self._per_cell(r) @ self.x
            grad[:, -1] = r @ self.z
            hess = np.empty((b, k, k))
            hess[:, :-1, :-1] = (self._per_cell(v) @ self.outer).reshape(b, k - 1, k - 1)
            hess[:, :-1, -1] = hess[:, -1, :-1] = self._per_cell(vz) @ self.x
            hess[:, -1, -1] = vz @ self.z
        return grad - penalty * theta, hess + np.diag(penalty)

    def _per_cell(self, values: Array) -> Array:
        sums: Array = np.add.reduceat(values, self.starts, axis=1)
        return sums


def _newton(model: _Design, penalty: Array, theta: Array) -> tuple[Array, int]:
    """Newton steps, every resample at once, until no parameter of any resample
    moves by more than TOLERANCE. A long step is checked against the objective
    and halved until it does not make things worse; a short one is within the
    range where the quadratic model of a logistic likelihood holds, and the
    objective (a pass over every debate) is not computed."""
    grad, hess = model.derivatives(theta, penalty)
    for iteration in range(1, MAX_ITERATIONS + 1):
        step = np.linalg.solve(hess, grad[:, :, None])[:, :, 0]
        trial = theta + step
        if np.abs(step).max() > SAFE_STEP:
            current = model.objective(theta, penalty)
            scale = np.ones(model.batch)
            for _ in range(_HALVINGS):
                worse = model.objective(trial, penalty) < current - 1e-12 * np.abs(current)
                if not worse.any():
                    break
                scale[worse] /= 2
                trial[worse] = theta[worse] + scale[worse, None] * step[worse]
        moved = np.abs(trial - theta).max()
        theta = trial
        if moved < TOLERANCE:
            return theta, iteration
        grad, hess = model.derivatives(theta, penalty)
    return theta, MAX_ITERATIONS
