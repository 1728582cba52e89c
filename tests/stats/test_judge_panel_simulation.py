"""Two good judges and one answering at random: the judge-aware Bradley-Terry comes
closer to the true strengths than equal weights, by Spearman and by mean absolute
rating error (issue 46; the figure is the robustness benchmark's)."""

from __future__ import annotations

import numpy as np

from support.judge_panels import compare


def test_judge_aware_weights_beat_equal_weights_with_a_random_judge() -> None:
    scores = compare(40, seed=1)
    aware, equal = "judge-aware", "equal weights"
    assert np.mean(scores.spearman[aware]) > np.mean(scores.spearman[equal])
    assert np.mean(scores.error[aware]) < 0.7 * np.mean(scores.error[equal])
    # Repetition by repetition, not only on average.
    wins = np.array(scores.error[aware]) < np.array(scores.error[equal])
    assert wins.mean() > 0.8


def test_with_three_good_judges_the_order_is_the_same_and_the_scale_costs_a_little() -> None:
    """The judge-aware scale is its sharpest judge's, and the largest of three noisy
    discriminations is biased upwards: the ratings spread a little too far."""
    scores = compare(20, panel=(1.0, 1.0, 1.0), seed=2)
    aware, equal = "judge-aware", "equal weights"
    assert abs(np.mean(scores.spearman[aware]) - np.mean(scores.spearman[equal])) < 0.01
    assert (
        np.mean(scores.error[equal])
        < np.mean(scores.error[aware])
        < 1.4 * np.mean(scores.error[equal])
    )
