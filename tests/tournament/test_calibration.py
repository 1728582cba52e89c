"""What the scale means: log-loss and Brier of the fitted win probabilities, in
sample and held out by motion, against answers worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from debatebench_eval.stats.bradley_terry import Games, fit
from debatebench_eval.tournament.calibration import (
    calibration,
    cross_validated,
    folds,
    table,
)

# The fit's small ridge moves these two-model answers by about 1e-4.
CLOSE = 2e-3


def two_models(a_pro: list[float], b_pro: list[float]) -> Games:
    """A argues pro against B on every motion (pro's results a_pro), then B pro (b_pro)."""
    n = len(a_pro)
    return Games(
        ("a", "b"), tuple(f"q{i}" for i in range(n)),
        np.array([0] * n + [1] * n), np.array([1] * n + [0] * n),
        np.array(list(range(n)) * 2), np.array(a_pro + b_pro, dtype=np.float64),
    )  # fmt: skip


def loss(y: float, p: float) -> float:
    return -(y * math.log(p) + (1 - y) * math.log(1 - p))


A_PRO = [1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.5, 1.0]  # A as pro: 7.5 of 10
B_PRO = [0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]  # B as pro: 3 of 10


def test_in_sample_scores_are_those_of_the_two_pro_win_shares() -> None:
    # Two models, two design rows: the fit reproduces each row's pro win share.
    data = two_models(A_PRO, B_PRO)
    report = calibration(data, fit(data), None)
    expected = np.mean([loss(y, 0.75) for y in A_PRO] + [loss(y, 0.3) for y in B_PRO])
    brier = np.mean([(0.75 - y) ** 2 for y in A_PRO] + [(0.3 - y) ** 2 for y in B_PRO])
    assert report["in_sample"]["log_loss"] == pytest.approx(expected, abs=CLOSE)
    assert report["in_sample"]["brier"] == pytest.approx(brier, abs=CLOSE)
    assert report["points_per_logit"] == pytest.approx(400 / math.log(10))
    assert report["in_sample_length_controlled"] is None


def test_held_out_scores_leave_each_motion_out_of_its_own_fit() -> None:
    # 10 motions, 10 folds: each motion's two debates are predicted from the shares
    # on the other nine motions, by hand.
    data = two_models(A_PRO, B_PRO)
    held = cross_validated(data, covariate=False)
    assert held is not None and held["folds"] == 10 and held["by"] == "motion"
    losses, squares, share_losses = [], [], []
    for f in range(10):
        a = (sum(A_PRO) - A_PRO[f]) / 9
        b = (sum(B_PRO) - B_PRO[f]) / 9
        pro_share = (sum(A_PRO) + sum(B_PRO) - A_PRO[f] - B_PRO[f]) / 18
        for y, p in ((A_PRO[f], a), (B_PRO[f], b)):
            losses.append(loss(y, p))
            squares.append((p - y) ** 2)
            share_losses.append(loss(y, pro_share))
    assert held["log_loss"] == pytest.approx(np.mean(losses), abs=CLOSE)
    assert held["brier"] == pytest.approx(np.mean(squares), abs=CLOSE)
    assert held["baselines"]["pro_win_share"]["log_loss"] == pytest.approx(np.mean(share_losses))
    assert held["baselines"]["coin"] == {"log_loss": math.log(2), "brier": 0.25}
    # Held out is worse than in sample, as it should be for an honest figure.
    assert held["log_loss"] > calibration(data, fit(data), None)["in_sample"]["log_loss"]


def test_folds_hold_out_every_kth_motion_and_need_two_motions() -> None:
    assert folds(23).tolist() == [i % 10 for i in range(23)]
    assert folds(3).tolist() == [0, 1, 2]
    assert cross_validated(two_models([1.0], [0.0]), covariate=False) is None


def test_the_table_groups_predictions_by_probability() -> None:
    y = np.array([1.0, 0.0, 1.0, 0.5, 0.0])
    p = np.array([0.1, 0.3, 0.9, 0.95, 0.2])  # 0.2 falls in the second bin
    rows = table(y, p)
    assert [r["debates"] for r in rows] == [1, 2, 0, 0, 2]
    assert rows[1]["mean_predicted"] == pytest.approx(0.25) and rows[1]["observed"] == 0.0
    assert rows[4]["observed"] == pytest.approx(0.75)
    assert math.isnan(rows[2]["mean_predicted"]) and rows[0]["predicted"] == [0.0, 0.2]


def test_a_length_controlled_fit_is_scored_with_its_covariate() -> None:
    # Pro wins exactly when it spoke longer: the covariate explains everything, so
    # the length-controlled fit scores far better than the ratings alone.
    # Each motion: A pro, then B pro; the longer side alternates by motion, so each
    # pairing's pro won half its debates.
    z = np.array([1.0, -1.0, -1.0, 1.0] * 5)
    y = (z > 0).astype(np.float64)
    data = Games(
        ("a", "b"), tuple(f"q{i}" for i in range(10)),
        np.array([0, 1] * 10), np.array([1, 0] * 10), np.repeat(np.arange(10), 2), y, z,
    )  # fmt: skip
    report = calibration(data, fit(data), fit(data, covariate=True))
    assert report["in_sample"]["log_loss"] == pytest.approx(math.log(2), abs=1e-3)
    assert report["in_sample_length_controlled"]["log_loss"] < 0.05
    assert report["cross_validated_length_controlled"]["log_loss"] < 0.1
