"""Panels of judges of known discrimination on simulated boards: how close to the
true strengths the judge-aware Bradley-Terry comes, against weighting every judge
alike (every reading one game) and against the panel's majority verdict (what the
leaderboard's rating reads).

Each repetition: `models` models at the normal quantiles (sd `sd` logits), a round
robin over `motions` motions with each side once, a pro advantage of 0.2 logits;
every judge reads every debate, a judge of discrimination a giving pro the debate
with probability sigma(a (s_pro - s_con + h)). The truth is the strengths on the
good judges' scale (a = 1); errors are in rating points (173.7 a logit).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit, ndtri
from scipy.stats import spearmanr

from debatebench_eval.stats.bradley_terry import ELO_PER_LOGIT, Games, fit
from debatebench_eval.stats.judge_aware import Readings, fit_judges

Array = NDArray[np.float64]
METHODS = ("judge-aware", "equal weights", "majority verdict")


@dataclass(frozen=True)
class Scores:
    """Per method, per repetition: Spearman with the truth and mean absolute error."""

    spearman: dict[str, list[float]]
    error: dict[str, list[float]]


def panel_readings(
    rng: np.random.Generator, strengths: Array, motions: int, panel: tuple[float, ...]
) -> Readings:
    m = len(strengths)
    pairs = [(i, j, k) for k in range(motions) for i in range(m) for j in range(m) if i != j]
    pro, con, motion = (np.array(c) for c in zip(*pairs, strict=True))
    a = np.array(panel)
    judge = np.tile(np.arange(len(a)), len(pro))
    rows = np.repeat(np.arange(len(pro)), len(a))
    eta = a[judge] * (strengths[pro[rows]] - strengths[con[rows]] + 0.2)
    y = (rng.random(len(rows)) < expit(eta)).astype(np.float64)
    return Readings(tuple(f"m{i}" for i in range(m)), tuple(f"j{i}" for i in range(len(a))),
                    motions, pro[rows], con[rows], motion[rows], judge, y)  # fmt: skip


def majority(readings: Readings, judges: int) -> Games:
    """One game per debate, pro's result the judges' majority (half on an even split)."""
    y = readings.y.reshape(-1, judges).mean(axis=1)
    y = np.where(y > 0.5, 1.0, np.where(y < 0.5, 0.0, 0.5))
    first = slice(None, None, judges)
    return Games(readings.models, tuple(str(k) for k in range(readings.motions)),
                 readings.pro[first], readings.con[first], readings.motion[first], y)  # fmt: skip


def compare(
    repetitions: int, *, models: int = 10, motions: int = 4, sd: float = 0.8,
    panel: tuple[float, ...] = (1.0, 1.0, 0.0), seed: int = 0,
) -> Scores:  # fmt: skip
    rng = np.random.default_rng(seed)
    truth = sd * ndtri((np.arange(models) + 0.5) / models)
    truth -= truth.mean()
    spearman: dict[str, list[float]] = {k: [] for k in METHODS}
    error: dict[str, list[float]] = {k: [] for k in METHODS}
    for _ in range(repetitions):
        readings = panel_readings(rng, truth, motions, panel)
        found = {
            "judge-aware": fit_judges(readings).strengths[0],
            "equal weights": fit_judges(readings, equal=True).strengths[0],
            "majority verdict": fit(majority(readings, len(panel))).strengths[0],
        }
        for name, strengths in found.items():
            spearman[name].append(float(spearmanr(strengths, truth)[0]))
            error[name].append(float(np.abs(strengths - truth).mean() * ELO_PER_LOGIT))
    return Scores(spearman, error)
