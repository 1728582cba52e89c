"""A tournament whose folder is on an object store: `--log-dir s3://bucket/t` on a local
S3 server (moto), through the real command line and Inspect's own file access.

Three debaters and one judge against the loopback stub server, lightning format, one
motion, fact-check off: 3 pairs x 2 sides = 6 debates of 4 speeches and 2 judge
readings each. The scripted judge scores mN higher for higher N, so the order is known.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai.log import EvalSample, read_eval_log_samples

from support.object_store import S3Server
from support.paths import data_home
from support.rejudging import debatebench_folder
from support.stub_server import StubBehaviour, StubServer
from support.tournaments import ranked_judge

COMMAND = str(Path(sys.executable).parent / "debatebench-eval")
RUN = ["tournament", "run", "--models", "ollama/m1,ollama/m2,ollama/m3", "--judges",
       "ollama/j1", "--format", "lightning", "--limit", "1", "-T", "fact_check=false",
       "--max-connections", "4", "--display", "none"]  # fmt: skip
PER_DEBATE = 6  # 4 speeches, 1 judge x 2 orientations
BOARD = ("leaderboard.json", "leaderboard.md", "leaderboard.html", "leaderboard.eval",
         "ratings.png", "head_to_head.png")  # fmt: skip


@pytest.fixture
def s3(tmp_path: Path) -> Iterator[S3Server]:
    with S3Server(tmp_path) as server:
        server.client().create_bucket(Bucket="bucket")
        yield server


@pytest.fixture
def stub() -> Iterator[StubServer]:
    behaviour = StubBehaviour(tag_speech=True, script=ranked_judge, slots=4)
    with StubServer(behaviour) as server:
        yield server


def command(
    args: list[str],
    s3: S3Server,
    tmp_path: Path,
    stub: StubServer | None = None,
    endpoint: str | None = None,
    xdg: str = "xdg",
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **s3.env(endpoint), "NO_COLOR": "1",
           "OLLAMA_BASE_URL": stub.base_url if stub else "http://127.0.0.1:9",
           "XDG_DATA_HOME": str(data_home(tmp_path, xdg))}  # fmt: skip
    return subprocess.run([COMMAND, *args], env=env, capture_output=True, text=True,
                          timeout=600)  # fmt: skip


def test_a_tournament_on_s3_runs_resumes_and_is_rated_there(
    s3: S3Server, stub: StubServer, tmp_path: Path
) -> None:
    # Two local workers write into the bucket at once.
    first = command([*RUN, "--workers", "2", "--log-dir", "s3://bucket/t"], s3, tmp_path, stub)
    assert first.returncode == 0, first.stderr
    assert "debates: 6 scored, 0 unscored, 0 error, 0 missing" in first.stdout
    assert len(stub.behaviour.requests) == 6 * PER_DEBATE
    keys = s3.keys("bucket", "t/")
    assert "t/tournament.json" in keys
    assert len([k for k in keys if k.endswith(".eval")]) == 3, "one log per pair, in the bucket"

    # Run again: every debate is found in the bucket's logs, so nothing is asked again.
    again = command([*RUN, "--log-dir", "s3://bucket/t"], s3, tmp_path, stub)
    assert again.returncode == 0, again.stderr
    assert len(stub.behaviour.requests) == 6 * PER_DEBATE

    rate = command(["tournament", "rate", "s3://bucket/t", "--resamples", "100"], s3, tmp_path)
    assert rate.returncode == 0, rate.stderr
    assert set(rate.stdout.split()) == {f"s3://bucket/t/{name}" for name in BOARD}
    assert {f"t/{name}" for name in BOARD} <= set(s3.keys("bucket", "t/"))
    board = json.loads(s3.read("bucket", "t/leaderboard.json"))
    assert [row["model"] for row in board["models"]] == ["ollama/m3", "ollama/m2", "ollama/m1"]
    assert board["counts"]["eligible_matchups"] == 3
    assert board["tournament"]["folders"] == ["s3://bucket/t"]
    assert b"# Tournament leaderboard" in s3.read("bucket", "t/leaderboard.md")


# A killed worker, run again elsewhere: two models, one judge, three motions, so the
# pair's task has 6 debates and Inspect's own default would hold 2 before uploading.
PLAN = ["tournament", "plan", "--models", "ollama/m1,ollama/m2", "--judges", "ollama/j1",
        "--format", "lightning", "--limit", "3", "-T", "fact_check=false",
        "--log-dir", "s3://bucket/k"]  # fmt: skip
WORKER = ["tournament", "worker", "s3://bucket/k", "--index", "0", "--workers", "1",
          "--max-connections", "4", "--display", "none"]  # fmt: skip
DEBATES = 6  # 1 pair x 3 motions x 2 sides
KILL_AFTER = 3  # debates


def test_a_killed_worker_resumed_on_another_machine_runs_no_finished_debate_again(
    s3: S3Server, tmp_path: Path
) -> None:
    slow = StubBehaviour(tag_speech=True, script=ranked_judge, latency_s=0.2, slots=4)
    with StubServer(slow) as stub:
        assert command(PLAN, s3, tmp_path, stub).returncode == 0
        # One debate at a time, so the kill lands while a later debate's first speech is
        # being answered: three debates finished, and (on a loaded machine the first
        # upload can trail the debates) at least one of them already in the bucket.
        first = spawn([*WORKER, "--max-samples", "1"], s3, tmp_path, stub, xdg="xdg-killed")
        deadline = time.monotonic() + 300
        while first.poll() is None and not (
            len(slow.requests) % PER_DEBATE == 1
            and len(slow.requests) > KILL_AFTER * PER_DEBATE
            and _bucket_samples(s3, tmp_path, "k/")
        ):
            assert time.monotonic() < deadline, _worker_said(first, tmp_path, slow)
            time.sleep(0.005)
        assert first.poll() is None, _worker_said(first, tmp_path, slow)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=60)
        time.sleep(0.3)  # replies to requests in flight at the kill reach no one
        before = len(slow.requests)
        finished = _finished_before_the_kill(s3, tmp_path)
        assert 0 < len(finished) < DEBATES, ("the kill must land mid-run", before)
        # Every debate whose requests were all answered had finished (at a kill on a
        # debate's boundary, its last judge reading may not have been scored yet).
        assert before // PER_DEBATE - len(finished) in (
            (0, 1) if before % PER_DEBATE == 0 else (0,)
        )

        # Run again in a fresh data folder, as on another node or in a new pod: the
        # killed worker's local sample buffer is out of reach, only the bucket counts.
        again = command(WORKER, s3, tmp_path, stub, xdg="xdg-elsewhere")
        assert again.returncode == 0, again.stderr
        assert "debates: 6 scored, 0 unscored, 0 error, 0 missing" in again.stdout
        rerun = len(slow.requests) - before
    kept = {s.uuid for s in _bucket_samples(s3, tmp_path, "k/")}
    assert len(kept) == DEBATES
    # The bound: a finished debate runs again only if its log upload was under way at
    # the kill (on a loaded machine it can trail the next debate's first speech): one
    # at most, with one debate at a time.
    lost = finished - kept
    assert len(lost) <= 1, (before, lost)
    assert rerun == PER_DEBATE * (DEBATES - len(finished - lost)), "no finished debate twice"
    keys = s3.keys("bucket", "k/")
    assert len([k for k in keys if k.endswith(".eval")]) == 1, "the killed log is tidied"

    rate = command(["tournament", "rate", "s3://bucket/k", "--resamples", "100", "--no-plots"],
                   s3, tmp_path)  # fmt: skip
    assert rate.returncode == 0, rate.stderr
    board = json.loads(s3.read("bucket", "k/leaderboard.json"))
    assert board["counts"]["eligible_matchups"] == 3 and board["counts"]["missing"] == 0
    assert not board["counts"]["duplicates"]
    assert [row["model"] for row in board["models"]] == ["ollama/m2", "ollama/m1"]


def spawn(
    args: list[str], s3: S3Server, tmp_path: Path, stub: StubServer, xdg: str
) -> subprocess.Popen[bytes]:
    """A command in its own process group (so a test can kill it all), its output to
    files: a pipe nobody reads would stall it once full."""
    env = {**os.environ, **s3.env(), "NO_COLOR": "1", "OLLAMA_BASE_URL": stub.base_url,
           "XDG_DATA_HOME": str(data_home(tmp_path, xdg))}  # fmt: skip
    with (tmp_path / f"{xdg}.out").open("wb") as out:
        return subprocess.Popen([COMMAND, *args], env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip


def _worker_said(worker: subprocess.Popen[bytes], tmp_path: Path, stub: StubBehaviour) -> str:
    """Why a worker never reached the kill: how far it got and the end of its output."""
    said = (tmp_path / "xdg-killed.out").read_text(errors="replace")[-3000:]
    return f"exit {worker.poll()} after {len(stub.requests)} requests; output ends:\n{said}"


def _bucket_samples(s3: S3Server, tmp_path: Path, prefix: str) -> list[EvalSample]:
    """The error-free samples of the logs under the prefix, read from local copies (the
    test process keeps no s3 client of Inspect's, whose cache outlives one server)."""
    copies = tmp_path / f"copies-{time.monotonic_ns()}"
    copies.mkdir()
    found: list[EvalSample] = []
    for i, key in enumerate(k for k in s3.keys("bucket", prefix) if k.endswith(".eval")):
        path = copies / f"{i}.eval"
        path.write_bytes(s3.read("bucket", key))
        found += [s for s in read_eval_log_samples(str(path), all_samples_required=False)
                  if s.error is None]  # fmt: skip
    return found


def _finished_before_the_kill(s3: S3Server, tmp_path: Path) -> set[str]:
    """The debates the killed worker finished: what its logs in the bucket hold, and what
    Inspect's crash recovery finds in its local sample buffer (recovered into local copies,
    so the bucket stays as the kill left it)."""
    env = {**os.environ, **s3.env(), "XDG_DATA_HOME": str(data_home(tmp_path, "xdg-killed"))}
    uuids = {s.uuid for s in _bucket_samples(s3, tmp_path, "k/")}
    recovered = tmp_path / "recovered"
    recovered.mkdir()
    for i, key in enumerate(k for k in s3.keys("bucket", "k/") if k.endswith(".eval")):
        output = recovered / f"{i}.eval"
        subprocess.run([str(Path(sys.executable).parent / "inspect"), "log", "recover",
                        f"s3://bucket/{key}", "--output", str(output), "--no-cleanup"],
                       env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
        if output.exists():
            samples = read_eval_log_samples(str(output), all_samples_required=False)
            uuids |= {s.uuid for s in samples if s.error is None}
    return {uuid for uuid in uuids if uuid}


def test_an_outcomes_file_on_s3_is_rated_beside_it(s3: S3Server, tmp_path: Path) -> None:
    rows = "motion,pro,con,winner\nq1,a,b,pro\nq1,b,a,con\n"
    s3.write("bucket", "judged/outcomes.csv", rows.encode())
    rate = command(["tournament", "rate", "--outcomes", "s3://bucket/judged/outcomes.csv",
                    "--resamples", "100", "--no-plots"], s3, tmp_path)  # fmt: skip
    assert rate.returncode == 0, rate.stderr
    assert "judged/leaderboard.json" in s3.keys("bucket", "judged/")
    board = json.loads(s3.read("bucket", "judged/leaderboard.json"))
    assert [row["model"] for row in board["models"]] == ["a", "b"]


def test_a_folder_of_debatebench_score_files_on_s3_is_rated_there(
    s3: S3Server, tmp_path: Path
) -> None:
    for path in sorted(debatebench_folder(tmp_path).iterdir()):
        s3.write("bucket", f"db/{path.name}", path.read_bytes())
    rate = command(["tournament", "rate", "s3://bucket/db", "--resamples", "100",
                    "--no-plots"], s3, tmp_path)  # fmt: skip
    assert rate.returncode == 0, rate.stderr
    board = json.loads(s3.read("bucket", "db/leaderboard.json"))
    assert board["tournament"]["source"] == "debatebench"
    assert board["tournament"]["folders"] == ["s3://bucket/db"]
    assert board["models"] and {row["model"] for row in board["models"]} == {"a", "b", "c"}
    assert board["counts"]["eligible_matchups"] == 2
    skipped = board["tournament"]["skipped_logs"]
    assert len(skipped) == 5 and all(s["log"].startswith("s3://bucket/db/") for s in skipped)
    assert b"from debatebench score files, judged by gemma4:12b" in s3.read(
        "bucket", "db/leaderboard.md"
    )

    # A malformed score file in the bucket: one message naming its URL and the key.
    sheet = json.loads(s3.read("bucket", "db/mirror-3-scores.json"))
    sheet["sides"][1]["total"] = "high"
    s3.write("bucket", "db/mirror-3-scores.json", json.dumps(sheet).encode())
    bad = command(["tournament", "rate", "s3://bucket/db", "--no-plots"], s3, tmp_path)
    assert bad.returncode == 2
    assert (
        bad.stderr.strip()
        .splitlines()[-1]
        .endswith(
            "s3://bucket/db/mirror-3-scores.json, key 'sides[1].total': got 'high'; "
            "expected a number."
        )
    )


def test_a_missing_bucket_stops_before_anything_is_written_and_is_never_created(
    s3: S3Server, tmp_path: Path
) -> None:
    # s3fs's mkdir, which the run would reach, creates a bucket that does not exist.
    run = command([*RUN, "-T", "probe=false", "--log-dir", "s3://typo/t"], s3, tmp_path)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines()[-1] == (
        "debatebench-eval tournament run: --log-dir s3://typo/t: the bucket s3://typo does "
        "not exist, or these credentials cannot see it; expected an existing bucket: create "
        "it first (a tournament never creates one)."
    )
    assert s3.buckets() == ["bucket"]
    rate = command(["tournament", "rate", "s3://typo/t"], s3, tmp_path)
    assert rate.returncode == 2
    assert "LOG_DIR s3://typo/t: the bucket s3://typo does not exist" in rate.stderr


def test_an_object_store_that_does_not_answer_is_one_message_not_a_traceback(
    s3: S3Server, tmp_path: Path
) -> None:
    down = "http://127.0.0.1:9"  # the discard port: nothing listens
    for args in ([*RUN, "--log-dir", "s3://bucket/t"], ["tournament", "rate", "s3://bucket/t"]):
        done = command(args, s3, tmp_path, endpoint=down)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert "s3://bucket/t: its object store does not answer (EndpointConnectionError" in (
            done.stderr
        )
        assert "check its endpoint (AWS_ENDPOINT_URL for s3) and credentials" in done.stderr


def test_an_adaptive_tournament_runs_its_rounds_in_the_bucket_and_a_rerun_asks_nothing(
    s3: S3Server, stub: StubServer, tmp_path: Path
) -> None:
    adaptive = [*RUN, "--adaptive", "--round-size", "2", "--max-debates", "6", "--workers",
                "2", "--log-dir", "s3://bucket/a"]  # fmt: skip
    first = command(adaptive, s3, tmp_path, stub)
    assert first.returncode == 0, first.stderr
    assert "adaptive tournament stopped: the budget of 6 debates is spent" in first.stdout
    assert len(stub.behaviour.requests) == 6 * PER_DEBATE, "each chosen debate ran once"
    manifest = json.loads(s3.client().get_object(Bucket="bucket", Key="a/tournament.json")
                          ["Body"].read())  # fmt: skip
    assert len(manifest["rounds"]) == 4 and manifest["rounds"][-1]["stopped"]
    # Run again: the rounds and their debates are read from the bucket, nothing is asked.
    again = command(adaptive, s3, tmp_path, stub)
    assert again.returncode == 0, again.stderr
    assert "the budget of 6 debates is spent" in again.stdout
    assert len(stub.behaviour.requests) == 6 * PER_DEBATE
