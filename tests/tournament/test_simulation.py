"""Correctness shown, not assumed: tournaments drawn from known Bradley-Terry
strengths and a known side advantage, fitted and bootstrapped as `rate` does.

Each of 200 tournaments: 6 models, 10 motions, every pair on every motion from
both sides; P(pro wins) = sigma(s_pro - s_con + h + u_motion), with a motion-level
side effect u ~ N(0, 0.5^2) that makes debates on one motion correlated (what
the cluster bootstrap is for). The true h is the mean side advantage, 0.3.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import kendalltau

from debatebench_eval.stats.bootstrap import cluster_weights
from debatebench_eval.stats.bradley_terry import Games, fit
from debatebench_eval.stats.intervals import widened, widening

STRENGTHS = np.array([-1.0, -0.5, -0.2, 0.1, 0.5, 1.1]) - np.mean([-1.0, -0.5, -0.2, 0.1, 0.5, 1.1])
SIDE = 0.3
MOTIONS = 10
TOURNAMENTS = 200


def schedule() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pro, con, motion = [], [], []
    models = len(STRENGTHS)
    for k in range(MOTIONS):
        for i in range(models):
            for j in range(i + 1, models):
                pro += [i, j]
                con += [j, i]
                motion += [k, k]
    return np.array(pro), np.array(con), np.array(motion)


def test_the_fit_recovers_the_order_and_the_intervals_cover_the_truth() -> None:
    pro, con, motion = schedule()
    rng = np.random.default_rng(20240601)
    truth = np.append(STRENGTHS, SIDE)
    covered, taus, top = [], [], 0
    factor = widening(MOTIONS)
    for t in range(TOURNAMENTS):
        motion_effect = rng.normal(0.0, 0.5, MOTIONS)
        p = 1 / (1 + np.exp(-(STRENGTHS[pro] - STRENGTHS[con] + SIDE + motion_effect[motion])))
        y = (rng.random(len(p)) < p).astype(np.float64)
        games = Games(tuple("abcdef"), tuple(f"q{k}" for k in range(MOTIONS)), pro, con, motion, y)
        full = fit(games)
        boot = fit(games, cluster_weights(MOTIONS, 1000, seed=t), start=full)
        estimate = np.append(full.strengths[0], full.side[0])
        draws = np.column_stack([boot.strengths, boot.side])
        low, high = widened(estimate, draws, factor)
        covered.append((low <= truth) & (truth <= high))
        taus.append(kendalltau(full.strengths[0], STRENGTHS).statistic)
        top += int(np.argmax(full.strengths[0]) == np.argmax(STRENGTHS))
    coverage = np.array(covered)
    pooled, per_parameter = coverage.mean(), coverage.mean(axis=0)
    print(f"\ncoverage pooled {pooled:.3f}, per parameter {np.round(per_parameter, 3)}, "
          f"Kendall tau mean {np.mean(taus):.3f} min {np.min(taus):.3f}, "
          f"top model right {top}/{TOURNAMENTS}")  # fmt: skip
    assert 0.90 <= pooled <= 0.98
    # One parameter over 200 tournaments has about ±1.5% noise: a floor, no ceiling.
    assert (per_parameter >= 0.85).all()
    assert np.mean(taus) >= 0.85 and np.min(taus) >= 0.5
    assert top >= 0.9 * TOURNAMENTS
