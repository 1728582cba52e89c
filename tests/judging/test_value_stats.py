"""`value_stats`: the mean and stderr of a score's value keys, with no `nan` for a key
no sample has a number for (Inspect's per-key form prints one row of `nan` per key)."""

from __future__ import annotations

import math

import pytest
from inspect_ai.scorer import SampleScore, Score, mean, stderr

from debatebench_eval.judging.metrics import (
    claims_supported,
    headline_shares,
    model_win_rate,
    value_stats,
)


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
    # Over zero scored samples the scorer's row says so, with no key.
    assert value_stats(["a"])([]) == {"scored_samples": 0.0}


def test_with_no_keys_named_every_key_found_is_reported_and_none_found_says_so() -> None:
    found = value_stats(with_stderr=False)(scores({"x": 1.0}, {"y": 2.0, "x": 3.0}))
    assert found == {"x": 2.0, "y": 2.0}
    assert value_stats()(scores(math.nan)) == {"scored_samples": 0.0}


def test_no_stderr_is_given_for_fewer_than_two_numbers() -> None:
    """One sample has no spread: its `stderr 0.000` row told a reader nothing."""
    found = value_stats(["a", "b"])(scores({"a": 1.0, "b": 2.0}, {"a": 3.0, "b": math.nan}))
    assert found["stderr.a"] == pytest.approx(stderr()(scores(1.0, 3.0)))
    assert found["stderr.b"] is None  # one number: left out of the results


def test_headline_shares_read_the_value_and_the_figures_with_no_stderr() -> None:
    def debate(flipped: float, resolved: float) -> SampleScore:
        figures = {"tier_resolved": resolved}
        return SampleScore(
            score=Score(value={"swap_flipped": flipped}, metadata={"figures": figures})
        )

    shares = headline_shares(["swap_flipped", "tier_resolved"])
    found = shares([debate(1.0, 0.0), debate(0.0, 1.0), debate(0.0, 1.0)])
    assert found == {"swap_flipped": pytest.approx(1 / 3), "tier_resolved": pytest.approx(2 / 3)}


def test_claims_supported_pools_both_sides_of_every_debate() -> None:
    def ledger(pro: tuple[float, float], con: tuple[float, float]) -> SampleScore:
        figures = {"pro_claims": pro[0], "pro_supported": pro[1],
                   "con_claims": con[0], "con_supported": con[1]}  # fmt: skip
        return SampleScore(score=Score(value={"x": 0.0}, metadata={"figures": figures}))

    assert claims_supported()([ledger((4, 1), (0, 0)), ledger((2, 2), (2, 0))]) == {
        "supported": 3 / 8
    }
    assert claims_supported()([ledger((0, 0), (0, 0))]) == {"supported": None}


def _paired(pro_model: str, con_model: str, pro_role_win: float, pair: str | None) -> SampleScore:
    figures = {"pro_role_win": pro_role_win, "pro_win": pro_role_win}
    meta = {"figures": figures, "models": {"pro": pro_model, "con": con_model}, "pair_id": pair}
    return SampleScore(score=Score(value={"margin": 1.0}, metadata=meta))


def test_each_models_win_rate_has_its_wilson_interval_from_two_debates() -> None:
    # Two pairs, sides exchanged in each half: a wins three of the four debates.
    games = [_paired("a", "b", 1, "p1"), _paired("b", "a", 0, "p1"),
             _paired("a", "b", 1, "p2"), _paired("b", "a", 1, "p2")]  # fmt: skip
    found = model_win_rate()(games)
    assert found["win_rate.a"] == 0.75 and found["win_rate.b"] == 0.25
    # Wilson's 95% interval of 3 of 4 (scipy's binomtest gives 0.301 to 0.954)
    assert found["win_rate_low.a"] == pytest.approx(0.3006, abs=1e-3)
    assert found["win_rate_high.a"] == pytest.approx(0.9544, abs=1e-3)
    assert found["win_rate_low.b"] == pytest.approx(1 - 0.9544, abs=1e-3)


def test_one_debate_or_one_model_has_no_interval_line() -> None:
    single = _paired("a", "b", 1, "p1").score.model_copy(update={"metadata": {
        **(_paired("a", "b", 1, "p1").score.metadata or {}), "pair_id": None}})  # fmt: skip
    assert not [k for k in model_win_rate()([SampleScore(score=single)]) if "_low" in k]
    same = [_paired("a", "a", 1, None), _paired("a", "a", 0, None)]  # type: ignore[arg-type]
    found = model_win_rate()(same)
    assert found["pro_side_win_rate"] == 0.5 and not [k for k in found if "_low" in k]
