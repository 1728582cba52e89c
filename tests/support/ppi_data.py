"""Outcomes for the PPI tests: humans' results, and a judge right some of the time."""

from __future__ import annotations

import numpy as np


def outcomes(rng: np.random.Generator, k: int, accuracy: float) -> tuple[np.ndarray, np.ndarray]:
    """Human outcomes (a tie a half; 0.6 on average) and a judge right `accuracy` of the
    time, whose errors flip the outcome."""
    y = rng.choice([0.0, 0.5, 1.0], size=k, p=[0.35, 0.1, 0.55])
    return y, np.where(rng.random(k) < accuracy, y, 1 - y)
