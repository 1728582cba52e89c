"""The validation statistics as plain functions, against the real data.

Reference figures: debatebench 0.1.2's qwen3:8b run over the 631 speeches
(tau-c +0.547, tau-b +0.520, per-source bias) and the human ceilings of the
Debatable Intelligence data (0.405 over 64 annotators, 0.362 by position).
"""

from __future__ import annotations

import ast
import csv
import json
import math
import warnings
from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from scipy.stats import kendalltau  # type: ignore[import-untyped]

from debatebench_eval.trust.stats import (
    Row,
    ValidationSummary,
    _other_topic_ranks,
    annotator_taus,
    calibration,
    human_ceiling_by_annotator,
    human_ceiling_by_position,
    position_taus,
    source_baseline,
    summarise,
    tau_b,
    tau_c,
    tau_c_ci,
    why_undefined,
    within_group_tau,
)

from support.paths import ROOT
from support.terminal import assert_printed_whole, printed

DATA = ROOT / "validation" / "data.csv"
QWEN = ROOT / "tests" / "fixtures" / "validation" / "judge-scores-qwen3-8b-full.json"


@cache
def speeches() -> tuple[dict[str, str], ...]:
    # CRLF line ends and newlines inside quoted fields: csv with newline="".
    with DATA.open(newline="", encoding="utf-8") as f:
        return tuple(csv.DictReader(f))


@cache
def qwen_results() -> dict[str, dict[str, float]]:
    results = json.loads(QWEN.read_text(encoding="utf-8"))["results"]
    return {r["id"]: r for r in results}


def row(speech: dict[str, str], score: float | None) -> Row:
    ratings = tuple(ast.literal_eval(speech["goodopeningspeech"]))
    return Row(
        id=speech["id"],
        score=score,
        human_mean=sum(ratings) / len(ratings),
        source=speech["source"],
        topic_id=int(speech["topic_id"]),
        ratings=ratings,
        labelers=tuple(ast.literal_eval(speech["labeler_ids"])),
    )


@cache
def qwen_rows() -> tuple[Row, ...]:
    judged = qwen_results()
    return tuple(row(s, judged[s["id"]]["score"]) for s in speeches())


@cache
def qwen_summary() -> ValidationSummary:
    return summarise(qwen_rows())


def test_the_recorded_judge_covers_every_speech_with_the_same_human_mean() -> None:
    judged = qwen_results()
    assert len(speeches()) == len(judged) == 631
    for r, s in zip(qwen_rows(), speeches(), strict=True):
        assert r.human_mean == pytest.approx(judged[s["id"]]["human_mean"], abs=1e-12)


def test_qwen3_8b_reproduces_debatebench_figures() -> None:
    summary = qwen_summary()
    assert (summary.n, summary.n_scored, summary.parse_rate) == (631, 631, 1.0)
    assert summary.tau_c == pytest.approx(0.547, abs=0.0005)
    assert summary.tau_b == pytest.approx(0.520, abs=0.0005)
    assert summary.distinct_values == 5
    assert summary.judge_mean is not None and round(summary.judge_mean, 2) == 2.85
    assert summary.human_mean is not None and round(summary.human_mean, 2) == 3.61
    assert summary.bias == pytest.approx(2.846 - 3.606, abs=0.001)


def test_qwen3_8b_bias_by_source_matches_debatebench() -> None:
    expected = {
        "Arg-Human1": -0.01,
        "Human expert": -0.10,
        "Arg-Human2": -0.18,
        "Arg-Search": -0.95,
        "Project Debater": -0.98,
        "Summit": -1.03,
        "Arg-GPT2": -1.46,
        "Speech-GPT2": -1.52,
    }
    by_source = qwen_summary().bias_by_source
    assert set(by_source) == set(expected)
    for source, bias in expected.items():
        assert by_source[source] == pytest.approx(bias, abs=0.005), source


def test_qwen3_8b_context_figures() -> None:
    summary = qwen_summary()
    assert summary.tau_c_low is not None and summary.tau_c_high is not None
    assert summary.tau_c is not None and summary.tau_c_low < summary.tau_c < summary.tau_c_high
    assert (round(summary.tau_c_low, 3), round(summary.tau_c_high, 3)) == (0.502, 0.588)
    # Knowing only the source ranks the speeches better than this judge does.
    assert summary.source_baseline_tau_c == pytest.approx(0.578, abs=0.0005)
    assert summary.within_source_tau == pytest.approx(0.244, abs=0.0005)
    assert summary.within_topic_tau == pytest.approx(0.568, abs=0.0005)


def test_human_ceilings_reproduce_from_the_data() -> None:
    ratings = [r.ratings for r in qwen_rows()]
    labelers = [r.labelers for r in qwen_rows()]
    assert len(annotator_taus(ratings, labelers)) == 64
    assert round(human_ceiling_by_annotator(ratings, labelers), 3) == 0.405
    assert round(human_ceiling_by_position(ratings), 3) == 0.362
    summary = qwen_summary()
    assert summary.ceiling_annotators == 64
    assert summary.ceiling_by_annotator is not None
    assert round(summary.ceiling_by_annotator, 3) == 0.405
    assert summary.ceiling_by_position is not None
    assert round(summary.ceiling_by_position, 3) == 0.362


def test_tau_is_none_when_a_side_is_constant() -> None:
    assert tau_c([3, 3, 3], [1.0, 2.0, 3.0]) is None
    assert tau_b([3, 3, 3], [1.0, 2.0, 3.0]) is None
    assert tau_c([1, 2, 3], [2.0, 2.0, 2.0]) is None
    assert tau_c([], []) is None
    # Tau-c reaches 1 for a tied judge that never misorders; tau-b does not.
    assert tau_c([1, 1, 2, 2], [1.0, 2.0, 3.0, 4.0]) == 1.0
    assert tau_b([1, 1, 2, 2], [1.0, 2.0, 3.0, 4.0]) == pytest.approx(4 / 24**0.5)
    with pytest.raises(ValueError, match="single distinct value"):
        tau_c_ci([3, 3, 3], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="2 values"):
        tau_c([1, 2], [1.0, 2.0, 3.0])


def test_a_constant_judge_has_no_tau_and_reports_nan() -> None:
    rows = [replace(r, score=3) for r in qwen_rows()[:60]]
    summary = summarise(rows)
    assert summary.tau_c is None and summary.tau_b is None
    assert summary.tau_c_low is None and summary.tau_c_high is None
    assert summary.within_source_tau is None and summary.distinct_values == 1
    metrics = summary.as_metrics()
    # The headline stays (NaN); the other undefined figures are left out (None).
    assert math.isnan(metrics["tau_c"]) and metrics["tau_c_low"] is None  # type: ignore[arg-type]
    assert metrics["parse_rate"] == 1.0
    undefined = [name for name, value in metrics.items() if value is None or value != value]
    assert why_undefined(undefined, rows) == {
        **{
            name: "the judge gave all 60 rated speeches the same score (3): a constant ranks "
            "nothing"
            for name in ("tau_c", "tau_c_low", "tau_c_high", "tau_b", "within_source_tau",
                         "within_topic_tau")
        },
        "source_baseline_tau_c": "no source of the rated speeches appears in two or more topics",
        "ceiling_by_annotator": "no annotator rated 30 or more of these 60 speeches",
    }  # fmt: skip


def test_with_nothing_rated_every_judge_figure_says_so() -> None:
    rows = [replace(r, score=None) for r in qwen_rows()[:8]]
    metrics = summarise(rows).as_metrics()
    assert metrics["parse_rate"] == 0.0 and metrics["bias"] is None
    reasons = why_undefined(["tau_c", "judge_mean", "source_baseline_tau_c"], rows)
    assert set(reasons.values()) == {
        "none of the 8 speeches was rated (no reply held a score from 1 to 5)"
    }


def _varied(scores: list[float], means: list[float]) -> list[Row]:
    """Speeches each of its own source and topic, each with one human rating."""
    return [
        Row(id=f"s{i}", score=score, human_mean=mean, source=f"source{i}", topic_id=i,
            ratings=(round(mean),), labelers=(1,))
        for i, (score, mean) in enumerate(zip(scores, means, strict=True))
    ]  # fmt: skip


def test_each_undefined_figure_of_a_small_varied_sample_says_why_in_its_own_words() -> None:
    rows = _varied([1, 2, 3, 4], [1.0, 2.0, 3.0, 4.0])
    metrics = summarise(rows, resamples=100).as_metrics()
    assert metrics["tau_c"] == 1.0
    undefined = [name for name, value in metrics.items() if value is None or value != value]
    resamples = (
        "some bootstrap resamples held one distinct score (too few, or too nearly constant, "
        "ratings): no interval rather than one over the lucky resamples"
    )
    assert why_undefined(undefined, rows) == {
        "tau_c_low": resamples,
        "tau_c_high": resamples,
        "source_baseline_tau_c": "no source of the rated speeches appears in two or more topics",
        "within_source_tau": "no source has two distinct judge scores and two distinct human means",
        "within_topic_tau": "no topic has two distinct judge scores and two distinct human means",
        "ceiling_by_annotator": "no annotator rated 30 or more of these 4 speeches",
        "ceiling_by_position": (
            "no rating position has a defined tau-c (a speech with one rating has no others)"
        ),
    }


def test_a_judge_figure_against_one_human_mean_says_so() -> None:
    # Varied judge scores against one human mean: nothing to rank the judge against.
    rows = _varied([1, 2, 3, 4], [2.0, 2.0, 2.0, 2.0])
    summary = summarise(rows, resamples=100)
    assert summary.tau_c is None and summary.tau_b is None
    reason = "all 4 rated speeches have the same human mean (2): nothing to rank the judge against"
    assert why_undefined(["tau_c", "tau_b"], rows) == {"tau_c": reason, "tau_b": reason}


def test_unparsed_rows_lower_the_parse_rate_and_are_left_out() -> None:
    rows = list(qwen_rows()[:120])
    unparsed = {3, 17, 40, 41, 99}
    mixed = [replace(r, score=None) if i in unparsed else r for i, r in enumerate(rows)]
    kept = [r for i, r in enumerate(rows) if i not in unparsed]
    summary = summarise(mixed, resamples=200)
    assert (summary.n, summary.n_scored) == (120, 115)
    assert summary.parse_rate == pytest.approx(115 / 120)
    assert summary.tau_c == tau_c([r.score or 0 for r in kept], [r.human_mean for r in kept])
    assert summary.tau_c == summarise(kept, resamples=200).tau_c
    assert summary.bias == summarise(kept, resamples=200).bias
    as_zero = [replace(r, score=0) if r.score is None else r for r in mixed]
    assert summary.tau_c != summarise(as_zero, resamples=200).tau_c
    # The ceilings describe the data, so they still use every row.
    assert summary.ceiling_by_position == summarise(rows, resamples=200).ceiling_by_position


def test_a_judge_that_never_parses_has_no_statistics() -> None:
    summary = summarise([replace(r, score=None) for r in qwen_rows()[:40]])
    assert (summary.n_scored, summary.parse_rate) == (0, 0.0)
    assert summary.tau_c is None and summary.bias is None and summary.judge_mean is None
    assert summary.bias_by_source == {} and summary.distinct_values == 0
    assert summary.ceiling_by_position is not None


def test_the_ci_brackets_the_estimate_and_is_deterministic() -> None:
    rows = qwen_rows()[:150]
    pred = [r.score or 0 for r in rows]
    gold = [r.human_mean for r in rows]
    point = tau_c(pred, gold)
    low, high = tau_c_ci(pred, gold, resamples=300, seed=7)
    assert point is not None and -1 <= low < point < high <= 1
    assert tau_c_ci(pred, gold, resamples=300, seed=7) == (low, high)
    assert tau_c_ci(pred, gold, resamples=300, seed=8) != (low, high)
    narrow = tau_c_ci(pred, gold, resamples=300, seed=7, confidence=0.5)
    assert low < narrow[0] < narrow[1] < high


def test_one_set_of_rows_gives_one_interval_in_any_order() -> None:
    rows = list(qwen_rows()[:120])
    forward = summarise(rows, resamples=200)
    backward = summarise(rows[::-1], resamples=200)
    shuffled = summarise(rows[1::2] + rows[::2], resamples=200)
    assert forward.tau_c_low is not None and forward.tau_c_high is not None
    assert (forward.tau_c_low, forward.tau_c_high) == (backward.tau_c_low, backward.tau_c_high)
    assert (forward.tau_c_low, forward.tau_c_high) == (shuffled.tau_c_low, shuffled.tau_c_high)


def test_no_interval_when_resamples_can_be_degenerate() -> None:
    # One speech in five has the only other judge value: about a third of the
    # resamples miss it and have no tau-c, so there is no honest interval.
    pred, gold = [1, 2, 1, 1, 1], [1.0, 2.0, 1.5, 1.2, 1.1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        low, high = tau_c_ci(pred, gold, resamples=100)
    assert math.isnan(low) and math.isnan(high)
    rows = [
        Row(
            id=f"s{i}",
            score=p,
            human_mean=g,
            source="s",
            topic_id=i,
            ratings=(1, 2),
            labelers=(1, 2),
        )
        for i, (p, g) in enumerate(zip(pred, gold, strict=True))
    ]
    summary = summarise(rows, resamples=100)
    assert summary.tau_c == tau_c(pred, gold)
    assert summary.tau_c_low is None and summary.tau_c_high is None


def test_the_source_baseline_does_not_peek_at_the_speech_topic() -> None:
    # Topic 1's outlier (A=5) makes A the better source only if topic 1 is
    # counted; predicted from the other topics, topic 1 ranks B above A.
    gold = [5.0, 1.0, 1.0, 2.0, 1.0, 2.0]
    sources = ["A", "B", "A", "B", "A", "B"]
    topics = [1, 1, 2, 2, 3, 3]
    honest = tau_c([0, 1, 1, 0, 1, 0], gold)
    peeking = tau_c([1, 0, 1, 0, 1, 0], gold)
    assert honest == -1.0 and peeking == pytest.approx(-1 / 9)
    assert source_baseline(gold, sources, topics) == honest


def test_the_source_baseline_ties_speeches_of_one_source() -> None:
    # Leave-one-out means would order A's speeches in reverse (4.75, 4.5, 4.25
    # for gold 4, 4.5, 5) and count those pairs discordant; ranks tie them.
    gold = [4.0, 4.5, 5.0, 1.0, 1.5, 2.0]
    sources = ["A", "A", "A", "B", "B", "B"]
    assert source_baseline(gold, sources, [1, 2, 3, 1, 2, 3]) == 1.0
    # A source seen in one topic only has no honest prediction and is left out.
    assert source_baseline([*gold, 3.0], [*sources, "C"], [1, 2, 3, 1, 2, 3, 1]) == 1.0


def test_within_group_tau_averages_defined_groups_only() -> None:
    pred = [1, 2, 3, 3, 2, 1, 4, 4]
    gold = [1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0, 2.0]
    groups = ["x", "x", "x", "y", "y", "y", "z", "z"]
    # x agrees perfectly, y perfectly reversed, z has one judge value: skipped.
    assert within_group_tau(pred, gold, groups) == pytest.approx(0.0)
    assert within_group_tau(pred[:3], gold[:3], groups[:3]) == 1.0
    assert within_group_tau(pred[6:], gold[6:], groups[6:]) is None


def test_calibration_is_judge_minus_human() -> None:
    by_source, bias = calibration([2, 4, 1], [3.0, 3.5, 2.0], ["b", "a", "b"])
    assert by_source == {"a": 0.5, "b": -1.0}
    assert list(by_source) == ["a", "b"]
    assert bias == pytest.approx(7 / 3 - 8.5 / 3)
    with pytest.raises(ValueError):
        calibration([], [], [])


def test_small_subsets_have_no_annotator_ceiling() -> None:
    rows = qwen_rows()[:10]
    summary = summarise(rows, resamples=100)
    assert summary.ceiling_by_annotator is None and summary.ceiling_annotators == 0
    with pytest.raises(ValueError, match="30 rated speeches"):
        human_ceiling_by_annotator([r.ratings for r in rows], [r.labelers for r in rows])
    assert summary.as_metrics()["ceiling_by_annotator"] is None
    with pytest.raises(ValueError, match="no speeches"):
        summarise([])


def test_as_metrics_is_flat_and_numeric() -> None:
    metrics = qwen_summary().as_metrics()
    assert metrics["n"] == 631.0 and metrics["ceiling_annotators"] == 64.0
    assert metrics["tau_c"] == qwen_summary().tau_c  # the headline, defined, as it is
    assert metrics["bias.Arg-GPT2"] == pytest.approx(-1.46, abs=0.005)
    assert "bias_by_source" not in metrics
    assert all(isinstance(v, float) for v in metrics.values())
    assert sum(key.startswith("bias.") for key in metrics) == 8
    assert_printed_whole(metrics)


def test_a_bracketed_name_would_lose_its_qualifier_on_the_terminal() -> None:
    # Why the names carry none: Inspect prints them as rich markup.
    assert "fell[shuffled.clarity]" not in printed(["fell[shuffled.clarity]"])


# Small hand-made data, computed afresh in each test: a summary cached by a
# test module outlives a change to the statistics made after it was computed.
GOLD = [1.5, 3.0, 3.4, 1.1, 1.6, 4.7, 1.3, 1.5, 4.8, 3.5, 2.5, 3.0, 3.7, 2.1, 1.6]
GOLD += [4.2, 3.7, 3.0, 4.3, 3.2, 4.9, 1.8, 3.2, 2.9, 2.4, 3.4, 1.9, 4.2, 4.5, 1.5]
PRED = [2, 3, 3, 1, 2, 4, 2, 2, 5, 3, 3, 3, 5, 1, 1, 4, 2, 3, 5, 3, 5, 2, 4, 3, 3, 2, 2, 5, 3, 2]


def panel(uneven: bool = True) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """30 speeches rated by annotators 1-3 each, and every other one also by 4
    and 5: rows of 3 and of 5 ratings. Even: every row has 5 ratings, the
    other rows' last two by annotators 6 and 7."""
    rng = np.random.default_rng(5)
    ratings: list[tuple[int, ...]] = []
    labelers: list[tuple[int, ...]] = []
    for i in range(30):
        size = 5 if i % 2 or not uneven else 3
        base = int(rng.integers(1, 5))
        ratings.append(tuple(int(min(5, base + rng.integers(0, 2))) for _ in range(size)))
        labelers.append((1, 2, 3, 4, 5)[:size] if i % 2 or uneven else (1, 2, 3, 6, 7))
    return ratings, labelers


def leave_one_out_tau(
    ratings: list[tuple[int, ...]], labelers: list[tuple[int, ...]], annotator: int
) -> float:
    own: list[int] = []
    others: list[float] = []
    for row, ids in zip(ratings, labelers, strict=True):
        for rating, who in zip(row, ids, strict=True):
            if who == annotator:
                own.append(rating)
                others.append((sum(row) - rating) / (len(row) - 1))
    return float(kendalltau(own, others, variant="c").statistic)


def panel_rows() -> list[Row]:
    ratings, labelers = panel(uneven=False)
    return [
        Row(
            id=f"s{i:02d}",
            score=PRED[i],
            human_mean=GOLD[i],
            source="ABC"[i % 3],
            topic_id=i % 5,
            ratings=ratings[i],
            labelers=labelers[i],
        )
        for i in range(30)
    ]


def message(error: pytest.ExceptionInfo[ValueError]) -> str:
    return str(error.value)


def test_tau_matches_scipy_when_gold_has_two_values() -> None:
    assert tau_c([1, 2, 3], [1.0, 1.0, 2.0]) == pytest.approx(8 / 9)
    assert tau_b([1, 2, 3], [1.0, 1.0, 2.0]) == kendalltau([1, 2, 3], [1, 1, 2]).statistic
    assert tau_c(PRED, GOLD) == kendalltau(PRED, GOLD, variant="c").statistic
    assert tau_b(PRED, GOLD) == kendalltau(PRED, GOLD, variant="b").statistic
    assert tau_c(PRED, GOLD) != tau_b(PRED, GOLD)


def test_the_interval_is_exact_for_a_seed_and_defaults_to_1000_resamples_seed_0() -> None:
    point = tau_c(PRED, GOLD)
    low, high = tau_c_ci(PRED, GOLD)
    assert (low, high) == tau_c_ci(PRED, GOLD, confidence=0.95, resamples=1000, seed=0)
    # The package's bootstrap draws what scipy's `bootstrap` drew; numpy's quantile
    # interpolates the upper bound one unit in the last place from scipy's.
    assert (low, high) == (0.4740277777777778, 0.8306064814814815)
    assert point is not None and low <= point <= high
    assert tau_c_ci(PRED, GOLD, resamples=200, seed=3) == (0.5194444444444445, 0.8418055555555556)
    with pytest.raises(ValueError) as error:
        tau_c_ci([1, 2], [2.0, 2.0])
    assert message(error) == "tau-c is undefined: one side has a single distinct value"


def test_annotator_taus_count_an_annotator_with_exactly_min_speeches() -> None:
    ratings, labelers = panel()
    taus = annotator_taus(ratings, labelers)
    assert list(taus) == [1, 2, 3]
    for annotator, tau in taus.items():
        assert tau == leave_one_out_tau(ratings, labelers, annotator)
    assert annotator_taus(ratings, labelers, 31) == {}
    assert list(annotator_taus(ratings, labelers, 15)) == [1, 2, 3, 4, 5]
    assert annotator_taus(ratings, labelers, 15)[4] == leave_one_out_tau(ratings, labelers, 4)
    ceiling = human_ceiling_by_annotator(ratings, labelers, 15)
    assert ceiling == pytest.approx(sum(annotator_taus(ratings, labelers, 15).values()) / 5)
    assert human_ceiling_by_annotator(ratings, labelers) == pytest.approx(sum(taus.values()) / 3)
    with pytest.raises(ValueError) as error:
        human_ceiling_by_annotator(ratings, labelers, 31)
    assert message(error) == "no annotator has 31 rated speeches with a defined tau-c"


def test_annotator_taus_refuse_ratings_and_ids_of_different_lengths() -> None:
    ratings, labelers = panel()
    with pytest.raises(ValueError):
        annotator_taus(ratings, labelers[:-1])
    with pytest.raises(ValueError):
        annotator_taus(ratings, [*labelers[:-1], labelers[-1][:-1]])


def test_annotator_taus_skip_a_speech_with_one_rating_and_count_one_with_two() -> None:
    ratings, labelers = panel()
    lone = [[4]] * 40  # first, so stopping at them would lose every later speech
    taus = annotator_taus([*lone, *ratings], [*[[1]] * 40, *labelers])
    assert taus == annotator_taus(ratings, labelers)
    pairs = [row[:2] for row in ratings]  # 30 speeches rated by annotators 1 and 2 alone
    assert list(annotator_taus(pairs, [(1, 2)] * len(pairs))) == [1, 2]


def test_position_taus_with_two_and_one_positions() -> None:
    # With two positions each one's "others" is the other position itself.
    assert position_taus([[1, 2], [2, 3], [3, 1]]) == [-1 / 3, -1 / 3]
    assert human_ceiling_by_position([[1, 2], [2, 3], [3, 1]]) == pytest.approx(-1 / 3)
    # One rating per speech has no other positions: no ceiling, no NaN.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert position_taus([[1], [2], [3]]) == []
        with pytest.raises(ValueError) as error:
            human_ceiling_by_position([[1], [2], [3]])
    assert message(error) == "no rating position has a defined tau-c"
    assert position_taus([]) == [] and position_taus([[1, 2]]) == []
    with pytest.raises(ValueError) as error:
        human_ceiling_by_position([[2, 2], [2, 2]])
    assert message(error) == "no rating position has a defined tau-c"


def test_a_source_seen_in_two_topics_takes_part_in_the_baseline() -> None:
    gold = [4.0, 4.5, 1.0, 1.5]
    assert source_baseline(gold, ["A", "A", "B", "B"], [1, 2, 1, 2]) == 1.0
    with pytest.raises(ValueError):
        source_baseline(gold, ["A", "A", "B", "B"], [1, 2, 1])
    with pytest.raises(ValueError):
        source_baseline(gold, ["A", "A", "B"], [1, 2, 1, 2])
    # Its ranks refuse mismatched lengths themselves, not only through the baseline.
    with pytest.raises(ValueError):
        _other_topic_ranks(gold, ["A", "A", "B", "B"], [1, 2, 1])
    assert _other_topic_ranks(gold, ["A", "A", "B", "B"], [1, 2, 1, 2]) == {
        1: {"A": 1, "B": 0},
        2: {"A": 1, "B": 0},
    }


def test_within_group_tau_and_calibration_refuse_mismatched_lengths_word_for_word() -> None:
    for pred, gold, groups in (([1, 2], [1.0], ["x", "x"]), ([1, 2], [1.0, 2.0], ["x"])):
        with pytest.raises(ValueError) as error:
            within_group_tau(pred, gold, groups)
        assert message(error) == "pred, gold and groups must have the same length"
    expected = "calibration needs pred, gold and sources of one non-zero length"
    for pred, gold, sources in (([], [], []), ([1], [1.0, 2.0], ["a"]), ([1], [1.0], [])):
        with pytest.raises(ValueError) as error:
            calibration(pred, gold, sources)
        assert message(error) == expected


def test_summarise_fills_every_figure_from_its_own_function() -> None:
    rows = panel_rows()
    summary = summarise(rows)
    sources = [r.source for r in rows]
    topics = [r.topic_id for r in rows]
    assert summary == summarise(rows, resamples=1000, seed=0, min_speeches=30)
    assert (summary.tau_c_low, summary.tau_c_high) == tau_c_ci(PRED, GOLD)
    assert summary.tau_b == tau_b(PRED, GOLD)
    baseline = source_baseline(GOLD, sources, topics)
    assert baseline is not None and summary.source_baseline_tau_c == baseline
    within_source = within_group_tau(PRED, GOLD, sources)
    within_topic = within_group_tau(PRED, GOLD, topics)
    assert within_source is not None and summary.within_source_tau == within_source
    assert within_topic is not None and summary.within_topic_tau == within_topic
    assert summary.judge_mean == sum(PRED) / 30
    assert summary.human_mean == pytest.approx(sum(GOLD) / 30)
    assert (summary.bias_by_source, summary.bias) == calibration(PRED, GOLD, sources)
    ratings, labelers = panel(uneven=False)
    assert summary.ceiling_by_annotator == human_ceiling_by_annotator(ratings, labelers)
    assert summary.ceiling_annotators == 3
    assert summary.ceiling_by_position == human_ceiling_by_position(ratings)
    wide = summarise(rows, resamples=200, seed=3, min_speeches=15)
    assert (wide.tau_c_low, wide.tau_c_high) == tau_c_ci(PRED, GOLD, resamples=200, seed=3)
    assert wide.ceiling_annotators == 7
    assert wide.ceiling_by_annotator == human_ceiling_by_annotator(ratings, labelers, 15)
    assert summarise(rows, min_speeches=31).ceiling_by_annotator is None
    with pytest.raises(ValueError) as error:
        summarise([])
    assert message(error) == "no speeches to summarise"


def test_rows_sharing_an_id_give_one_interval_in_any_order() -> None:
    rows = panel_rows()
    # One speech scored twice, and an unparsed copy of another.
    twice = [*rows, replace(rows[4], score=5), replace(rows[9], score=None)]
    forward = summarise(twice, resamples=200)
    backward = summarise(twice[::-1], resamples=200)
    assert (forward.n, forward.n_scored) == (32, 31)
    assert forward.tau_c_low is not None
    assert (forward.tau_c_low, forward.tau_c_high) == (backward.tau_c_low, backward.tau_c_high)
