"""The one confidence level and the intervals: Wilson, percentile, widened, clamped."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from debatebench_eval.stats.intervals import (
    LEVEL,
    Estimate,
    percentile,
    share,
    share_difference,
    t_quantile,
    tails,
    widened,
    widening,
    wilson,
)


def test_the_level_is_95_percent_and_its_tails_are_the_central_interval() -> None:
    assert LEVEL == 0.95
    assert tails() == pytest.approx((0.025, 0.975))
    assert tails(0.5) == (0.25, 0.75)
    assert t_quantile(9) == pytest.approx(stats.t.ppf(0.975, 9))
    assert t_quantile(9, 0.8) == pytest.approx(stats.t.ppf(0.9, 9))


def test_the_written_out_wilson_interval_is_scipys() -> None:
    for n in range(1, 41):
        for successes in range(n + 1):
            found = wilson(successes, n)
            ci = stats.binomtest(successes, n).proportion_ci(0.95, method="wilson")
            assert found is not None
            assert (found.low, found.high) == pytest.approx((ci.low, ci.high), abs=1e-12)
            # Exact at the ends and around the share: error bars of it are never negative.
            assert found.low <= found.value <= found.high
            assert (found.low == 0.0) == (successes == 0) and (found.high == 1.0) == (
                successes == n
            )


def test_wilson_takes_its_level_counts_a_tie_as_half_and_has_nothing_for_no_trial() -> None:
    found = wilson(7, 10)
    assert found is not None and (found.low, found.high) == pytest.approx((0.3968, 0.8922), 1e-3)
    assert (found.n, found.null) == (10, 0.5)
    assert wilson(0, 0) is None
    narrow = wilson(7, 10, level=0.5)
    ci = stats.binomtest(7, 10).proportion_ci(0.5, method="wilson")
    assert narrow is not None and (narrow.low, narrow.high) == pytest.approx((ci.low, ci.high))
    half = wilson(2.5, 4)
    assert half is not None and half.value == 0.625 and half.low < 0.625 < half.high


def test_an_estimate_is_flagged_when_its_interval_leaves_out_the_null() -> None:
    assert Estimate(0.7, 0.55, 0.8, 10, 0.5).flagged
    assert not Estimate(0.7, 0.5, 0.8, 10, 0.5).flagged
    assert Estimate(0.7, 0.55, 0.8, 10, 0.5).as_dict() == {
        "value": 0.7, "low": 0.55, "high": 0.8, "n": 10, "flagged": True,
    }  # fmt: skip


def test_the_widening_factor_follows_its_formula() -> None:
    for k in (2, 10, 40):
        expected = stats.t.ppf(0.975, k - 1) / stats.norm.ppf(0.975) * math.sqrt(k / (k - 1))
        assert widening(k) == pytest.approx(expected)
    assert widening(10) == pytest.approx(1.2157, abs=1e-3)
    assert widening(10_000) == pytest.approx(1.0, abs=1e-3)
    assert math.isnan(widening(1))


def test_the_interval_widens_the_percentiles_about_the_estimate() -> None:
    draws = np.arange(1001, dtype=float)[:, None]  # percentiles 25 and 975
    low, high = widened(np.array([500.0]), draws, factor=2.0)
    assert low[0] == pytest.approx(500 - 2 * 475)
    assert high[0] == pytest.approx(500 + 2 * 475)
    same_low, same_high = widened(np.array([500.0]), draws, factor=1.0)
    assert (same_low[0], same_high[0]) == pytest.approx((25.0, 975.0))


def test_each_statistic_gets_its_own_percentiles() -> None:
    # Two statistics on very different scales: pooling them would mix their spreads.
    draws = np.stack([np.arange(1001.0), 10_000 + np.arange(1001.0) / 10], axis=1)
    low, high = widened(np.array([500.0, 10_050.0]), draws, factor=1.0)
    assert low.tolist() == pytest.approx([25.0, 10_002.5])
    assert high.tolist() == pytest.approx([975.0, 10_097.5])


def test_a_resample_that_diverged_raises_no_floating_point_warning() -> None:
    draws = np.array([[1.0, np.inf], [2.0, np.inf], [3.0, 5.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        low, _ = widened(np.array([2.0, 1.0]), draws, factor=1.5)
    assert low[0] == pytest.approx(2.0 + 1.5 * (1.05 - 2.0))
    assert np.isinf(low[1])


def test_an_undefined_resample_voids_a_percentile_interval_unless_skipped() -> None:
    draws = np.array([1.0, 2.0, np.nan, 4.0, 5.0])
    assert all(math.isnan(float(bound)) for bound in percentile(draws))
    low, high = percentile(draws, skip_nan=True)
    assert (float(low), float(high)) == pytest.approx(np.quantile([1, 2, 4, 5], [0.025, 0.975]))
    # The widened interval leaves such a resample out of its own figure only.
    both = np.column_stack([draws, np.full(5, 3.0)])
    wide_low, _ = widened(np.array([3.0, 3.0]), both, factor=1.0)
    assert wide_low[0] == pytest.approx(float(low)) and wide_low[1] == 3.0


def test_a_percentile_of_ranks_takes_the_nearest_rank() -> None:
    ranks = np.array([[1], [2], [2], [3]] * 10)
    low, high = percentile(ranks, method="nearest")
    assert (float(low[0]), float(high[0])) == (1.0, 3.0)


def test_a_share_interval_is_clamped_to_0_1_and_holds_its_value() -> None:
    # The shipped leaderboard's "Pro won 0.667 [0.219, 1.563]", a widened interval.
    assert share(2 / 3, 0.219, 1.563) == (2 / 3, 0.219, 1.0)
    assert share(0.1, -0.3, 0.5) == (0.1, 0.0, 0.5)
    # A percentile interval that misses its estimate is stretched to hold it.
    assert share(0.9, 0.2, 0.8) == (0.9, 0.2, 0.9)
    assert share(0.1, 0.2, 0.8) == (0.1, 0.1, 0.8)
    # A normal-approximation estimate past the range is the range's end.
    assert share(1.2, 0.9, 1.5) == (1.0, 0.9, 1.0)
    value, low, high = share(0.5, math.nan, math.nan)
    assert value == 0.5 and math.isnan(low) and math.isnan(high)
    arrays = share(np.array([0.2, 0.9]), np.array([-0.1, 0.95]), np.array([0.3, 1.4]))
    assert [a.tolist() for a in arrays] == [[0.2, 0.9], [0.0, 0.9], [0.3, 1.0]]
    assert all(isinstance(x, float) for x in share(0.5, 0.1, 0.9))


def test_a_difference_of_shares_lies_in_minus_1_to_1() -> None:
    assert share_difference(-0.4, -1.3, 0.2) == (-0.4, -1.0, 0.2)
    assert share_difference(0.8, 0.3, 1.7) == (0.8, 0.3, 1.0)
    assert share_difference(-0.4, -0.3, 0.2) == (-0.4, -0.4, 0.2)
