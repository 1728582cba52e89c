"""Intervals by design and the stopping rule: the round robin's are the leaderboard's,
the adaptive design's hold the rating and the fit's own interval, and a tournament
stops for a reason it can name."""

from __future__ import annotations

import time

import numpy as np
import pytest

from debatebench_eval.matches.results import eligible_debates
from debatebench_eval.stats.bradley_terry import ELO_PER_LOGIT, Games, fit, information
from debatebench_eval.stats.design import (
    PRIOR_MODELS,
    TAU2_RANGE,
    covariance,
    posterior,
    posterior_draws,
    rating_intervals,
    stop_reason,
)
from debatebench_eval.tournament.standings import Options, games_of, standings

from support.tournaments import leaderboard_results, synthetic_results


def random_games(models: int, debates: int, seed: int = 0, spread: float = 1.0) -> Games:
    """Random pairs (both sides of each) on a motion per matchup, from strengths N(0, spread^2)."""
    rng = np.random.default_rng(seed)
    s = rng.normal(0.0, spread, models)
    pairs = np.array([rng.choice(models, 2, replace=False) for _ in range(debates // 2)])
    pro = np.concatenate([pairs[:, 0], pairs[:, 1]])
    con = np.concatenate([pairs[:, 1], pairs[:, 0]])
    motion = np.tile(np.arange(len(pairs)) % 40, 2)
    p = 1 / (1 + np.exp(-(s[pro] - s[con] + 0.3)))
    return Games(
        tuple(f"m{i:02d}" for i in range(models)), tuple(f"q{k}" for k in range(40)),
        pro.astype(np.int64), con.astype(np.int64), motion.astype(np.int64),
        (rng.random(len(p)) < p).astype(np.float64),
    )  # fmt: skip


def test_the_round_robin_interval_is_the_leaderboards() -> None:
    strengths = {f"ollama/m{i}": s for i, s in enumerate([-0.8, -0.2, 0.1, 0.4, 0.9])}
    results = synthetic_results(strengths, motions=8, seed=3)
    board = standings(results, sorted(strengths), ("ollama/j1",), Options(resamples=400, seed=5))
    rated = sorted(strengths)
    ratings, low, high = rating_intervals(
        games_of(eligible_debates(results), rated), "round_robin", 400, 5
    )
    rows = {row["model"]: row["rating"] for row in board["models"]}
    for i, model in enumerate(rated):
        assert ratings[i] == pytest.approx(rows[model]["value"], abs=1e-9)
        assert low[i] == pytest.approx(rows[model]["low"], abs=1e-9)
        assert high[i] == pytest.approx(rows[model]["high"], abs=1e-9)


def test_the_adaptive_interval_lies_between_its_two_posteriors_and_holds_the_rating() -> None:
    games = random_games(10, 300)
    ratings, low, high = rating_intervals(games, "adaptive", 0, 0)
    assert ratings.mean() == pytest.approx(1000.0)
    assert np.all(low <= ratings) and np.all(ratings <= high)
    z = 1.959964
    m = len(games.models)
    centring = np.eye(m) - 1.0 / m
    flat_sd = ELO_PER_LOGIT * np.sqrt(np.diag(centring @ covariance(games, fit(games), 1e-3)
                                              @ centring))  # fmt: skip
    board = posterior(games)
    centre = 1000 + ELO_PER_LOGIT * board.mean
    board_sd = ELO_PER_LOGIT * np.sqrt(np.diag(centring @ board.covariance @ centring))
    lows = np.stack([ratings - z * flat_sd, centre - z * board_sd])
    highs = np.stack([ratings + z * flat_sd, centre + z * board_sd])
    # An equal mixture's quantile lies between its components' quantiles.
    assert np.all(low >= lows.min(axis=0) - 1e-6) and np.all(
        low <= np.maximum(lows.max(axis=0), ratings) + 1e-6
    )
    assert np.all(high <= highs.max(axis=0) + 1e-6) and np.all(
        high >= np.minimum(highs.min(axis=0), ratings) - 1e-6
    )
    narrow = rating_intervals(games, "adaptive", 0, 0, level=0.5)
    assert np.all(narrow[2] - narrow[1] < high - low)


def test_the_adaptive_rank_ranges_are_drawn_from_the_posterior_its_intervals_come_from() -> None:
    games = random_games(10, 300)
    _, low, high = rating_intervals(games, "adaptive", 0, 0)
    draws = posterior_draws(games, 20000, seed=1)
    assert np.array_equal(draws, posterior_draws(games, 20000, seed=1)), "seeded"
    centred = 1000 + ELO_PER_LOGIT * (draws - draws.mean(axis=1, keepdims=True))
    drawn_low, drawn_high = np.percentile(centred, [2.5, 97.5], axis=0)
    assert drawn_low == pytest.approx(low, abs=8.0) and drawn_high == pytest.approx(high, abs=8.0)


def test_an_adaptive_boards_rank_ranges_are_read_from_those_draws() -> None:
    strengths = {f"ollama/m{i}": s for i, s in enumerate([-0.8, -0.2, 0.1, 0.4, 0.9])}
    results = synthetic_results(strengths, motions=8, seed=3)
    rated = sorted(strengths)
    board = standings(results, rated, ("ollama/j1",),
                      Options(resamples=400, seed=5, design="adaptive"))  # fmt: skip
    draws = posterior_draws(games_of(eligible_debates(results), rated), 400, 5)
    ranks = (-draws).argsort(axis=1).argsort(axis=1) + 1
    low, high = np.percentile(ranks, [2.5, 97.5], axis=0, method="nearest")
    found = {row["model"]: row["rank_range"] for row in board["models"]}
    assert [found[m] for m in rated] == [[int(a), int(b)] for a, b in zip(low, high, strict=True)]


def test_the_adaptive_interval_is_fast_at_leaderboard_scale() -> None:
    games = random_games(30, 600)
    rating_intervals(games, "adaptive", 0, 0)  # imports and caches warm
    start = time.perf_counter()
    rating_intervals(games, "adaptive", 0, 0)
    assert time.perf_counter() - start < 1.0


def test_an_unknown_design_is_refused() -> None:
    with pytest.raises(ValueError, match="round_robin, adaptive"):
        rating_intervals(random_games(4, 20), "swiss", 10, 0)


def test_the_prior_is_fitted_to_the_boards_spread() -> None:
    results, truth = leaderboard_results(20, 200, 2000, words_effect=0.0)
    models = sorted(truth)
    board = posterior(games_of(eligible_debates(results), models))
    true = np.array([truth[m] for m in models])
    assert board.tau2 == pytest.approx(true.var(), rel=0.25)
    # Even models: the spread falls to what the hyperprior's pseudo-models hold up.
    even = random_games(8, 400, spread=0.0)
    assert TAU2_RANGE[0] <= posterior(even).tau2 <= PRIOR_MODELS / (PRIOR_MODELS + 8) + 0.1


def test_pro_winning_every_debate_leaves_a_covariance() -> None:
    games = Games(("a", "b"), ("q0",), np.array([0, 1]), np.array([1, 0]), np.array([0, 0]),
                  np.array([1.0, 1.0]))  # fmt: skip
    cov = covariance(games, fit(games), 1.0)
    assert np.all(np.isfinite(cov)) and cov[0, 0] > 0


@pytest.mark.parametrize(
    ("low", "high", "width", "reason"),
    [
        ([1090, 990, 890], [1110, 1010, 910], 100.0, "every interval at most 100 wide"),
        ([1000, 900, 800], [1200, 999, 899], 100.0, "every adjacent pair separated"),
        ([1000, 900, 800], [1200, 999, 899], None, "every adjacent pair separated"),
        ([1000, 900, 800], [1200, 1001, 899], 100.0, None),
        ([1090, 990, 890], [1110, 1095, 910], None, None),
        ([np.nan, 990, 890], [1110, 1010, 910], 1000.0, None),
    ],
)
def test_the_stopping_rule_names_its_reason(
    low: list[float], high: list[float], width: float | None, reason: str | None
) -> None:
    ratings = np.array([1100.0, 1000.0, 900.0])
    assert stop_reason(ratings, np.array(low), np.array(high), width) == reason


def test_the_stopping_rule_reads_the_ranking_not_the_order_given() -> None:
    ratings = np.array([900.0, 1100.0, 1000.0])
    low, high = np.array([850.0, 1050.0, 951.0]), np.array([949.0, 1150.0, 1049.0])
    assert stop_reason(ratings, low, high, None) == "every adjacent pair separated"
    assert stop_reason(np.array([1000.0]), np.array([900.0]), np.array([1100.0]), None) is None


def test_the_information_is_the_negated_hessian_of_the_penalised_likelihood() -> None:
    games = random_games(5, 120, seed=2)
    ridge = 0.5
    result = fit(games, ridge=ridge)
    theta = np.append(result.strengths[0], result.side[0])

    def penalised(t: np.ndarray) -> float:
        eta = t[games.pro] - t[games.con] + t[-1]
        ll = games.y * eta - np.logaddexp(0.0, eta)
        return float(ll.sum() - 0.5 * ridge * (t[:-1] ** 2).sum())

    h, k = 1e-4, len(theta)
    numeric = np.empty((k, k))
    for i in range(k):
        for j in range(k):
            e_i, e_j = np.eye(k)[i] * h, np.eye(k)[j] * h
            numeric[i, j] = -(
                penalised(theta + e_i + e_j) - penalised(theta + e_i - e_j)
                - penalised(theta - e_i + e_j) + penalised(theta - e_i - e_j)
            ) / (4 * h * h)  # fmt: skip
    assert information(games, result, ridge=ridge) == pytest.approx(numeric, abs=1e-4)
