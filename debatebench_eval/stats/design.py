"""Rating intervals that respect how the debates were chosen, and when an adaptive
tournament may stop.

The ratings are the one Bradley-Terry fit (`bradley_terry.fit`) of every outcome,
whatever the design: the likelihood of the outcomes does not depend on how past
outcomes chose the pairs. Their intervals do.

- **Round robin** (every pair on every motion): the leaderboard's interval, a
  cluster bootstrap over motions, widened for few motions
  (`intervals.widening`), exactly as `tournament rate` computes it.
- **Adaptive** (the next pairs chosen from the outcomes so far, `stats.active`):
  the average of two posteriors. A pair that looks settled stops being
  debated, so a model that drew lucky early wins keeps its inflated rating:
  adaptively collected data are biased (Nie et al., 2018). In simulation (30
  models, 870 debates of the adaptive schedule) the top model's fitted rating
  was 131 points too high on average; the motion bootstrap, which takes the
  chosen pairs as fixed, covered the true ratings 83-90% of the time, and the
  fit's own Wald interval (observed information) 90%. A posterior depends on
  the design only through the likelihood, so it stays calibrated under any
  rule that chooses pairs from past outcomes, for a prior that fits the
  board. Two priors, each wrong somewhere:

  - flat (the leaderboard's ridge): the fit itself, and its Wald interval; it
    trusts the inflated ratings of models with few debates;
  - the board's spread, strengths N(0, tau^2), tau^2 by EM (marginal
    likelihood, Laplace approximation, with PRIOR_MODELS pseudo-models at
    tau = 1 logit so that a board with few outcomes cannot collapse it): it
    undoes the inflation, but over-shrinks a board that is not normal (the
    public leaderboard's top ten within 100 points, 91-92% coverage there).

  The interval is the central 95% of their equal mixture (Bayesian model
  averaging over the two priors), each rating relative to the mean of all
  models, stretched where needed to hold the printed rating. Measured
  coverage under the adaptive schedule (tests/stats/test_adaptive_simulation.py
  and the benchmarks page): 0.97-0.98 on 12 and 30 models and on the packed
  board, from a few hundred debates on: conservative, about 10% wider than the
  two posteriors' own intervals, narrower than their union. It is analytic:
  about 30 ms for 30 models and a few thousand debates.

Stopping (`stop_reason`): every interval at most W wide, or every pair of
neighbours in the ranking separated (their intervals do not overlap).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr  # type: ignore[import-untyped]

from debatebench_eval.stats import bootstrap as bs
from debatebench_eval.stats.bradley_terry import (
    ELO_PER_LOGIT,
    RIDGE,
    Fit,
    Games,
    elo,
    fit,
    information,
)
from debatebench_eval.stats.intervals import LEVEL, Array, tails, widened, widening

DESIGNS = ("round_robin", "adaptive")
# The prior's variance (logits^2): fitted by EM, kept between sd 0.5 and 2.5 logits
# (87 to 434 rating points), starting from sd 1 (174 points, a typical board's).
TAU2_RANGE = (0.25, 6.25)
TAU2_START = 1.0
EM_STEPS = 50
# tau^2's own prior: as if PRIOR_MODELS more models had strengths of variance
# TAU2_START. Early in a tournament the marginal likelihood of tau^2 is flat and EM
# can take it to the floor; the scheduler then over-shrinks and ranks worse
# (12 models, 132 debates: Spearman 0.862 without, 0.896 with 8).
PRIOR_MODELS = 8.0
EM_TOLERANCE = 1e-3  # relative change of tau^2
SIDE_PRIOR = 0.01  # the side advantage's precision in the covariance (sd 10 logits)


@dataclass(frozen=True)
class Posterior:
    """The board under the prior N(0, tau^2) on each strength: the strengths' mean
    (logits, mean zero), the side advantage, the strengths' covariance (Laplace),
    and tau^2."""

    mean: Array
    side: float
    covariance: Array
    tau2: float


def posterior(games: Games) -> Posterior:
    """The empirical-Bayes posterior of the strengths (module docstring): tau^2 by EM,
    each step the mean of the posterior's s^2, until it moves by under EM_TOLERANCE."""
    tau2, result = TAU2_START, None
    for _ in range(EM_STEPS):
        result = fit(games, ridge=1.0 / tau2, start=result)
        cov = covariance(games, result, 1.0 / tau2)
        second = float(np.sum(result.strengths[0] ** 2 + np.diag(cov)))
        pooled = (PRIOR_MODELS * TAU2_START + second) / (PRIOR_MODELS + len(cov))
        new = float(np.clip(pooled, *TAU2_RANGE))
        done = abs(new - tau2) <= EM_TOLERANCE * tau2
        tau2 = new
        if done:
            break
    result = fit(games, ridge=1.0 / tau2, start=result)
    cov = covariance(games, result, 1.0 / tau2)
    return Posterior(result.strengths[0], float(result.side[0]), cov, tau2)


def covariance(games: Games, result: Fit, ridge: float) -> Array:
    """The strengths' Laplace covariance at a fit with this ridge: the inverse of the
    observed information, the side advantage given a vague N(0, 10^2) prior there
    (pro winning every debate sends the fit's side advantage to infinity, and its
    curvature to zero)."""
    m = len(games.models)
    info = information(games, result, ridge=ridge)
    info[m, m] += SIDE_PRIOR
    cov: Array = np.linalg.inv(info)[:m, :m].astype(np.float64)
    return cov


def rating_intervals(
    games: Games, design: str, resamples: int, seed: int, level: float = LEVEL
) -> tuple[Array, Array, Array]:
    """Point ratings (Elo scale, mean 1000 as `elo` gives) and their `level`
    intervals, for the design the games came from ("round_robin" or "adaptive").

    Round robin: the leaderboard's widened cluster bootstrap over motions
    (`resamples`, `seed`; NaN bounds below two motions). Adaptive: the
    empirical-Bayes posterior interval (analytic: `resamples` and `seed` are not
    used)."""
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {', '.join(DESIGNS)}, not {design!r}")
    full = fit(games)
    ratings = elo(full.strengths)[0]
    if design == "round_robin":
        return ratings, *_bootstrap(games, full, ratings, resamples, seed, level)
    return ratings, *_posterior_interval(games, full, ratings, level)


def _bootstrap(
    games: Games, full: Fit, ratings: Array, resamples: int, seed: int, level: float
) -> tuple[Array, Array]:
    """What `tournament.standings` computes for the ratings (anchor: the mean)."""
    weights = bs.cluster_weights(len(games.motions), resamples, seed)
    cells = len(np.unique(games.pro * len(games.models) + games.con))
    draws = fit(games, weights, start=full, block=bs.block_rows(cells))
    return widened(ratings, elo(draws.strengths), widening(len(games.motions), level), level)


def _posterior_interval(
    games: Games, full: Fit, ratings: Array, level: float
) -> tuple[Array, Array]:
    """The central `level` interval of the two posteriors averaged: the flat
    prior's (the fit's own, about `ratings`) and the board prior's (empirical
    Bayes), each normal, with equal weight; stretched to hold the rating."""
    flat_sd = _rating_sd(covariance(games, full, RIDGE))
    board = posterior(games)
    centre, board_sd = elo(board.mean[None, :])[0], _rating_sd(board.covariance)
    means, sds = np.stack([ratings, centre]), np.stack([flat_sd, board_sd])
    low_tail, high_tail = tails(level)
    low = np.minimum(_mixture_quantile(means, sds, low_tail), ratings)
    high = np.maximum(_mixture_quantile(means, sds, high_tail), ratings)
    return low, high


def posterior_draws(games: Games, count: int, seed: int) -> Array:
    """`count` draws of the strengths (logits, one row each) from the equal mixture of
    the flat and the board posteriors that `rating_intervals` gives an adaptive
    design's intervals from: each draw comes from one of the two, chosen at random.
    What a rank range needs under that design (a bootstrap's would take the chosen
    pairs as fixed, as its intervals do)."""
    full = fit(games)
    board = posterior(games)
    rng = np.random.default_rng(seed)
    flat = rng.multivariate_normal(full.strengths[0], covariance(games, full, RIDGE), count)
    shrunk = rng.multivariate_normal(board.mean, board.covariance, count)
    chosen: Array = np.where(rng.random(count)[:, None] < 0.5, flat, shrunk)
    return chosen


def _mixture_quantile(means: Array, sds: Array, q: float) -> Array:
    """The q quantile of an equal mixture of normals (rows), per column, by bisection
    to well under a thousandth of a rating point."""
    low = (means - 10 * sds).min(axis=0)
    high = (means + 10 * sds).max(axis=0)
    for _ in range(60):
        mid = (low + high) / 2
        below = ndtr((mid - means) / np.maximum(sds, 1e-12)).mean(axis=0) < q
        low, high = np.where(below, mid, low), np.where(below, high, mid)
    found: Array = (low + high) / 2
    return found


def _rating_sd(covariance: Array) -> Array:
    """Each rating's sd in rating points, relative to the mean of all models."""
    m = len(covariance)
    centring = np.eye(m) - 1.0 / m
    variance = np.diag(centring @ covariance @ centring)
    sd: Array = ELO_PER_LOGIT * np.sqrt(np.maximum(variance, 0.0))
    return sd


def stop_reason(ratings: Array, low: Array, high: Array, target_width: float | None) -> str | None:
    """Why an adaptive tournament can stop: "every interval at most W wide" (W the
    target, when one is given) or "every adjacent pair separated" (in the order of
    the ratings, each model's interval lies wholly above the next one's), or None.
    A NaN bound satisfies neither."""
    ratings, low, high = (np.asarray(x, dtype=np.float64) for x in (ratings, low, high))
    if len(ratings) == 0 or np.isnan(low).any() or np.isnan(high).any():
        return None
    if target_width is not None and bool(np.all(high - low <= target_width)):
        return f"every interval at most {target_width:g} wide"
    order = np.argsort(-ratings, kind="stable")
    if len(order) > 1 and bool(np.all(low[order[:-1]] > high[order[1:]])):
        return "every adjacent pair separated"
    return None
