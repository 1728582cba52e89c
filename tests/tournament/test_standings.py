"""The leaderboard's figures from debate results: order-free, clustered by motion,
anchored, length-controlled."""

from __future__ import annotations

import json
import random

import pytest

from debatebench_eval.matches.results import DebateResult
from debatebench_eval.tournament.standings import Options, standings

from support.tournaments import synthetic_results

STRENGTHS = {"ollama/a": -0.6, "ollama/b": 0.0, "ollama/c": 0.6}
JUDGES = ("ollama/j1", "ollama/j2")


def figures(results: list[DebateResult], **options: object) -> dict:  # type: ignore[type-arg]
    return standings(results, sorted(STRENGTHS), JUDGES, Options(resamples=200, **options))  # type: ignore[arg-type]


def by_model(board: dict) -> dict:  # type: ignore[type-arg]
    return {row["model"]: row for row in board["models"]}


def test_the_order_of_the_debates_changes_nothing() -> None:
    results = synthetic_results(STRENGTHS, motions=8, seed=1)
    shuffled = results[:]
    random.Random(7).shuffle(shuffled)
    a, b = figures(results), figures(shuffled)
    assert json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def test_ratings_follow_strength_and_sit_about_the_base() -> None:
    board = figures(synthetic_results(STRENGTHS, motions=40, seed=2))
    rows = board["models"]
    assert [r["model"] for r in rows] == ["ollama/c", "ollama/b", "ollama/a"]
    assert sum(r["rating"]["value"] for r in rows) / 3 == pytest.approx(1000)
    for row in rows:
        assert row["rating"]["low"] < row["rating"]["value"] < row["rating"]["high"]
        assert row["debates"] == 40 * 4
    assert board["side_advantage"]["logit"]["low"] < 0.3 < board["side_advantage"]["logit"]["high"]
    assert board["counts"]["eligible_matchups"] == 3 * 40
    assert board["bootstrap"]["factor"] == pytest.approx(1.045, abs=1e-3)


def test_an_anchored_model_sits_at_the_base_with_no_width() -> None:
    board = figures(synthetic_results(STRENGTHS, motions=10, seed=3), anchor="ollama/b", base=1500)
    anchored = by_model(board)["ollama/b"]
    assert anchored["anchor"] is True
    assert (
        anchored["rating"]["value"]
        == anchored["rating"]["low"]
        == anchored["rating"]["high"]
        == 1500
    )


def test_a_motion_carries_all_its_matchups_so_concentrated_wins_widen_the_interval() -> None:
    """The same record, once spread over motions and once decided by one motion:
    the bootstrap resamples motions, so the second is far less certain."""
    spread, concentrated = [], []
    for k in range(10):
        for swapped in (False, True):
            pro, con = ("ollama/b", "ollama/a") if swapped else ("ollama/a", "ollama/b")
            # a wins 6 of 20 either way: spread, one a-win in motions 0-5 (each side once in
            # motions 0-2); concentrated, all of a's wins in motions 0-2.
            spread.append(_debate(pro, con, k, swapped, a_wins=k < 6 and swapped == (k % 2 == 1)))
            concentrated.append(_debate(pro, con, k, swapped, a_wins=k < 3))
    wide, narrow = (by_model(figures(r))["ollama/a"]["win_rate"] for r in (concentrated, spread))
    assert wide["value"] == narrow["value"] == pytest.approx(0.3)
    assert wide["high"] - wide["low"] > 1.5 * (narrow["high"] - narrow["low"])


def _debate(pro: str, con: str, k: int, swapped: bool, a_wins: bool) -> DebateResult:
    base = synthetic_results({"ollama/a": 0.0, "ollama/b": 0.0}, motions=1, seed=k)[int(swapped)]
    pro_won = a_wins == (pro == "ollama/a")
    totals = {"pro": 70.0, "con": 55.0} if pro_won else {"pro": 55.0, "con": 70.0}
    return DebateResult(("ollama/a", "ollama/b"), f"q{k:02d}", swapped, pro, con, "scored",
                        totals=totals, dimensions=base.dimensions, maxima=base.maxima,
                        sides=base.sides)  # fmt: skip


def test_a_model_that_wins_by_speaking_longer_drops_under_length_control() -> None:
    # Equal strengths; c speaks twice as long and the judges reward length.
    results = synthetic_results({m: 0.0 for m in STRENGTHS}, motions=30, seed=4,
                                words={"ollama/a": 300, "ollama/b": 300, "ollama/c": 600},
                                words_effect=0.8)  # fmt: skip
    board = figures(results)
    c = by_model(board)["ollama/c"]
    assert c["rank"] == 1
    assert c["length_controlled"]["value"] < c["rating"]["value"] - 50
    assert board["length_control"]["gamma_logit_per_sd"]["low"] > 0
    assert c["words_per_debate"] > 1.5 * by_model(board)["ollama/a"]["words_per_debate"]


def test_separated_results_are_named() -> None:
    results = synthetic_results({"ollama/a": -9.0, "ollama/b": 0.0, "ollama/c": 9.0}, motions=5,
                                side=0.0)  # fmt: skip
    board = figures(results)
    assert board["separation"] == [["ollama/c"], ["ollama/b"], ["ollama/a"]]
    assert all(row["separated"] for row in board["models"])
    assert figures(synthetic_results(STRENGTHS, motions=20, seed=5))["separation"] == []


def test_judge_agreement_is_reported() -> None:
    board = figures(synthetic_results(STRENGTHS, motions=10, seed=6))
    judges = board["judges"]
    assert 0 < judges["alpha"] <= 1 and set(judges["alpha_by_dimension"]) == {
        "argument_quality",
        "clarity",
    }
    assert judges["pairwise"][0]["agreement"] == 1.0 and judges["pairwise"][0]["kappa"] == 1.0
    assert [j["judge"] for j in judges["judges"]] == list(JUDGES)
    assert judges["trust"] == {"unvalidated": 60}


def test_the_reliability_figures_catch_a_length_effect_and_count_effective_judges() -> None:
    words = {"ollama/a": 300, "ollama/b": 400, "ollama/c": 500}
    board = figures(synthetic_results(STRENGTHS, motions=30, seed=4, words=words,
                                      words_effect=0.0))  # fmt: skip
    found = board["reliability"]
    assert found["swap_rule"] == "mean"
    # Two judges giving the same verdict on every debate are worth one judge.
    assert board["judges"]["effective_judges"]["all"]["n_eff"] == pytest.approx(1.0)
    assert found["by_judge"]["ollama/j1"]["self_preference"] is None  # no debater's family
    side = found["by_judge"]["panel"]["side"]
    assert side["low"] <= side["value"] <= side["high"] and side["n"] == 30 * 6
    # The synthetic totals are +-15 by the winner: longer speeches win only through
    # strength (the longer speakers are the stronger here), which the slope shows.
    assert found["by_judge"]["panel"]["length"]["value"] > 0
    assert found["by_judge"]["panel"]["position"] is None  # no opener recorded
