"""The cluster bootstrap over motions and its corrected interval."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from debatebench_eval.tournament.bootstrap import (
    DEFAULT_RESAMPLES,
    interval,
    motion_weights,
    widening,
)


def test_the_same_seed_draws_the_same_weights() -> None:
    assert np.array_equal(motion_weights(10, seed=3), motion_weights(10, seed=3))
    assert not np.array_equal(motion_weights(10, seed=3), motion_weights(10, seed=4))


def test_each_resample_draws_as_many_motions_as_there_are() -> None:
    weights = motion_weights(7, resamples=50, seed=0)
    assert weights.shape == (50, 7)
    assert (weights.sum(axis=1) == 7).all()
    assert DEFAULT_RESAMPLES == 1000
    assert motion_weights(4).shape == (1000, 4)


def test_the_widening_factor_follows_its_formula() -> None:
    for k in (2, 10, 40):
        expected = stats.t.ppf(0.975, k - 1) / stats.norm.ppf(0.975) * math.sqrt(k / (k - 1))
        assert widening(k) == pytest.approx(expected)
    assert widening(10) == pytest.approx(1.2157, abs=1e-3)
    assert widening(10_000) == pytest.approx(1.0, abs=1e-3)
    assert math.isnan(widening(1))


def test_the_interval_widens_the_percentiles_about_the_estimate() -> None:
    draws = np.arange(1001, dtype=float)[:, None]  # percentiles 25 and 975
    low, high = interval(np.array([500.0]), draws, factor=2.0)
    assert low[0] == pytest.approx(500 - 2 * 475)
    assert high[0] == pytest.approx(500 + 2 * 475)
    same_low, same_high = interval(np.array([500.0]), draws, factor=1.0)
    assert (same_low[0], same_high[0]) == pytest.approx((25.0, 975.0))


def test_the_default_seed_is_zero() -> None:
    assert np.array_equal(motion_weights(6, resamples=20), motion_weights(6, 20, seed=0))


def test_each_statistic_gets_its_own_percentiles() -> None:
    # Two statistics on very different scales: pooling them would mix their spreads.
    draws = np.stack([np.arange(1001.0), 10_000 + np.arange(1001.0) / 10], axis=1)
    low, high = interval(np.array([500.0, 10_050.0]), draws, factor=1.0)
    assert low.tolist() == pytest.approx([25.0, 10_002.5])
    assert high.tolist() == pytest.approx([975.0, 10_097.5])


def test_a_resample_that_diverged_raises_no_floating_point_warning() -> None:
    draws = np.array([[1.0, np.inf], [2.0, np.inf], [3.0, 5.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        low, _ = interval(np.array([2.0, 1.0]), draws, factor=1.5)
    assert low[0] == pytest.approx(2.0 + 1.5 * (1.05 - 2.0))
    assert np.isinf(low[1])
