"""Known-answer tournaments (`tournament run --task oversight`) through the real command
line against the loopback stub server: three debaters and a scripted judge that m1
always persuades (support.oversight_tournaments)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log, read_eval_log_samples

from debatebench_eval.cli.main import main
from debatebench_eval.tournament.manifest import read_manifest
from debatebench_eval.tournament.outcomes import read_tournament

from support.oversight_questions import question_file
from support.oversight_tournaments import (
    JUDGE,
    MODELS,
    PER_DEBATE,
    oversight_tournament,
    stub_behaviour,
)
from support.paths import data_home
from support.stub_server import StubServer

COMMAND = str(Path(sys.executable).parent / "debatebench-eval")


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
    assert manifest.schedule.item_ids == ("q0", "q1", "q2", "q3")


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
    assert board["tournament"]["task_versions"] == {"oversight": ["2"]}
    text = (folder / "leaderboard.md").read_text()
    assert "| ollama/m2 vs ollama/m3 |" in text and "Task versions: oversight 2." in text
    page = (folder / "leaderboard.html").read_text()
    assert 'alt="accuracy_vs_rating.png"' in page and "Khan et al. 2024, Figure 1" in page
    assert (folder / "accuracy_vs_rating.png").stat().st_size > 1000
    assert "leaderboard.html" in capsys.readouterr().out
    # The ranking in the viewer: one row per debater, in rank order, no margin column.
    ranking = read_eval_log(str(folder / "leaderboard.eval"))
    rows = ranking.samples or []
    assert ranking.eval.task == "debatebench/leaderboard"
    assert [r.input for r in rows] == list(models)
    first = rows[0].scores["leaderboard"] if rows[0].scores else None
    assert first is not None and str(first.answer).startswith("rank 1 · rating")
    assert first.value["win_rate"] == 1.0 and "mean_margin" not in first.value
    assert "Judge sided: 1.00 over 16 debates" in str(first.explanation)
    assert "persuasiveness" in str(first.explanation), "what the rating means, the kind's"
    # m1 won every debate: no finite rating fits, and every view says so.
    assert board["separation"] == [["ollama/m1"], ["ollama/m2", "ollama/m3"]]
    assert all(row["separated"] for row in board["models"])
    assert "Separated results: {ollama/m1} > {ollama/m2, ollama/m3}" in text
    assert "no finite rating fits them" in str(first.explanation)
    # The folder, now holding the ranking's log, still rates (the reader passes it over).
    assert main(["tournament", "rate", str(folder), "--resamples", "200"]) == 0
    assert json.loads((folder / "leaderboard.json").read_text())["models"] == board["models"]


def test_a_killed_oversight_tournament_resumes_without_running_a_debate_twice(
    tmp_path: Path,
) -> None:
    behaviour = stub_behaviour()
    behaviour.latency_s, behaviour.slots = 0.05, 4
    questions = question_file(tmp_path / "questions")
    log_dir = tmp_path / "tourney"
    run = [COMMAND, "tournament", "run", "--task", "oversight", "--models", MODELS,
           "--judges", JUDGE, "--questions", str(questions), "--limit", "4", "-T", "rounds=1",
           "--max-connections", "4", "--display", "none", "--log-dir", str(log_dir)]  # fmt: skip
    with StubServer(behaviour) as stub:
        env = {**os.environ, "OLLAMA_BASE_URL": stub.base_url, "NO_COLOR": "1",
               "XDG_DATA_HOME": str(data_home(tmp_path))}  # fmt: skip
        first = subprocess.Popen(run, env=env, text=True, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
        _until_logged(log_dir)
        os.killpg(first.pid, signal.SIGKILL)  # the whole command, mid-run
        first.communicate(timeout=60)
        killed_at = datetime.now().astimezone()
        time.sleep(0.3)  # replies to requests in flight at the kill reach no one
        before = len(behaviour.requests)
        again = subprocess.run(run, env=env, text=True, capture_output=True, timeout=600)
    assert again.returncode == 0, again.stderr
    kept = _samples(log_dir)
    finished_before = [s for s in kept if datetime.fromisoformat(s.completed_at) < killed_at]
    assert 0 < len(finished_before) < 24, "the kill must land mid-run"
    assert len(kept) == 24 and not read_tournament([str(log_dir)]).duplicates
    # No debate ran twice: the resume asked only for the debates not finished before the kill.
    assert len(behaviour.requests) - before == PER_DEBATE * (24 - len(finished_before))


def _samples(log_dir: Path) -> list[Any]:
    found: list[Any] = []
    for info in list_eval_logs(str(log_dir)):
        found += list(read_eval_log_samples(info, all_samples_required=False))
    return found


def _until_logged(log_dir: Path) -> None:
    """Wait until a finished debate is in the folder's logs."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):  # a log being created reads as nothing yet
            if any(s.error is None for s in _samples(log_dir)):
                return
        time.sleep(0.05)
    raise AssertionError("no debate reached the log within 120 s")
