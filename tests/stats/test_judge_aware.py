"""The judge-aware Bradley-Terry: its gradient is exact, equal weights reproduce the
one Bradley-Terry fit of the same readings, and it finds a judge that answers at
random."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import check_grad

from debatebench_eval.stats.bradley_terry import Games, fit
from debatebench_eval.stats.judge_aware import Readings, _objective, fit_judges


def simulated(discrimination: tuple[float, ...], motions: int = 6, seed: int = 0,
              models: int = 6) -> Readings:  # fmt: skip
    rng = np.random.default_rng(seed)
    s = np.linspace(-1.2, 1.2, models)
    pairs = [(i, j, k) for k in range(motions) for i in range(models) for j in range(models)
             if i != j]  # fmt: skip
    pro, con, motion = (np.array(column) for column in zip(*pairs, strict=True))
    rows = [(p, c, k, j) for p, c, k in zip(pro, con, motion, strict=True)
            for j in range(len(discrimination))]  # fmt: skip
    p, c, k, j = (np.array(column) for column in zip(*rows, strict=True))
    a = np.array(discrimination)
    y = (rng.random(len(p)) < 1 / (1 + np.exp(-a[j] * (s[p] - s[c] + 0.2)))).astype(np.float64)
    return Readings(tuple(f"m{i}" for i in range(models)),
                    tuple(f"j{i}" for i in range(len(a))), motions, p, c, k, j, y)  # fmt: skip


def test_the_gradient_is_exact() -> None:
    readings = simulated((1.0, 0.5, 0.0), motions=2)
    w = np.random.default_rng(1).uniform(0.5, 2.0, len(readings.y))
    theta = np.random.default_rng(2).normal(0, 0.5, len(readings.models) + 1 + 3)
    error = check_grad(lambda t: _objective(t, readings, w, False)[0],
                       lambda t: _objective(t, readings, w, False)[1], theta)  # fmt: skip
    assert error < 1e-4


def test_equal_weights_are_the_one_bradley_terry_fit_of_every_reading() -> None:
    readings = simulated((1.0, 1.0), motions=3)
    games = Games(readings.models, ("q0", "q1", "q2"), readings.pro, readings.con,
                  readings.motion, readings.y)  # fmt: skip
    equal = fit_judges(readings, equal=True)
    plain = fit(games)
    assert equal.strengths[0] == pytest.approx(plain.strengths[0], abs=1e-4)
    assert equal.side[0] == pytest.approx(plain.side[0], abs=1e-4)
    assert equal.discrimination[0] == pytest.approx([1.0, 1.0])


def test_a_judge_answering_at_random_weighs_about_nothing() -> None:
    found = fit_judges(simulated((1.0, 1.0, 0.0), motions=20, seed=3))
    weights = found.discrimination[0]
    assert max(weights) == 1.0
    assert weights[2] < 0.2 < 0.8 < min(weights[:2])


def test_a_judge_half_as_sharp_weighs_about_half() -> None:
    found = fit_judges(simulated((1.0, 0.5), motions=20, seed=4))
    assert found.discrimination[0] == pytest.approx([1.0, 0.5], abs=0.15)


def test_each_resample_is_a_row() -> None:
    readings = simulated((1.0, 0.6), motions=4, seed=5)
    weights = np.array([[1.0] * 4, [2.0, 0.0, 1.0, 1.0]])
    found = fit_judges(readings, weights)
    assert found.strengths.shape == (2, 6) and found.discrimination.shape == (2, 2)
    assert found.strengths[0] == pytest.approx(fit_judges(readings).strengths[0], abs=1e-4)
