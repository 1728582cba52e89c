"""The one bootstrap: seeded, clustered, blocked without changing a draw."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from debatebench_eval.stats import bootstrap as bs
from debatebench_eval.stats.bootstrap import (
    RESAMPLES,
    SEED,
    cluster_draws,
    cluster_interval,
    cluster_weights,
    resampled,
    resampled_means,
)
from debatebench_eval.stats.intervals import percentile


def test_the_same_seed_draws_the_same_weights() -> None:
    assert np.array_equal(cluster_weights(10, seed=3), cluster_weights(10, seed=3))
    assert not np.array_equal(cluster_weights(10, seed=3), cluster_weights(10, seed=4))


def test_each_resample_draws_as_many_clusters_as_there_are() -> None:
    weights = cluster_weights(7, resamples=50, seed=0)
    assert weights.shape == (50, 7)
    assert (weights.sum(axis=1) == 7).all()
    assert (RESAMPLES, SEED) == (1000, 0)
    assert cluster_weights(4).shape == (1000, 4)


def test_the_default_seed_is_zero() -> None:
    assert np.array_equal(cluster_weights(6, resamples=20), cluster_weights(6, 20, seed=0))
    assert np.array_equal(cluster_draws(6, resamples=20), cluster_draws(6, 20, seed=0))


def test_the_draws_are_numpys_integers_from_the_seed() -> None:
    # What every published interval was drawn with: one (resamples x clusters) call.
    expected = np.random.default_rng(5).integers(0, 9, (40, 9))
    assert np.array_equal(cluster_draws(9, 40, seed=5), expected)
    assert not np.array_equal(cluster_draws(9, 40, seed=6), expected)


def test_the_block_changes_no_draw_and_no_mean(monkeypatch: pytest.MonkeyPatch) -> None:
    # 3,000 values: blocks of 83 resamples under the default, the last one shorter.
    values = np.arange(3000, dtype=np.float64)
    means = resampled_means(values, 2000, seed=0)
    assert means.shape == (2000,)
    draws = np.random.default_rng(0).integers(0, 3000, (2000, 3000))
    assert np.array_equal(means, values[draws].mean(1))
    monkeypatch.setattr(bs, "BLOCK_ELEMENTS", 7 * 3000)  # blocks of 7 resamples
    assert np.array_equal(resampled_means(values, 2000, seed=0), means)
    assert np.array_equal(cluster_draws(3000, 2000, seed=0), draws)


def test_a_statistic_is_computed_on_each_resamples_drawn_clusters() -> None:
    values = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    found = resampled(lambda rows: float(values[rows].max()), 5, 30, seed=2)
    assert np.array_equal(found, values[cluster_draws(5, 30, seed=2)].max(axis=1))


def test_a_paired_percentile_interval_is_scipys() -> None:
    """tau_c_ci's figures were scipy's `bootstrap(paired=True, method="percentile")`;
    the one bootstrap draws the same rows and so gives the same interval."""
    rng = np.random.default_rng(11)
    x = rng.integers(1, 6, 40).astype(float)
    y = x + rng.normal(0, 1.5, 40)

    def tau(a: np.ndarray, b: np.ndarray) -> float:
        return float(stats.kendalltau(a, b, variant="c").statistic)

    ours = percentile(resampled(lambda rows: tau(x[rows], y[rows]), 40, 300, seed=7))
    theirs = stats.bootstrap((x, y), tau, paired=True, vectorized=False, n_resamples=300,
                             method="percentile", rng=np.random.default_rng(7))  # fmt: skip
    interval = theirs.confidence_interval
    assert (float(ours[0]), float(ours[1])) == pytest.approx((interval.low, interval.high), 1e-12)


def test_a_drawn_cluster_brings_all_its_members() -> None:
    # Two clusters of three identical values each: a resample's mean is one of 0, 1/2, 1,
    # never a mix of single members, so the interval spans exactly [0, 1].
    items = [("a", 0.0)] * 3 + [("b", 1.0)] * 3
    seen: set[float] = set()

    def mean(found: list[tuple[str, float]]) -> float:
        value = float(np.mean([v for _, v in found]))
        seen.add(value)
        return value

    low, high = cluster_interval(items, lambda item: item[0], mean, resamples=200)
    assert seen == {0.0, 0.5, 1.0}
    assert (low, high) == (0.0, 1.0)


def test_a_cluster_interval_is_undefined_below_two_clusters_or_with_an_undefined_draw() -> None:
    items = [(0, 1.0), (1, 2.0)]
    assert all(math.isnan(v) for v in cluster_interval(items[:1], lambda i: i[0], len))
    low, high = cluster_interval(items, lambda i: i[0], lambda found: math.nan)
    assert math.isnan(low) and math.isnan(high)


def test_the_cluster_interval_is_seeded_and_its_resamples_are_the_callers() -> None:
    items = [(k, float(v)) for k, v in enumerate(np.random.default_rng(1).normal(size=12))]

    def mean(found: list[tuple[int, float]]) -> float:
        return float(np.mean([v for _, v in found]))

    first = cluster_interval(items, lambda i: i[0], mean, resamples=300, seed=4)
    assert first == cluster_interval(items, lambda i: i[0], mean, resamples=300, seed=4)
    assert first != cluster_interval(items, lambda i: i[0], mean, resamples=300, seed=5)
    values = np.array([v for _, v in items])
    expected = percentile(values[cluster_draws(12, 300, seed=4)].mean(1))
    assert first == pytest.approx((float(expected[0]), float(expected[1])))
