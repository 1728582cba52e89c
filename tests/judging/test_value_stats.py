"""`value_stats`: the mean and stderr of a score's value keys, with no `nan` for a key
no sample has a number for (Inspect's per-key form prints one row of `nan` per key)."""

from __future__ import annotations

import math

import pytest
from inspect_ai.scorer import SampleScore, Score, mean, stderr

from debatebench_eval.judging.metrics import value_stats


def scores(*values: float | dict[str, float]) -> list[SampleScore]:
    return [SampleScore(score=Score(value=v), sample_id=i) for i, v in enumerate(values)]


def test_each_named_key_is_inspects_mean_and_stderr_over_the_samples_that_have_a_number() -> None:
    found = value_stats(["b", "a"])(
        scores({"a": 1.0, "b": 4.0}, {"a": 3.0, "b": math.nan}, math.nan, {"a": 8.0, "b": 6.0})
    )
    # The order given, every mean before every stderr: the viewer's header shows a
    # row's first few metrics, cut to about nine characters.
    assert list(found) == ["b", "a", "stderr.b", "stderr.a"]
    over = scores(1.0, 3.0, 8.0)
    assert found["a"] == mean()(over) and found["stderr.a"] == pytest.approx(stderr()(over))
    assert found["b"] == 5.0  # the NaN and the unscored sample are left out


def test_a_key_with_no_number_in_any_sample_is_left_out_not_nan() -> None:
    found = value_stats(["a", "swap_flipped"], with_stderr=False)(
        scores({"a": 2.0, "swap_flipped": math.nan}, math.nan)
    )
    assert found == {"a": 2.0, "swap_flipped": None}
    # Over zero scored samples (what Inspect calls it with then) every key is left out.
    assert value_stats(["a"])([]) == {"a": None, "stderr.a": None}


def test_with_no_keys_named_every_key_found_is_reported_and_none_found_says_so() -> None:
    found = value_stats(with_stderr=False)(scores({"x": 1.0}, {"y": 2.0, "x": 3.0}))
    assert found == {"x": 2.0, "y": 2.0}
    assert value_stats()(scores(math.nan)) == {"scored_samples": 0.0}
