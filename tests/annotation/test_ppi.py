"""PPI++ rules: power tuning leans on a judge only as far as it helps, and the labels
it says would halve the interval do. (Against ppi-python and coverage: test_ppi_checks.)"""

from __future__ import annotations

import numpy as np

from debatebench_eval.annotation.ppi import _moments, ppi_mean, variance

from support.ppi_data import outcomes

RNG_SEED = 7


def test_lambda_falls_to_zero_for_a_judge_that_knows_nothing() -> None:
    rng = np.random.default_rng(RNG_SEED)
    y, _ = outcomes(rng, 80, 1.0)
    noise, unlabelled = rng.random(80), rng.random(400)
    found = ppi_mean(y, noise, unlabelled)
    # Power tuning: a useless judge costs (almost) nothing over the humans alone.
    assert found.lam < 0.15
    assert found.high - found.low < 1.05 * (found.classical_high - found.classical_low)


def test_a_good_judge_narrows_the_interval() -> None:
    rng = np.random.default_rng(RNG_SEED)
    (y, yhat), (_, unlabelled) = outcomes(rng, 60, 0.95), outcomes(rng, 2000, 0.95)
    found = ppi_mean(y, yhat, unlabelled)
    assert found.lam > 0.7
    assert found.high - found.low < 0.7 * (found.classical_high - found.classical_low)


def test_labels_to_halve_do_halve_the_variance_formula() -> None:
    rng = np.random.default_rng(RNG_SEED)
    (y, yhat), (_, unlabelled) = outcomes(rng, 40, 0.85), outcomes(rng, 4000, 0.85)
    found = ppi_mean(y, yhat, unlabelled)
    assert found.labels_to_halve is not None
    total = found.n + found.N
    need = found.labels_to_halve
    value = found.value
    y2, yh2, u2 = (np.asarray(a, float).reshape(-1, 1) - value for a in (y, yhat, unlabelled))
    moments = _moments(y2, yh2, u2, np.eye(1))
    now = variance(moments, found.n, found.N, found.lam)
    assert variance(moments, need, total - need)[0] <= now[0] / 4
    assert variance(moments, need - 1, total - need + 1)[0] > now[0] / 4
    # With far more judged debates than labels, about four times the labels halve it.
    assert 3 * found.n <= need <= 5 * found.n
