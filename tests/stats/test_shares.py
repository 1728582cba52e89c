"""Every interval of a share the package prints lies in [0, 1] and holds its value, and
every interval of a difference of shares lies in [-1, 1]: a property over random
outcome sets (DESIGN, "One way for each shared job").

The shares are those of the leaderboard (each model's win rate, pro's share of
the debates, pro's chance at equal strength, the judges' side, position and
repeat-flip rates, the prediction-powered win rates), of the oversight
leaderboard and `oversight compare` (the judge's accuracy overall, per pair and
per protocol, and the protocols' paired differences), of the reports (Wilson
rates of every check, the known-answer accuracy) and of `agreement`. Few
motions with pro winning most debates is where a widened interval left [0, 1]:
the shipped worked example printed "Pro won 0.667 [0.219, 1.563]".
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from debatebench_eval.annotation import agreement_stats
from debatebench_eval.annotation.agreement_stats import Pair
from debatebench_eval.annotation.human_ratings import human_ratings
from debatebench_eval.known_answer.comparison import compare
from debatebench_eval.known_answer.persuasion import PairAccuracy, pair_accuracy, ratings
from debatebench_eval.known_answer.stats import JudgedDebate, Outcome, accuracy_of
from debatebench_eval.matches.results import DebateResult, eligible_debates
from debatebench_eval.stats.bootstrap import cluster_weights
from debatebench_eval.stats.intervals import Estimate, widened, widening, wilson
from debatebench_eval.tournament.standings import Options, standings

from support.tournaments import synthetic_results

# Few examples, each a whole leaderboard: the suite's fast loop stays fast. Derandomised
# and without a database, so every run tries the same cases and writes nothing.
FAST = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
JUDGES = ("ollama/qwen3:14b", "ollama/gemma3:4b")  # one of a debater's family: self-preference
DEBATERS = ("ollama/qwen3:8b", "ollama/llama3.2", "ollama/phi4", "ollama/mistral")


def assert_share(figure: Any, where: str, bottom: float = 0.0) -> None:
    """`figure` (value, low, high) lies in [bottom, 1] and its interval holds its value.
    Both bounds NaN is an interval the data cannot give (one motion): no interval."""
    value, low, high = _triple(figure)
    assert bottom <= value <= 1.0, f"{where}: value {value}"
    if math.isnan(low) and math.isnan(high):
        return
    assert bottom <= low <= value <= high <= 1.0, f"{where}: {value} [{low}, {high}]"


def _triple(figure: Any) -> tuple[float, float, float]:
    if isinstance(figure, dict):
        return float(figure["value"]), float(figure["low"]), float(figure["high"])
    value = figure.accuracy if isinstance(figure, PairAccuracy) else figure.value
    return float(value), float(figure.low), float(figure.high)


def assert_difference(figure: Any, where: str) -> None:
    assert_share(figure, where, bottom=-1.0)


# ---------------------------------------------------------------- the leaderboard


@st.composite
def tournaments(draw: st.DrawFn) -> list[DebateResult]:
    """A round robin of 2 to 4 debaters over 1 to 6 motions, from random strengths and
    a side advantage up to pro winning nearly everything; some debates tied, some
    openers recorded, some judges read twice."""
    models = draw(st.integers(2, 4))
    strengths = {m: draw(st.floats(-2.5, 2.5)) for m in DEBATERS[:models]}
    results = synthetic_results(
        strengths, draw(st.integers(1, 6)), side=draw(st.floats(-1.0, 5.0)),
        seed=draw(st.integers(0, 2**16)), judges=JUDGES,
    )  # fmt: skip
    ties = draw(st.sets(st.integers(0, len(results) - 1), max_size=len(results) // 3))
    openers = draw(st.lists(st.sampled_from(["pro", "con", None]), min_size=len(results),
                            max_size=len(results)))  # fmt: skip
    return [
        _varied(d, i in ties, opener, i)
        for i, (d, opener) in enumerate(zip(results, openers, strict=True))
    ]


def _varied(debate: DebateResult, tie: bool, opener: str | None, index: int) -> DebateResult:
    totals = {"pro": 60.0, "con": 60.0} if tie else debate.totals
    views = tuple(dataclasses.replace(view, repeat_winners=(view.winner or "pro", "con"))
                  if index % 3 == 0 else view for view in debate.judges)  # fmt: skip
    return dataclasses.replace(debate, totals=totals, opener=opener, judges=views,
                               log="tournament.eval", sample_id=str(index))  # fmt: skip


def leaderboard_shares(board: dict[str, Any]) -> Iterable[tuple[str, Any]]:
    """Every share figure with an interval on the leaderboard."""
    for row in board["models"]:
        if row.get("rating") is not None:
            yield f"win rate of {row['model']}", row["win_rate"]
    side = board.get("side_advantage")
    if side:
        yield "pro's share", side["pro_win_share"]
        yield "pro at equal strength", side["p_pro_wins_at_equal_strength"]
    for judge, figures in board["reliability"]["by_judge"].items():
        for name in ("position", "side"):
            if figures[name]:
                yield f"{judge} {name}", figures[name]
        repeats = figures["repeats"]
        if repeats:
            low, high = repeats["flip_rate_interval"]
            yield f"{judge} flips", {"value": repeats["flip_rate"], "low": low, "high": high}


@FAST
@given(tournaments())
def test_every_share_of_the_leaderboard_lies_in_0_1_and_holds_its_value(
    results: list[DebateResult],
) -> None:
    models = sorted({d.pro for d in results})
    board = standings(results, models, JUDGES, Options(resamples=200))
    for where, figure in leaderboard_shares(board):
        assert_share(figure, where)
    for judge, figures in board["reliability"]["by_judge"].items():
        if figures["self_preference"]:
            assert_difference(figures["self_preference"], f"{judge} self-preference")
    for cell in board["head_to_head"]:
        assert 0.0 <= cell["share"] <= 1.0


@FAST
@given(tournaments(), st.data())
def test_every_prediction_powered_win_rate_lies_in_0_1(
    results: list[DebateResult], data: st.DataObject
) -> None:
    rated = eligible_debates(results)
    labelled = data.draw(st.sets(st.sampled_from(range(len(rated))), min_size=2))
    human = {("tournament.eval", rated[i].sample_id or ""): data.draw(
        st.sampled_from([0.0, 0.5, 1.0])) for i in labelled}  # fmt: skip
    # The PPI++ ratings (not a share) can have no optimum: labels that contradict the
    # judge on every labelled debate leave the unpenalised side term unbounded. That is
    # said, never raised.
    found = human_ratings(rated, human, sorted({d.pro for d in rated}))
    assert (found["ratings"] is None) == bool(found["no_ratings"])
    for model, rate in found["win_rates"].items():
        assert 0.0 <= rate["judge_only"] <= 1.0
        if rate["ppi"] is not None:
            assert_share(rate["ppi"], f"PPI++ win rate of {model}")
            low, high = rate["ppi"]["humans_only"]
            undefined = math.isnan(low) and math.isnan(high)
            assert undefined or 0.0 <= low <= high <= 1.0, f"humans only, {model}: [{low}, {high}]"


@pytest.mark.parametrize(("seed", "raw", "printed"), [
    (6, (0.219, 1.563), (0.219, 1.0)),  # the shipped worked example's figures
    (10, (-1.126, 1.563), (0.0, 1.0)),
])  # fmt: skip
def test_few_motions_with_pro_winning_most_keep_pros_share_inside_0_1(
    seed: int, raw: tuple[float, float], printed: tuple[float, float]
) -> None:
    """The case that broke: two debaters, three motions, pro winning four of six. The
    widened interval of pro's share runs past 1 (and below 0); the printed one stops."""
    results = synthetic_results({"ollama/a": 0.0, "ollama/b": 0.0}, 3, side=1.0, seed=seed)
    assert sum(d.result == 1.0 for d in results) == 4
    wins = np.array([[sum(d.result or 0 for d in results if d.motion == m)]
                     for m in sorted({d.motion for d in results})])  # fmt: skip
    weights = cluster_weights(3, 1000, seed=0)
    low, high = widened(4 / 6, (weights @ wins) / 6, widening(3))  # two debates a motion
    assert (float(low[0]), float(high[0])) == pytest.approx(raw, abs=1e-3)
    board = standings(results, ["ollama/a", "ollama/b"], JUDGES, Options())
    share = board["side_advantage"]["pro_win_share"]
    assert share["value"] == 4 / 6
    assert (share["low"], share["high"]) == pytest.approx(printed, abs=1e-3)


# ---------------------------------------------------------------- oversight


@st.composite
def judged_debates(draw: st.DrawFn) -> list[JudgedDebate]:
    """Known-answer debates between 2 to 3 debaters on 1 to 5 questions, a question
    debated once or several times, the judge siding and being right at random."""
    models = DEBATERS[: draw(st.integers(2, 3))]
    row = st.tuples(st.integers(0, 4), st.permutations(models), st.booleans(), st.booleans())
    rows = draw(st.lists(row, min_size=2, max_size=30))
    return [JudgedDebate(f"q{q}", pair[0], pair[1], won, right) for q, pair, won, right in rows]


@FAST
@given(judged_debates())
def test_every_accuracy_of_the_oversight_leaderboard_lies_in_0_1(
    debates: list[JudgedDebate],
) -> None:
    overall = accuracy_of([(d.question, d.correct) for d in debates])
    assert_share(overall, "the judge's accuracy")
    if len({d.pro for d in debates} | {d.con for d in debates}) > 1:
        for pair in pair_accuracy(debates, ratings(debates, 200)):
            assert_share(pair, f"the judge's accuracy on {pair.models}")


@st.composite
def protocol_runs(draw: st.DrawFn) -> dict[str, list[Outcome]]:
    """Runs of two to three protocols over overlapping questions, epochs repeating some."""
    runs = {}
    for protocol in draw(st.sets(st.sampled_from(["debate", "consultancy", "naive"]),
                                 min_size=2)):  # fmt: skip
        picks = draw(st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=1,
                              max_size=25))  # fmt: skip
        runs[protocol] = [Outcome(f"q{q}", right, 0.8 if right else 0.2, 0.8) for q, right in picks]
    return runs


@FAST
@given(protocol_runs())
def test_oversight_compare_keeps_accuracies_in_0_1_and_differences_in_minus_1_1(
    runs: dict[str, list[Outcome]],
) -> None:
    found = compare(runs)
    for protocol, accuracy in found.accuracy.items():
        assert_share(accuracy, f"{protocol}'s accuracy")
    for pair, difference in found.differences.items():
        assert_difference(difference, f"{pair[0]} - {pair[1]}")


@FAST
@given(st.lists(st.tuples(st.integers(0, 3), st.booleans()), min_size=1, max_size=20))
def test_an_accuracy_over_few_questions_mostly_right_lies_in_0_1(
    picks: list[tuple[int, bool]],
) -> None:
    assert_share(accuracy_of([(f"q{q}", right) for q, right in picks]), "accuracy")


# ---------------------------------------------------------------- reports and agreement


@FAST
@given(st.integers(1, 60), st.data())
def test_every_wilson_rate_lies_in_0_1_ties_as_halves_too(n: int, data: st.DataObject) -> None:
    halves = data.draw(st.integers(0, 2 * n))
    found = wilson(halves / 2, n)
    assert isinstance(found, Estimate)
    assert_share(found, f"{halves / 2} of {n}")


@st.composite
def labelled_pairs(draw: st.DrawFn) -> list[Pair]:
    answers = st.sampled_from(["pro", "con", "tie"])
    sides = st.sampled_from(["pro", "con", None])
    rows = draw(st.lists(st.tuples(st.integers(0, 5), answers, answers, sides, sides),
                         min_size=1, max_size=16))  # fmt: skip
    return [Pair(f"d{d}", judge, human, opener, shown) for d, judge, human, opener, shown in rows]


@FAST
@given(labelled_pairs())
def test_every_share_and_difference_of_agreement_lies_in_its_range(pairs: list[Pair]) -> None:
    for name in ("raw_agreement", "shown_first_share"):
        found = getattr(agreement_stats, name)(pairs)
        if found is not None:
            assert_share(found, name)
    for name in ("side_bias", "position_bias"):
        found = getattr(agreement_stats, name)(pairs, resamples=200)
        if found is not None:
            assert_difference(found, name)
