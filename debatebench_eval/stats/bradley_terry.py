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

`weights` are the bootstrap's weights per motion (B resamples x K motions,
`bootstrap.cluster_weights`): every resample is fitted at once, as batched
Newton steps. A motion is whatever clusters the games: an oversight
tournament's question, too.

The one Bradley-Terry fit of the package: the leaderboard's ratings, their
calibration, the persuasiveness ratings, and the design and ridge the
prediction-powered ratings reuse.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import sparse  # type: ignore[import-untyped]
from scipy.sparse.csgraph import connected_components  # type: ignore[import-untyped]
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
    block: int | None = None,
) -> Fit:
    """Maximum likelihood (with the ridge) for each row of motion weights.

    `start` (the full data's fit) starts every resample near its answer, so a
    bootstrap needs fewer Newton steps; the result does not depend on it.
    `block` fits that many rows at a time (default all), bounding memory; the
    design is built once for every block. `iterations` is the slowest row's.
    """
    weights = np.ones((1, len(games.motions))) if weights is None else weights
    if covariate and games.z is None:
        raise ValueError("a covariate fit needs games.z")
    cells = _Cells(games)
    size = block or len(weights)
    parts = [
        _fit_block(_Design(games, weights[i : i + size], covariate, cells), ridge, start)
        for i in range(0, len(weights), size)
    ]
    theta = np.vstack([theta for theta, _ in parts])
    m = len(games.models)
    strengths = theta[:, :m] - theta[:, :m].mean(axis=1, keepdims=True)
    return Fit(
        strengths,
        theta[:, m],
        theta[:, m + 1] if covariate else None,
        max(iterations for _, iterations in parts),
    )


def information(games: Games, result: Fit, *, ridge: float = RIDGE) -> Array:
    """The observed information at a fit's first row (no covariate): the negated
    Hessian of the penalised log-likelihood, (m + 1) x (m + 1), the strengths then
    the side advantage. Its inverse is the fit's Laplace (Wald) covariance."""
    design = _Design(games, np.ones((1, len(games.motions))), covariate=False)
    m = len(games.models)
    penalty = np.zeros(m + 1)
    penalty[:m] = ridge
    theta = np.append(result.strengths[0], result.side[0])[None, :]
    _, hess = design.derivatives(theta, penalty)
    value: Array = hess[0]
    return value


def elo(strengths: Array, anchor: int | None = None, base: float = 1000.0) -> Array:
    """Ratings on the Elo-like scale: base at the mean, or at the anchor model."""
    reference = (
        strengths.mean(axis=-1, keepdims=True) if anchor is None else strengths[..., [anchor]]
    )
    return base + ELO_PER_LOGIT * (strengths - reference)


def _fit_block(model: _Design, ridge: float, start: Fit | None) -> tuple[Array, int]:
    m = model.x.shape[1] - 1
    penalty = np.zeros(model.params)
    penalty[:m] = ridge
    if model.covariate:
        penalty[-1] = ridge
    theta = np.zeros((model.batch, model.params))
    if start is not None:
        theta[:, :m], theta[:, m] = start.strengths[0], start.side[0]
        if model.covariate and start.covariate is not None:
            theta[:, -1] = start.covariate[0]
    return _newton(model, penalty, theta)


class _Cells:
    """What the design is, whatever the weights: debates with the same (pro, con)
    share a design row (a cell) x = e_pro - e_con + e_side, and the sparse
    matrices that sum over cells."""

    def __init__(self, games: Games) -> None:
        m = len(games.models)
        cells, cell = np.unique(
            np.stack([games.pro, games.con], axis=1), axis=0, return_inverse=True
        )
        self.cell = cell.reshape(-1)
        c = len(cells)
        x = np.zeros((c, m + 1))
        x[np.arange(c), cells[:, 0]] += 1.0
        x[np.arange(c), cells[:, 1]] -= 1.0
        x[:, m] = 1.0
        self.x = x
        self.xt = sparse.csr_array(x.T)
        self.pro, self.con = cells[:, 0], cells[:, 1]
        self.outer = _outer_products(self.pro, self.con, m)
        n = len(self.cell)
        self.sums = sparse.csr_array((np.ones(n), (self.cell, np.arange(n))), shape=(c, n))
        shape = (c, len(games.motions))
        # (cells x motions), duplicates summed: debates, and pro's wins.
        self.played = sparse.csr_array((np.ones(n), (self.cell, games.motion)), shape=shape)
        self.won = sparse.csr_array((games.y, (self.cell, games.motion)), shape=shape)


class _Design:
    """The likelihood's pieces for a block of weights. Without a covariate the fit
    needs only each cell's weighted games and wins, so it runs on cells. With one,
    on debates, with the Hessian still summed per cell.

    `rows` (the resamples still moving) selects the weights' rows: a resample that
    has converged costs nothing more. Products with the design go through sparse
    matrices (three non-zeros a row): besides being smaller, they run on one thread,
    where a dense BLAS product of this size slows down 30-fold on a loaded machine
    while its threads wait for cores."""

    def __init__(
        self, games: Games, weights: Array, covariate: bool, cells: _Cells | None = None
    ) -> None:
        cells = cells or _Cells(games)
        self.x, self._xt, self._outer = cells.x, cells.xt, cells.outer
        self.pro, self.con, self.cell, self._cells = cells.pro, cells.con, cells.cell, cells.sums
        self.covariate = covariate
        self.params = len(games.models) + 1 + int(covariate)
        self.batch = weights.shape[0]
        if covariate:
            assert games.z is not None
            self.w = weights[:, games.motion]  # (B, n)
            self.y, self.z = games.y, games.z
        else:
            self.games = np.ascontiguousarray((cells.played @ weights.T).T)
            self.wins = np.ascontiguousarray((cells.won @ weights.T).T)

    def _eta(self, theta: Array) -> Array:
        m = self.x.shape[1] - 1
        base = theta[:, self.pro] - theta[:, self.con] + theta[:, m : m + 1]  # (B, C)
        if not self.covariate:
            return base
        eta: Array = base[:, self.cell]
        eta += theta[:, -1:] * self.z[None, :]
        return eta

    def objective(
        self, theta: Array, penalty: Array, rows: NDArray[np.int64] | None = None
    ) -> Array:
        """The penalised log-likelihood per resample (of `rows`, default all)."""
        eta = self._eta(theta)
        if self.covariate:
            w = self.w if rows is None else self.w[rows]
            ll = (w * (self.y * eta - np.logaddexp(0.0, eta))).sum(axis=1)
        else:
            games, wins = (
                (self.games, self.wins) if rows is None else (self.games[rows], self.wins[rows])
            )
            ll = (wins * eta - games * np.logaddexp(0.0, eta)).sum(axis=1)
        value: Array = ll - 0.5 * (penalty * theta**2).sum(axis=1)
        return value

    def derivatives(
        self, theta: Array, penalty: Array, rows: NDArray[np.int64] | None = None
    ) -> tuple[Array, Array]:
        """The gradient and the negated Hessian (positive definite) per resample."""
        b, k = theta.shape
        p = expit(self._eta(theta))
        if not self.covariate:
            games, wins = (
                (self.games, self.wins) if rows is None else (self.games[rows], self.wins[rows])
            )
            grad = self._by_design(wins - games * p)
            hess = np.empty((b, k, k))
            hess[:] = self._cell_hessian(games * p * (1 - p))
        else:
            # In place where it can be: these are (resamples x debates) arrays.
            w = self.w if rows is None else self.w[rows]
            r = self.y - p
            r *= w
            v = 1 - p
            v *= p
            v *= w
            vz = v * self.z
            grad = np.empty((b, k))
            grad[:, :-1] = self._by_design(self._per_cell(r))
            grad[:, -1] = r @ self.z
            hess = np.empty((b, k, k))
            hess[:, :-1, :-1] = self._cell_hessian(self._per_cell(v))
            hess[:, :-1, -1] = hess[:, -1, :-1] = self._by_design(self._per_cell(vz))
            hess[:, -1, -1] = vz @ self.z
        return grad - penalty * theta, hess + np.diag(penalty)

    def _cell_hessian(self, v: Array) -> Array:
        """The sum over cells of v x x' (x = e_pro - e_con + e_side)."""
        k = self.x.shape[1]
        hess: Array = (self._outer @ v.T).T.reshape(v.shape[0], k, k)
        return hess

    def _by_design(self, v: Array) -> Array:
        """v @ x for x the cells' design rows."""
        product: Array = (self._xt @ v.T).T
        return product

    def _per_cell(self, values: Array) -> Array:
        sums: Array = (self._cells @ values.T).T
        return sums


def _outer_products(pro: NDArray[np.int64], con: NDArray[np.int64], m: int) -> sparse.csr_array:
    """Each cell's x x', flattened, as the columns of a sparse ((m + 1)^2 x cells)
    matrix: nine non-zeros a cell (pro, con and the side, h = m)."""
    k, h = m + 1, np.full(len(pro), m)
    entries: list[tuple[NDArray[np.int64], NDArray[np.int64], float]] = [
        (pro, pro, 1.0), (con, con, 1.0), (pro, con, -1.0), (con, pro, -1.0), (pro, h, 1.0),
        (h, pro, 1.0), (con, h, -1.0), (h, con, -1.0), (h, h, 1.0),
    ]  # fmt: skip
    rows = np.concatenate([a * k + b for a, b, _ in entries])
    signs = np.concatenate([np.full(len(pro), sign) for _, _, sign in entries])
    columns = np.tile(np.arange(len(pro)), len(entries))
    return sparse.csr_array((signs, (rows, columns)), shape=(k * k, len(pro)))


def _newton_step(hess: Array, grad: Array) -> Array:
    """Each resample's Newton step, hess^-1 grad. A resample in which one side won
    every debate drives the unpenalised side term towards infinity until its
    curvature underflows to zero and the Hessian is singular; the pseudo-inverse
    then leaves that direction where it is and still moves the strengths."""
    try:
        solved = np.linalg.solve(hess, grad[:, :, None])[:, :, 0]
    except np.linalg.LinAlgError:
        solved = np.einsum("bij,bj->bi", np.linalg.pinv(hess), grad)
    step: Array = np.asarray(solved, dtype=np.float64)
    return step


def _newton(model: _Design, penalty: Array, theta: Array) -> tuple[Array, int]:
    """Newton steps until no parameter moves by more than TOLERANCE, every resample
    at once; a resample that has converged is left where it is. A long step is
    checked against the objective and halved until it does not make things worse;
    a short one is within the range where the quadratic model of a logistic
    likelihood holds, and the objective (a pass over every debate) is not computed.
    Returns the parameters and the Newton steps of the slowest resample."""
    active = np.arange(model.batch)
    for iteration in range(1, MAX_ITERATIONS + 1):
        rows = None if len(active) == model.batch else active
        current = theta[active]
        grad, hess = model.derivatives(current, penalty, rows)
        step = _newton_step(hess, grad)
        trial = current + step
        long = np.flatnonzero(np.abs(step).max(axis=1) > SAFE_STEP)
        if len(long):
            chosen = active[long]
            checked = trial[long]
            _halve(model, penalty, chosen, current[long], step[long], checked)
            trial[long] = checked
        moved = np.abs(trial - current).max(axis=1)
        theta[active] = trial
        active = active[moved >= TOLERANCE]
        if not len(active):
            return theta, iteration
    return theta, MAX_ITERATIONS


def _halve(
    model: _Design,
    penalty: Array,
    rows: NDArray[np.int64] | None,
    theta: Array,
    step: Array,
    trial: Array,
) -> None:
    """Halve, in `trial`, each resample's step until the objective does not fall."""
    current = model.objective(theta, penalty, rows)
    scale = np.ones(len(theta))
    for _ in range(_HALVINGS):
        worse = model.objective(trial, penalty, rows) < current - 1e-12 * np.abs(current)
        if not worse.any():
            break
        scale[worse] /= 2
        trial[worse] = theta[worse] + scale[worse, None] * step[worse]


def separation(games: Games) -> list[list[str]]:
    """Groups of models that beat every model of the groups below in every debate,
    best group first; [] when the results connect everyone both ways.

    The maximum-likelihood ratings exist only when every model took at least a
    tie from every group it is compared with (the win graph is strongly
    connected); otherwise the gaps between groups are held only by the ridge.
    """
    m = len(games.models)
    beat = np.zeros((m, m))
    np.add.at(beat, (games.pro, games.con), games.y)
    np.add.at(beat, (games.con, games.pro), 1 - games.y)
    count, label = connected_components(beat > 0, directed=True, connection="strong")
    if count == 1:
        return []
    # A group above another beat it: rank groups by the share they won.
    won = beat.sum(axis=1) / np.maximum(beat.sum(axis=1) + beat.sum(axis=0), 1e-12)
    order = sorted(range(count), key=lambda g: -won[label == g].mean())
    return [[games.models[i] for i in np.flatnonzero(label == g)] for g in order]
