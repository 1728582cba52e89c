"""Whole tournaments through the real command line against the loopback stub server.

Three debaters (ollama/m1..m3) and a two-judge panel (ollama/j1, j2), lightning
format, two motions, fact-check off: 3 pairs x 2 motions x 2 sides = 12 debates
of 4 speeches + 2 judges x 2 orientations = 8 requests each. The stub tags each
speech with its speaker and a scripted judge scores mN at 0.35 + 0.08 N (N up to 8) of every
maximum, so the true order is known.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log, read_eval_log_samples

from debatebench_eval.cli.main import main
from debatebench_eval.runs.planned import PlannedTask
from debatebench_eval.runs.shares import deal
from debatebench_eval.runs.worker import SOCKET_PATH_MAX
from debatebench_eval.tournament.manifest import read_manifest
from debatebench_eval.tournament.outcomes import read_tournament

from support.paths import data_home
from support.stub_server import StubBehaviour, StubServer
from support.tournaments import ranked_judge

COMMAND = str(Path(sys.executable).parent / "debatebench-eval")
MODELS = "ollama/m1,ollama/m2,ollama/m3"
PLAN = ["--judges", "ollama/j1,ollama/j2", "--format", "lightning", "--limit", "2",
        "-T", "fact_check=false"]  # fmt: skip
WORKER = ["--max-connections", "4", "--display", "none"]
RUN = ["tournament", "run", *PLAN, *WORKER]
PER_DEBATE = 8  # 4 speeches, 2 judges x 2 orientations


@pytest.fixture
def stub() -> Iterator[StubServer]:
    behaviour = StubBehaviour(tag_speech=True, script=ranked_judge, latency_s=0.05, slots=4)
    with StubServer(behaviour) as server:
        yield server


def start(stub: StubServer, tmp_path: Path, log_dir: Path, *args: str) -> subprocess.Popen[str]:
    """`debatebench-eval tournament run` in its own process group (so a test can kill it all)."""
    env = {**os.environ, "OLLAMA_BASE_URL": stub.base_url, "NO_COLOR": "1",
           # Inspect's sample buffer (what a resume recovers from) stays in the test's folder.
           "XDG_DATA_HOME": str(data_home(tmp_path))}  # fmt: skip
    process = subprocess.Popen(
        [COMMAND, *RUN, "--log-dir", str(log_dir), *args], env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    return process


def tournament(
    stub: StubServer, tmp_path: Path, log_dir: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    process = start(stub, tmp_path, log_dir, *args)
    out, err = process.communicate(timeout=600)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def samples(log_dir: Path, tasks: set[str] | None = None) -> list:  # type: ignore[type-arg]
    """The samples in the folder's logs (of these tasks only, when given)."""
    found = []
    for info in list_eval_logs(str(log_dir)):
        if tasks is None or read_eval_log(info, header_only=True).eval.task in tasks:
            found += list(read_eval_log_samples(info, all_samples_required=False))
    return found


def until_logged(log_dir: Path, tasks: set[str] | None = None) -> None:
    """Wait until a finished debate (of these tasks) is in the folder's logs: a kill
    after it lands mid-run with something kept, however fast the machine."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):  # a log being created reads as nothing yet
            if any(s.error is None for s in samples(log_dir, tasks)):
                return
        time.sleep(0.05)
    raise AssertionError("no debate reached the log within 120 s")


def test_a_killed_tournament_resumes_without_running_a_debate_twice_and_grows(
    stub: StubServer, tmp_path: Path
) -> None:
    log_dir = tmp_path / "tourney"
    first = start(stub, tmp_path, log_dir, "--models", MODELS)
    until_logged(log_dir)
    os.killpg(first.pid, signal.SIGKILL)  # the whole command, mid-run
    first.communicate(timeout=60)
    killed_at = datetime.now().astimezone()
    time.sleep(0.3)  # replies to requests in flight at the kill reach no one
    before = len(stub.behaviour.requests)
    logged = _logged_uuids(log_dir)

    again = tournament(stub, tmp_path, log_dir, "--models", MODELS)
    assert again.returncode == 0, again.stderr
    after = samples(log_dir)
    assert len(after) == 12, "the crashed run's logs are tidied once their debates are kept"
    logs = read_tournament([str(log_dir)])
    assert [r.status for r in logs.results] == ["scored"] * 12
    assert not logs.duplicates
    finished_before = [s for s in after if datetime.fromisoformat(s.completed_at) < killed_at]
    assert 0 < len(finished_before) < 12, "the kill must land mid-run"
    # No debate ran twice: the resume asked only for the debates not finished before the kill.
    assert len(stub.behaviour.requests) - before == PER_DEBATE * (12 - len(finished_before))
    # The debates the crashed run's logs held are the same samples, not re-run copies,
    # and they are every debate it finished.
    kept = {s.uuid for s in after}
    assert logged and logged <= kept and len(logged) == len(finished_before)

    # A fourth model: only its 3 new pairs run, the old debates are untouched.
    grown_before = len(stub.behaviour.requests)
    grown = tournament(stub, tmp_path, log_dir, "--models", MODELS + ",ollama/m4")
    assert grown.returncode == 0, grown.stderr
    assert len(stub.behaviour.requests) - grown_before == 3 * 4 * PER_DEBATE
    grown_uuids = {s.uuid for s in samples(log_dir)}
    assert kept <= grown_uuids and len(grown_uuids) == 24

    rate = subprocess.run([COMMAND, "tournament", "rate", str(log_dir)], capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert rate.returncode == 0, rate.stderr
    board = json.loads((log_dir / "leaderboard.json").read_text())
    assert [row["model"] for row in board["models"]] == [f"ollama/m{i}" for i in (4, 3, 2, 1)]
    assert board["counts"]["eligible_matchups"] == 12 and board["counts"]["missing"] == 0
    assert "# Tournament leaderboard" in (log_dir / "leaderboard.md").read_text()


def _logged_uuids(log_dir: Path) -> set[str]:
    """The debates the killed run's logs hold, read before the resume: a worker writes
    each finished debate into its log at once, so no other copy (Inspect's live-view
    buffer, on the killed machine only) is needed to keep it."""
    uuids: set[str] = set()
    for info in list_eval_logs(str(log_dir)):
        found = read_eval_log_samples(info.name, all_samples_required=False)
        uuids |= {s.uuid for s in found if s.error is None and s.uuid}
    return uuids


def command(
    stub: StubServer, tmp_path: Path, *args: str, xdg: str = "xdg"
) -> subprocess.Popen[str]:
    """Any `debatebench-eval` command against the stub, in its own process group."""
    env = {**os.environ, "OLLAMA_BASE_URL": stub.base_url, "NO_COLOR": "1",
           "XDG_DATA_HOME": str(data_home(tmp_path, xdg))}  # fmt: skip
    return subprocess.Popen([COMMAND, *args], env=env, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip


def plan(stub: StubServer, tmp_path: Path, log_dir: Path, models: str = MODELS) -> str:
    planned = command(stub, tmp_path, "tournament", "plan", *PLAN, "--models", models,
                      "--log-dir", str(log_dir))  # fmt: skip
    out, err = planned.communicate(timeout=300)
    assert planned.returncode == 0, err
    return out


def worker(
    stub: StubServer,
    tmp_path: Path,
    log_dir: Path,
    index: int,
    workers: int,
    xdg: str,
    *args: str,
) -> subprocess.Popen[str]:
    return command(stub, tmp_path, "tournament", "worker", str(log_dir), "--index", str(index),
                   "--workers", str(workers), *WORKER, *args, xdg=xdg)  # fmt: skip


def planned_tasks(log_dir: Path) -> tuple[PlannedTask, ...]:
    manifest = read_manifest(str(log_dir))
    assert manifest is not None and manifest.plan is not None
    return manifest.plan.tasks


def finish(process: subprocess.Popen[str]) -> str:
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    return out


def test_two_workers_at_once_fill_one_folder_without_duplicates(
    stub: StubServer, tmp_path: Path
) -> None:
    log_dir = tmp_path / "tourney"
    out = plan(stub, tmp_path, log_dir)
    assert "planned 3 task(s)" in out and "--index K --workers N" in out
    # Before paying: each debate's 8 calls (4 speeches, 2 judges x 2 readings) at the caps.
    assert "cost of the 12 debate(s) to run: 96 model calls" in out
    assert not list_eval_logs(str(log_dir)), "the plan runs nothing"
    # Each in its own data folder, as on two machines.
    workers = [worker(stub, tmp_path, log_dir, k, 2, f"xdg{k}") for k in (0, 1)]
    outs = [finish(w) for w in workers]
    assert "share 0 of 2: 2 task(s)" in outs[0] and "share 1 of 2: 1 task(s)" in outs[1]
    logs = read_tournament([str(log_dir)])
    assert sorted(r.status for r in logs.results) == ["scored"] * 12
    assert not logs.duplicates and len(logs.logs) == 3
    assert len(stub.behaviour.requests) == 12 * PER_DEBATE  # each debate once
    # Each finished debate is written into the log at once, nothing left to a
    # machine's own live-view buffer (from which only that machine could recover it).
    configs = [read_eval_log(log.location, header_only=True).eval.config for log in logs.logs]
    assert all(c.log_buffer == 1 and c.log_realtime is False for c in configs)
    # A worker whose share is settled runs nothing and says so by its exit status.
    again = finish(worker(stub, tmp_path, log_dir, 1, 2, "xdg1"))
    assert "debates: 4 scored" in again and len(stub.behaviour.requests) == 12 * PER_DEBATE


def test_a_killed_worker_run_again_finishes_its_share_and_runs_no_debate_twice(
    stub: StubServer, tmp_path: Path
) -> None:
    log_dir = tmp_path / "tourney"
    plan(stub, tmp_path, log_dir)
    share = {task.name for task in deal(planned_tasks(log_dir), 2)[0]}
    assert len(share) == 2
    # Two debates at once per pair: worker 0's first four finish well before its last four.
    first, other = (worker(stub, tmp_path, log_dir, k, 2, f"xdg{k}", "--max-samples", "2")
                    for k in (0, 1))  # fmt: skip
    until_logged(log_dir, share)
    os.killpg(first.pid, signal.SIGKILL)  # worker 0, mid-run; worker 1 goes on
    first.communicate(timeout=60)
    killed_at = datetime.now().astimezone()
    finish(other)
    time.sleep(0.3)  # replies to requests in flight at the kill reach no one
    before = len(stub.behaviour.requests)
    logged = _logged_uuids(log_dir)

    finish(worker(stub, tmp_path, log_dir, 0, 2, "xdg0"))
    logs = read_tournament([str(log_dir)])
    assert [r.status for r in logs.results] == ["scored"] * 12
    assert not logs.duplicates and len(logs.logs) == 3, "the killed worker's logs are tidied"
    # Debates of worker 0 finished before the kill, as the resumed logs hold them.
    finished_before = [
        s for s in samples(log_dir, share) if datetime.fromisoformat(s.completed_at) < killed_at
    ]
    assert 0 < len(finished_before) < 8, "the kill must land mid-share"
    assert len(stub.behaviour.requests) - before == PER_DEBATE * (8 - len(finished_before))
    # Every debate the killed worker finished is kept as it was, not run again: the
    # count above alone would also hold if a finished debate were re-run.
    share_uuids = {s.uuid for s in samples(log_dir, share)}
    assert logged & share_uuids and logged <= {s.uuid for s in samples(log_dir)}
    assert len(logged & share_uuids) == len(finished_before)


def test_a_worker_beside_other_tasks_half_written_logs_and_with_its_own_unreadable_finishes(
    stub: StubServer, tmp_path: Path
) -> None:
    """What a shared folder holds while other workers write: their logs cut mid-file or
    just created. None is opened; the worker's own unreadable log is passed over with a
    note, and its task runs from the start."""
    log_dir = tmp_path / "tourney"
    plan(stub, tmp_path, log_dir)
    mine, theirs = deal(planned_tasks(log_dir), 2)
    stamp = "2026-01-01T00-00-00+00-00"
    zip_start = b"PK\x03\x04" + bytes(200)  # a zip's first entry, no directory yet
    for n, (task, content) in enumerate([(theirs[0], zip_start), (theirs[0], b""), (mine[1], b"")]):
        (log_dir / f"{stamp}_{task.name.replace('_', '-')}_x{n}.eval").write_bytes(content)
    out = finish(worker(stub, tmp_path, log_dir, 0, 2, "xdg0"))
    [note] = [line for line in out.splitlines() if line.startswith("passed over")]
    assert mine[1].name.replace("_", "-") in note and "not readable" in note
    assert "debates: 8 scored" in out
    assert len(stub.behaviour.requests) == 8 * PER_DEBATE  # each debate of the share once


def test_failed_debates_are_listed_and_a_rerun_runs_only_them(tmp_path: Path) -> None:
    log_dir = tmp_path / "tourney"
    broken = StubBehaviour(tag_speech=True, script=ranked_judge, broken="json",
                           broken_models=frozenset({"m3"}))  # fmt: skip
    with StubServer(broken) as stub:
        port = stub.port
        first = tournament(stub, tmp_path, log_dir, "--models", MODELS, "--retry-attempts", "0",
                           "-T", "empty_retries=0")  # fmt: skip
    assert first.returncode == 1, first.stderr
    assert "debates: 4 scored, 0 unscored, 8 error, 0 missing" in first.stdout
    assert "run the same command again to resume" in first.stdout
    assert "ollama/m3" in first.stdout and "not valid JSON" in first.stdout
    with StubServer(StubBehaviour(tag_speech=True, script=ranked_judge), port=port) as fixed:
        again = tournament(fixed, tmp_path, log_dir, "--models", MODELS, "-T", "empty_retries=0")
        assert again.returncode == 0, again.stderr
        assert len(fixed.behaviour.requests) == 8 * PER_DEBATE  # the failed debates only
    assert "debates: 12 scored" in again.stdout


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["tournament", *args])
    captured = capsys.readouterr()
    return code, captured.err.strip()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--models", "ollama/a,ollama/a", "--judges", "ollama/j"],
         "--models: ollama/a is listed twice; expected each model once."),
        (["--models", "ollama/a", "--judges", "ollama/j"],
         "--models: 1 model(s) (ollama/a); expected at least 2"),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/b"],
         "--judges: ollama/b is also in --models: it would judge debates it argues; expected "
         "judges distinct from the debaters, or --allow-self-judging."),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/j", "--workers", "0"],
         "--workers: got 0; expected an integer of at least 1, or auto."),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/j", "--workers", "many"],
         "--workers: got many; expected an integer of at least 1, or auto."),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/j", "--batch", "0"],
         "--batch: got 0; expected nothing (on), or requests a batch, 1 or more."),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/j", "--cost-limit", "2"],
         "--cost-limit: ollama/a has no price Inspect can count (not in --model-cost-config)"),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/j", "--max-connections", "0"],
         "--max-connections: got 0; expected an integer of at least 1."),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/j", "--limit", "99"],
         "--limit: got 99; expected 1 to 36"),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/j", "--format", "nope"],
         "--format: unknown format 'nope'"),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/j", "-T", "motion=x"],
         "-T motion: set by the tournament itself"),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/j", "-T", "budgets=3"],
         "-T budgets: unknown option"),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/j", "-T", "run={probe: 3}"],
         "-T run: a form this package no longer takes; expected each run setting"),
        (["--models", "ollama/a,ollama/b", "--judges", "ollama/j", "-T", "budget=lots"],
         "-T budget: got 'lots'; expected an integer of at least 1."),
    ],
)  # fmt: skip
def test_bad_input_gets_one_message_naming_the_flag(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    code, err = run_main(capsys, "run", *args, "--log-dir", str(tmp_path / "t"))
    assert code == 2
    assert message in err and "Traceback" not in err and len(err.splitlines()) == 1
    assert not (tmp_path / "t").exists()  # nothing written


def test_a_worker_is_refused_a_share_the_plan_does_not_have(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log_dir = tmp_path / "t"
    code, err = run_main(capsys, "worker", str(log_dir), "--index", "0", "--workers", "1")
    assert code == 2 and err == (
        f"debatebench-eval tournament worker: {log_dir}: no tournament.json in it; expected "
        f"a folder planned by `debatebench-eval tournament plan ... --log-dir {log_dir}`."
    )
    # No server needed: the plan's probe is off and capture calls no model.
    code, err = run_main(capsys, "plan", "--models", "ollama/a,ollama/b,ollama/c", "--judges",
                         "ollama/j", "--limit", "1", "-T", "probe=false", "--log-dir",
                         str(log_dir))  # fmt: skip
    assert code == 0, err
    names = tmp_path / "names.txt"
    names.write_text("# mine\nollama-a_vs_ollama-b\n\nollama-a_vs_ollama-x\n")
    cases = [
        (["--index", "2", "--workers", "2"],
         "--index: got 2 with --workers 2; expected 0 to 1 (0-based, as SLURM_ARRAY_TASK_ID "
         "and JOB_COMPLETION_INDEX are)."),
        (["--index", "0"], "tournament worker: no share given; expected --index K --workers N, "
         "or --tasks FILE."),
        (["--tasks", str(names), "--workers", "2"],
         "--tasks: given with --index/--workers; expected one way to choose."),
        (["--tasks", str(names)],
         f"{names}, line 4: 'ollama-a_vs_ollama-x' is not a planned task; expected a task "
         "name of the plan, one a line (ollama-a_vs_ollama-b, ollama-a_vs_ollama-c, "
         "ollama-b_vs_ollama-c)."),
    ]  # fmt: skip
    before = sorted(p.name for p in log_dir.iterdir())
    for args, message in cases:
        code, err = run_main(capsys, "worker", str(log_dir), *args)
        assert code == 2 and err == f"debatebench-eval tournament worker: {message}", err
    assert sorted(p.name for p in log_dir.iterdir()) == before  # nothing written


def test_a_worker_whose_data_folder_is_too_deep_for_its_socket_says_so_before_any_call(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log_dir = tmp_path / "t"
    code, err = run_main(capsys, "plan", "--models", "ollama/a,ollama/b", "--judges",
                         "ollama/j", "--limit", "1", "-T", "probe=false", "--log-dir",
                         str(log_dir))  # fmt: skip
    assert code == 0, err
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    monkeypatch.setenv("XDG_DATA_HOME", str(deep))
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://127.0.0.1:9/v1")  # no server
    code, err = run_main(capsys, "worker", str(log_dir), "--index", "0", "--workers", "1")
    socket = f"{deep / 'inspect_ai' / 'acp' / str(os.getpid())}.sock"
    assert code == 2 and err == (
        f"debatebench-eval tournament worker: Inspect's data folder: {deep / 'inspect_ai'}: "
        f"a worker's socket there, {os.getpid()}.sock in acp/, has a path of "
        f"{len(socket)} bytes; expected a folder whose socket path fits in 107 bytes: set "
        "XDG_DATA_HOME to a shorter folder on the worker's own disk."
    ), err
    assert not list_eval_logs(str(log_dir))


def test_the_socket_limit_is_the_systems(tmp_path: Path) -> None:
    """107 bytes binds and 108 does not, on Linux, where the check's figure is pinned."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the figure checked is Linux's")
    short = Path(tempfile.mkdtemp(prefix="sock-"))
    try:
        for length, binds in ((SOCKET_PATH_MAX, True), (SOCKET_PATH_MAX + 1, False)):
            path = str(short / "s") + "x" * (length - len(str(short / "s")))
            with socket.socket(socket.AF_UNIX) as sock:
                if binds:
                    sock.bind(path)
                else:
                    with pytest.raises(OSError, match="too long"):
                        sock.bind(path)
    finally:
        shutil.rmtree(short)


def test_the_plan_takes_the_run_settings_and_the_timeout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`-T probe=false` turns the probe off (no server answers here, so a probe would
    fail the plan), and --timeout is kept in the manifest for every worker."""
    log_dir = tmp_path / "t"
    code, err = run_main(capsys, "plan", "--models", "ollama/a,ollama/b", "--judges",
                         "ollama/j", "--limit", "1", "-T", "probe=false", "--timeout", "30",
                         "--log-dir", str(log_dir))  # fmt: skip
    assert code == 0, err
    manifest = read_manifest(str(log_dir))
    assert manifest is not None
    assert dict(manifest.schedule.settings.task_args) == {"probe": False}
    assert manifest.schedule.settings.timeout == 30


def test_a_folder_holding_another_tournament_is_refused(
    stub: StubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log_dir = tmp_path / "tourney"
    done = tournament(stub, tmp_path, log_dir, "--models", "ollama/m1,ollama/m2", "--limit", "1")
    assert done.returncode == 0, done.stderr
    before = sorted(p.name for p in log_dir.iterdir())
    other = subprocess.run(
        [COMMAND, "tournament", "run", "--models", "ollama/m1,ollama/m2", "--judges",
         "ollama/j1,ollama/j2", "--format", "classic", "--log-dir", str(log_dir)],
        capture_output=True, text=True, timeout=300, env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    assert other.returncode == 2
    assert other.stderr.strip() == (
        f"debatebench-eval tournament run: --log-dir {log_dir}: holds another tournament "
        "(format is lightning there, classic here); expected the same settings as the "
        "tournament there, or another --log-dir."
    )
    assert sorted(p.name for p in log_dir.iterdir()) == before  # nothing lost or written
    code, err = run_main(capsys, "rate", str(tmp_path / "nowhere"))
    assert code == 2 and "no tournament.json in it" in err


def test_a_tournament_with_nothing_scored_fails_and_rate_says_why(tmp_path: Path) -> None:
    log_dir = tmp_path / "tourney"
    with StubServer(StubBehaviour(tag_speech=True)) as stub:  # speech is no verdict
        run = tournament(stub, tmp_path, log_dir, "--models", "ollama/m1,ollama/m2",
                         "--limit", "1")  # fmt: skip
    assert run.returncode == 1, run.stderr
    assert "debates: 0 scored, 2 unscored, 0 error, 0 missing" in run.stdout
    assert run.stdout.rstrip().splitlines()[-1] == (
        "nothing was scored: 0 of 2 debates; the judges' reasons are listed above, under "
        "each pair's log"
    )
    assert "tournament rate" not in run.stdout  # nothing to rate: it is not offered
    rate = subprocess.run([COMMAND, "tournament", "rate", str(log_dir), "--no-plots"],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert rate.returncode == 1
    assert rate.stderr.strip() == (
        "debatebench-eval tournament rate: nothing is rated: no matchup has both its debates "
        "(sides exchanged) scored; of 2 scheduled debates: 0 scored, 2 unscored, 0 error, 0 "
        "missing; the judges gave no usable verdict (each reason is in leaderboard.md): "
        "re-judge the logs with `inspect score LOG --scorer debatebench/rubric "
        "--model-role judge=...` or run again with other --judges"
    )
