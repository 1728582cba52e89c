"""PPI++ checked two ways: against the authors' package, ppi-python, on the same data
(its numba functions compile for 18 s on first use, so this file is slow), and by
simulation with a known truth: the 95% intervals cover it about 95% of the time."""

from __future__ import annotations

import numpy as np
import pytest

from debatebench_eval.annotation.ppi import ppi_logistic, ppi_mean

from support.ppi_data import outcomes

RNG_SEED = 7
REPEATS = 300


def test_the_mean_is_ppi_pythons() -> None:
    rng = np.random.default_rng(RNG_SEED)
    (y, yhat), (_, unlabelled) = outcomes(rng, 60, 0.8), outcomes(rng, 500, 0.8)
    from ppi_py import ppi_mean_ci

    ours = ppi_mean(y, yhat, unlabelled)
    low, high = ppi_mean_ci(y, yhat, unlabelled, alpha=0.05)
    assert ours.low == pytest.approx(low, abs=1e-12)
    assert ours.high == pytest.approx(high, abs=1e-12)
    assert 0 < ours.lam < 1


def _logistic_data(rng: np.random.Generator, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.column_stack([np.ones(k), rng.normal(size=k), rng.normal(size=k)])
    p = 1 / (1 + np.exp(-(x @ np.array([0.3, 1.0, -0.5]))))
    y = (rng.random(k) < p).astype(float)
    return x, y, np.where(rng.random(k) < 0.85, y, 1 - y)


@pytest.mark.filterwarnings("ignore::FutureWarning")  # scikit-learn, inside ppi-python
def test_logistic_regression_is_ppi_pythons() -> None:
    rng = np.random.default_rng(RNG_SEED)
    (x, y, yhat), (xu, _, yhat_u) = _logistic_data(rng, 150), _logistic_data(rng, 1500)
    from ppi_py import ppi_logistic_ci

    ours = ppi_logistic(x, y, yhat, xu, yhat_u)
    low, high = ppi_logistic_ci(x, y, yhat, xu, yhat_u, alpha=0.05)
    # Their optimiser is L-BFGS to ftol 1e-15, ours Newton's method: the same optimum.
    np.testing.assert_allclose(ours.low, low, atol=1e-5)
    np.testing.assert_allclose(ours.high, high, atol=1e-5)


def test_the_mean_interval_covers_the_truth() -> None:
    # Truth: E[Y] = 0.55 * 1 + 0.1 * 0.5 = 0.6; a judge right 80% of the time whose
    # errors flip the outcome (so its own mean is biased, 0.6 * 0.8 + 0.4 * 0.2 = 0.56).
    rng = np.random.default_rng(RNG_SEED)
    covered = 0
    for _ in range(REPEATS):
        (y, yhat), (_, unlabelled) = outcomes(rng, 100, 0.8), outcomes(rng, 1000, 0.8)
        found = ppi_mean(y, yhat, unlabelled)
        covered += bool(found.low[0] <= 0.6 <= found.high[0])
    assert 0.91 <= covered / REPEATS <= 0.99


def test_the_logistic_interval_covers_the_truth() -> None:
    rng = np.random.default_rng(RNG_SEED)
    truth = np.array([0.3, 1.0, -0.5])
    covered = np.zeros(3)
    for _ in range(REPEATS):
        (x, y, yhat), (xu, _, yhat_u) = _logistic_data(rng, 200), _logistic_data(rng, 1000)
        found = ppi_logistic(x, y, yhat, xu, yhat_u)
        covered += (found.low <= truth) & (truth <= found.high)
    assert np.all((covered / REPEATS >= 0.91) & (covered / REPEATS <= 0.99)), covered / REPEATS
