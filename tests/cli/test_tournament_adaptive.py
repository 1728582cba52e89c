"""Adaptive tournaments through the real command line against the loopback stub (the
scripted judge of support.tournaments: mN's speeches score higher the higher N):
rounds until the budget, two workers, nothing lost or run twice when a round is cut
short and the command is run again, a new model placed with only its own debates,
and `tournament next` on a hand-made outcomes file."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log_samples

from debatebench_eval.cli.main import main
from debatebench_eval.tournament.manifest import read_manifest
from debatebench_eval.tournament.outcomes import read_tournament

from support.paths import data_home
from support.stub_server import StubBehaviour, StubServer
from support.tournaments import JUDGES, ranked_judge, upset_judge

FOUR = "ollama/m1,ollama/m2,ollama/m3,ollama/m4"
PER_DEBATE = 8  # 4 speeches, 2 judges x 2 orientations (fact-check off)


COMMAND = str(Path(sys.executable).parent / "debatebench-eval")


def adaptive(log_dir: Path, models: str, behaviour: StubBehaviour, *extra: str) -> int:
    with StubServer(behaviour) as stub, pytest.MonkeyPatch.context() as patch:
        patch.setenv("OLLAMA_BASE_URL", stub.base_url)
        return main(["tournament", "run", "--models", models, "--judges", JUDGES,
                     "--format", "lightning", "--limit", "3", "-T", "fact_check=false",
                     "-T", "empty_retries=0", "--log-dir", str(log_dir), "--display", "none",
                     *extra])  # fmt: skip


def judged() -> StubBehaviour:
    return StubBehaviour(tag_speech=True, script=ranked_judge)


def test_rounds_run_on_two_workers_until_the_budget_and_the_board_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    behaviour = judged()
    code = adaptive(tmp_path / "t", FOUR, behaviour, "--adaptive", "--round-size", "4",
                    "--max-debates", "12", "--workers", "2")  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    assert "adaptive tournament stopped: the budget of 12 debates is spent" in out
    manifest = read_manifest(str(tmp_path / "t"))
    assert manifest is not None and manifest.schedule.adaptive
    assert manifest.schedule.debates() == 12 and len(manifest.rounds) == 4
    assert manifest.rounds[-1]["stopped"] == "the budget of 12 debates is spent"
    results = read_tournament([str(tmp_path / "t")]).results
    assert [r.status for r in results] == ["scored"] * 12
    assert len(behaviour.requests) == 12 * PER_DEBATE, "each chosen debate ran once"
    assert main(["tournament", "rate", str(tmp_path / "t"), "--resamples", "100"]) == 0
    board = json.loads((tmp_path / "t" / "leaderboard.json").read_text())
    design = board["tournament"]["design"]
    assert design["kind"] == "adaptive" and len(design["rounds"]) == 4
    text = (tmp_path / "t" / "leaderboard.md").read_text()
    assert "## Adaptive design" in text and "Stopped: the budget of 12 debates is spent" in text
    assert (tmp_path / "t" / "rounds.png").is_file()


def test_a_round_cut_short_is_finished_by_the_next_run_and_nothing_runs_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A server whose replies are not JSON: the first round's debates (2 matchups) fail,
    # and the command says to run it again.
    broken = StubBehaviour(tag_speech=True, script=ranked_judge, broken="json")
    args = ("--adaptive", "--round-size", "4", "--max-debates", "8", "--retry-attempts", "0")
    assert adaptive(tmp_path / "t", FOUR, broken, *args) == 1
    assert "run the same command again" in capsys.readouterr().out
    chosen = read_manifest(str(tmp_path / "t")).schedule.chosen  # type: ignore[union-attr]
    assert chosen is not None and len(chosen) == 2
    done = [r for r in read_tournament([str(tmp_path / "t")]).results if r.status == "scored"]
    assert not done
    healthy = judged()
    assert adaptive(tmp_path / "t", FOUR, healthy, *args) == 0
    after = read_manifest(str(tmp_path / "t"))
    assert after is not None and after.schedule.chosen is not None
    assert after.schedule.chosen[: len(chosen or ())] == chosen, "the round was kept"
    results = read_tournament([str(tmp_path / "t")]).results
    assert len(results) == 8 and all(r.status == "scored" for r in results)
    # The debates scored before the cut ran once: the second run asked only the rest.
    assert len(healthy.requests) == (8 - len(done)) * PER_DEBATE


def test_two_workers_run_rounds_until_the_width_target_and_stop_before_the_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Under upset_judge each pair's stronger model wins two motions of three: the
    # widest interval narrows round by round (444, then 328 points after 24 debates).
    behaviour = StubBehaviour(tag_speech=True, script=upset_judge)
    code = adaptive(tmp_path / "t", FOUR, behaviour, "--adaptive", "--round-size", "4",
                    "--target-width", "400", "--max-debates", "36", "--workers", "2")  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    assert "adaptive tournament stopped: every interval at most 400 wide" in out
    manifest = read_manifest(str(tmp_path / "t"))
    assert manifest is not None and manifest.schedule.debates() < 36, "stopped before the budget"
    assert manifest.rounds[-1]["stopped"] == "every interval at most 400 wide"
    assert all(entry["stopped"] is None for entry in manifest.rounds[:-1])
    assert len(behaviour.requests) == manifest.schedule.debates() * PER_DEBATE


def _started(stub: StubServer, tmp_path: Path, log_dir: Path, *args: str) -> subprocess.Popen[str]:
    """The adaptive command in its own process group, workers included, so that a kill
    takes all of it, as a machine going down would."""
    env = {**os.environ, "OLLAMA_BASE_URL": stub.base_url, "NO_COLOR": "1",
           "XDG_DATA_HOME": str(data_home(tmp_path))}  # fmt: skip
    return subprocess.Popen(
        [COMMAND, "tournament", "run", "--models", FOUR, "--judges", JUDGES, "--format",
         "lightning", "--limit", "3", "-T", "fact_check=false", "-T", "empty_retries=0",
         "--log-dir", str(log_dir), "--display", "none", "--max-connections", "4", *args],
        env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,
    )  # fmt: skip


def _finished(log_dir: Path) -> list[Any]:
    found = []
    for info in list_eval_logs(str(log_dir)):
        found += [s for s in read_eval_log_samples(info, all_samples_required=False)
                  if s.error is None]  # fmt: skip
    return found


def _in_second_round_with_a_debate_logged(log_dir: Path) -> None:
    """Wait until round 2 is chosen and written and a debate of the folder is logged."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):  # a file being written reads as nothing yet
            manifest = read_manifest(str(log_dir))
            if manifest is not None and len(manifest.rounds) >= 2 and _finished(log_dir):
                return
        time.sleep(0.05)
    raise AssertionError("round 2 was not reached within 180 s")


def test_a_killed_adaptive_run_run_again_loses_and_repeats_nothing(tmp_path: Path) -> None:
    log_dir = tmp_path / "t"
    args = ("--adaptive", "--round-size", "4", "--max-debates", "12", "--workers", "2")
    behaviour = StubBehaviour(tag_speech=True, script=ranked_judge, latency_s=0.05, slots=4)
    with StubServer(behaviour) as stub:
        first = _started(stub, tmp_path, log_dir, *args)
        _in_second_round_with_a_debate_logged(log_dir)
        os.killpg(first.pid, signal.SIGKILL)  # the command and both workers
        first.communicate(timeout=60)
        killed_at = datetime.now().astimezone()
        time.sleep(0.3)  # replies to requests in flight at the kill reach no one
        before = len(behaviour.requests)
        chosen = read_manifest(str(log_dir)).schedule.chosen  # type: ignore[union-attr]
        again = _started(stub, tmp_path, log_dir, *args)
        out, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    assert "adaptive tournament stopped: the budget of 12 debates is spent" in out
    after = read_manifest(str(log_dir))
    assert after is not None and after.schedule.chosen is not None and chosen
    assert after.schedule.chosen[: len(chosen)] == chosen, "the rounds chosen were kept"
    logs = read_tournament([str(log_dir)])
    assert [r.status for r in logs.results] == ["scored"] * 12 and not logs.duplicates
    finished_before = [
        s for s in _finished(log_dir) if datetime.fromisoformat(s.completed_at) < killed_at
    ]
    assert 0 < len(finished_before) < 12, "the kill must land mid-tournament"
    # Nothing repeated: the second run asked only for the debates not finished before.
    assert len(behaviour.requests) - before == PER_DEBATE * (12 - len(finished_before))


def test_a_new_model_is_placed_with_its_own_debates_not_a_row_of_the_round_robin(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "t"
    assert adaptive(folder, FOUR, judged()) == 0  # a round robin: 6 pairs x 3 x 2 = 36
    placing = judged()
    five = f"{FOUR},ollama/m5"
    assert adaptive(folder, five, placing, "--adaptive", "--round-size", "4",
                    "--max-debates", "44") == 0  # fmt: skip
    manifest = read_manifest(str(folder))
    assert manifest is not None and manifest.schedule.chosen is not None
    added = manifest.schedule.chosen[18:]
    assert len(added) == 4 and all("ollama/m5" in (a, b) for a, b, _ in added)
    assert len(placing.requests) == 8 * PER_DEBATE, "a full row would be 24 debates"


def test_next_picks_the_near_tie_over_the_settled_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows: list[dict[str, Any]] = []
    for i in range(6):
        # a beats c from both sides on every motion: settled. a and b, and b and c, each
        # win every other motion from both sides: near-ties, and no side advantage.
        for pro, con, winner in (("a", "c", "pro"), ("c", "a", "con")):
            rows.append({"motion": f"m{i}", "pro": f"x/{pro}", "con": f"x/{con}",
                         "winner": winner})  # fmt: skip
        for first, second in (("a", "b"), ("b", "c")):
            best = first if i % 2 else second
            for pro, con in ((first, second), (second, first)):
                rows.append({"motion": f"m{i}", "pro": f"x/{pro}", "con": f"x/{con}",
                             "winner": "pro" if pro == best else "con"})  # fmt: skip
    outcomes = tmp_path / "outcomes.jsonl"
    outcomes.write_text("".join(json.dumps(row) + "\n" for row in rows))
    args = ["tournament", "next", "--models", "x/a,x/b,x/c", "--outcomes", str(outcomes),
            "--count", "2", "--seed", "3"]  # fmt: skip
    assert main(args) == 0
    printed = capsys.readouterr().out
    found = list(csv.DictReader(io.StringIO(printed)))
    assert len(found) == 4 and found[0]["motion"] == found[1]["motion"]
    assert (found[0]["pro"], found[0]["con"]) == (found[1]["con"], found[1]["pro"])
    assert main(args) == 0 and capsys.readouterr().out == printed, "same inputs, same output"
    # A share of picks explores uniformly (so no pair starves): over seeds, the near-ties
    # draw most first picks and the settled pair no more than exploration gives it.
    firsts = []
    for seed in range(12):
        assert main([*args[:-4], "--count", "1", "--seed", str(seed)]) == 0
        first = next(csv.DictReader(io.StringIO(capsys.readouterr().out)))
        firsts.append(frozenset((first["pro"], first["con"])))
    settled = firsts.count(frozenset(("x/a", "x/c")))
    assert settled <= 3 and len(firsts) - settled >= 9, firsts
