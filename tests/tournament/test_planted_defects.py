"""The planted-defect suite: boards each carrying one defect, found and named by the
leaderboard's diagnostics; a clean board raises no alarm (`support.planted_defects`)."""

from __future__ import annotations

from typing import Any

import pytest

from debatebench_eval.matches.results import DebateResult
from debatebench_eval.tournament.kinds import DEFAULT, kind_named
from debatebench_eval.tournament.leaderboard_log import leaderboard_log
from debatebench_eval.tournament.robustness import interval_first
from debatebench_eval.tournament.rubric_board import figures, markdown
from debatebench_eval.tournament.standings import Options

from support.planted_defects import CLEAN, as_rated, cycle, drawn, fragile_top, one_motion

DEBATE = kind_named(DEFAULT)


def board_of(results: list[DebateResult]) -> dict[str, Any]:
    return figures(as_rated(results), Options(resamples=200))


def defects(board: dict[str, Any]) -> set[str]:
    return {alarm["defect"] for alarm in board["diagnostics"]}


def test_a_clean_board_raises_no_alarm() -> None:
    board = board_of(drawn(CLEAN, 12, side=0.1, seed=3))
    assert board["diagnostics"] == []
    assert board["cycles"] == []
    assert board["possible_first"] == ["ollama/a"]
    weights = [j["weight"] for j in board["judge_aware"]["judges"]]
    assert all(w["low"] < 1 / 3 < w["high"] for w in weights)


def test_a_top_resting_on_two_debates_is_named() -> None:
    board = board_of(fragile_top())
    assert board["models"][0]["model"] == "ollama/a"
    robustness = board["robustness"]
    assert robustness["top_flip"] is not None and robustness["top_flip"] <= 2
    assert robustness["top"]["overtaken_by"] == "ollama/b"
    # The debates named are a's wins over b, and they are found by pair log and sample id.
    for ref in robustness["top"]["debates"]:
        assert {ref["pro"], ref["con"]} == {"ollama/a", "ollama/b"}
        assert ref["log"] == "planted.jsonl" and ref["sample_id"] is not None
    assert defects(board) == {"fragile_top"}
    assert set(board["possible_first"]) == {"ollama/a", "ollama/b"}


def test_a_planted_three_model_cycle_is_found() -> None:
    board = board_of(cycle())
    assert len(board["cycles"]) == 1
    found = board["cycles"][0]
    assert set(found) == {"ollama/a", "ollama/b", "ollama/c"}
    # In the cycle's direction: each model beat the next.
    start = found.index("ollama/a")
    assert found[start:] + found[:start] == ["ollama/a", "ollama/b", "ollama/c"]
    for edge in board["cycle_edges"][0]:
        assert 0.5 < edge["share"]["low"] <= edge["share"]["value"] <= edge["share"]["high"] <= 1
    assert "cycle" in defects(board)


def test_a_judge_answering_at_random_is_named_and_weighs_least() -> None:
    board = board_of(drawn(CLEAN, 20, judges=(1.0, 1.0, 0.0), seed=4))
    weights = {j["judge"]: j["weight"] for j in board["judge_aware"]["judges"]}
    assert weights["ollama/j3"]["high"] < 1 / 6
    for good in ("ollama/j1", "ollama/j2"):
        assert weights[good]["low"] < 1 / 2 < weights[good]["high"]
    assert defects(board) == {"weak_judge"}
    assert "ollama/j3" in board["diagnostics"][0]["text"]


def test_a_strong_side_advantage_is_named() -> None:
    board = board_of(drawn(CLEAN, 12, side=1.5, seed=5))
    assert defects(board) == {"side_advantage"}


def test_wins_all_on_one_motion_are_named() -> None:
    board = board_of(one_motion())
    assert [f["model"] for f in board["one_motion_wins"]] == ["ollama/d"]
    assert board["one_motion_wins"][0]["motion"] == "m03"
    assert "one_motion" in defects(board)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_clean_boards_of_other_draws_raise_no_alarm(seed: int) -> None:
    assert board_of(drawn(CLEAN, 12, side=0.1, seed=seed))["diagnostics"] == []


def test_the_viewer_row_says_which_debates_the_top_rests_on() -> None:
    board = board_of(fragile_top())
    count = board["robustness"]["top_flip"]
    log = leaderboard_log(board, DEBATE.columns, DEBATE.rating)
    assert log.samples is not None
    top, second = (s.scores["leaderboard"].explanation for s in log.samples[:2] if s.scores)
    assert f"#1 holds unless these {count} of 144 debates" in str(top)
    assert "planted.jsonl: " in str(top)
    assert "Its place above" in str(second)


def test_the_page_names_every_alarm_and_lists_the_flip_sets() -> None:
    board = board_of(cycle())
    text = markdown(board)
    assert "## How firm the order is" in text and "## Where the order is not an order" in text
    assert "⚑ Cycle of clear head-to-head wins" in text
    assert text.count("beat") >= 3


def test_the_interval_rank_set_holds_every_model_no_other_is_clearly_above() -> None:
    ratings = {"a": {"low": 1000.0, "high": 1200.0}, "b": {"low": 950.0, "high": 1010.0},
               "c": {"low": 800.0, "high": 999.0}}  # fmt: skip
    assert interval_first(ratings) == ["a", "b"]
    assert interval_first({"a": {"low": 1.0, "high": 2.0}}) == ["a"]
