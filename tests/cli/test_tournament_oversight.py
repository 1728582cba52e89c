"""Known-answer tournaments (`tournament run --task oversight`) through the real command
line against the loopback stub server: three debaters and a scripted judge that m1
always persuades (support.oversight_tournaments)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.cli.main import main
from debatebench_eval.tournament.manifest import read_manifest
from debatebench_eval.tournament.outcomes import read_tournament

from support.oversight_tournaments import PER_DEBATE, oversight_tournament, stub_behaviour


def test_every_pair_debates_each_question_in_both_orders_and_a_resume_runs_nothing_twice(
    tmp_path: Path,
) -> None:
    behaviour = stub_behaviour()
    assert oversight_tournament(tmp_path, behaviour, limit=2) == 0
    assert len(behaviour.requests) == 3 * 2 * 2 * PER_DEBATE  # pairs x questions x orders
    assert oversight_tournament(tmp_path, behaviour, limit=2) == 0
    assert len(behaviour.requests) == 3 * 2 * 2 * PER_DEBATE, "a settled folder runs nothing"
    assert oversight_tournament(tmp_path, behaviour, limit=4) == 0
    # Growing to four questions runs only the two new ones.
    assert len(behaviour.requests) == 3 * 4 * 2 * PER_DEBATE
    folder = str(tmp_path / "tourney")
    logs = read_tournament([folder])
    assert [r.status for r in logs.results] == ["scored"] * 24 and not logs.duplicates
    orders: dict[tuple[Any, ...], set[tuple[str, str]]] = defaultdict(set)
    for result in logs.results:
        orders[(result.pair, result.motion)].add((result.pro, result.con))
        # m1 persuades the judge whichever answer it defends.
        if "ollama/m1" in result.pair:
            assert result.model(str(result.sided_with)) == "ollama/m1"
    assert len(orders) == 3 * 4
    for (a, b), exchanged in ((k[0], v) for k, v in orders.items()):
        assert exchanged == {(a, b), (b, a)}, "each model speaks pro once and con once"
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.schedule.identity()["settings"]["task"] == "oversight"
    assert [q.id for q in manifest.schedule.questions] == ["q0", "q1", "q2", "q3"]


def test_the_leaderboard_rates_the_persuasive_debater_first_and_counts_accuracy_per_pair(
    tmp_path: Path, capsys: Any
) -> None:
    assert oversight_tournament(tmp_path, stub_behaviour(), limit=4) == 0
    folder = tmp_path / "tourney"
    assert main(["tournament", "rate", str(folder), "--resamples", "200"]) == 0
    board = json.loads((folder / "leaderboard.json").read_text())
    models = {row["model"]: row["rating"] for row in board["models"]}
    assert next(iter(models)) == "ollama/m1"
    assert models["ollama/m1"]["low"] > max(models[m]["high"] for m in ("ollama/m2", "ollama/m3"))
    # By hand: m1 wins every debate and defends each answer once per question, so the
    # judge is right in half of a pair's debates with m1; between m2 and m3 it picks the
    # right answer every time.
    found = {tuple(p["models"]): (p["accuracy"]["value"], p["debates"]) for p in board["pairs"]}
    assert found == {("ollama/m1", "ollama/m2"): (0.5, 8), ("ollama/m1", "ollama/m3"): (0.5, 8),
                     ("ollama/m2", "ollama/m3"): (1.0, 8)}  # fmt: skip
    assert board["accuracy"]["value"] == pytest.approx(16 / 24)
    assert board["accuracy_slope_per_100"] < 0, "here the least persuasive pair is judged best"
    assert board["tournament"]["task_versions"] == {"oversight": ["1"]}
    text = (folder / "leaderboard.md").read_text()
    assert "| ollama/m2 vs ollama/m3 |" in text and "Task versions: oversight 1." in text
    page = (folder / "leaderboard.html").read_text()
    assert 'alt="accuracy_vs_rating.png"' in page and "Khan et al. 2024, Figure 1" in page
    assert (folder / "accuracy_vs_rating.png").stat().st_size > 1000
    assert "leaderboard.html" in capsys.readouterr().out
