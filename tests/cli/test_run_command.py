"""`debatebench-eval run TASK --workers N` through the real command line, against the
loopback stub server through the `ollama/` provider: the samples shared out over
worker processes into one folder (local and `s3://`), one headline whose figures are
the ones a single `inspect eval` of the same samples gives, a run again that runs
nothing, a larger `--limit` that runs only the new samples, and samples a dead
server failed run again on the next try, the finished ones kept."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from support.commands import run_inspect
from support.object_store import S3Server
from support.paths import data_home
from support.stub_server import StubBehaviour, StubServer

COMMAND = str(Path(sys.executable).parent / "debatebench-eval")
# Known-answer questions judged without debaters: a sample is one judge call in
# each answer order (answer_orders=both).
NAIVE = ["--model", "ollama/m1", "-T", "protocol=naive", "--display", "none"]
PER_SAMPLE = 2
TASK = "debatebench/oversight"


@pytest.fixture
def stub() -> Iterator[StubServer]:
    with StubServer(StubBehaviour(fill_schemas=True)) as server:
        yield server


def run(
    args: list[str], stub: StubServer, tmp_path: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **(env or {}), "OLLAMA_BASE_URL": stub.base_url,
                   "NO_COLOR": "1", "XDG_DATA_HOME": str(data_home(tmp_path, "xdg"))}  # fmt: skip
    return subprocess.run([COMMAND, *args], env=environment, capture_output=True, text=True,
                          timeout=600)  # fmt: skip


def pooled(folder: Path) -> dict[str, float]:
    [results] = folder.glob("run-*-results.json")
    scores = json.loads(results.read_text())["results"]["scores"]
    return {m["name"]: m["value"] for s in scores for m in s["metrics"].values()}


def test_two_workers_give_the_figures_one_inspect_eval_gives(
    stub: StubServer, tmp_path: Path
) -> None:
    folder = tmp_path / "sharded"
    done = run(["run", TASK, "--workers", "2", *NAIVE, "--limit", "6", "--log-dir", str(folder)],
               stub, tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2 shard(s), 6 samples, 6 to run; 2 worker(s)" in done.stdout
    assert "debatebench/oversight over 2 shard(s): 6 samples, 0 failed" in done.stdout
    logs = [read_eval_log(info.name) for info in list_eval_logs(str(folder))]
    assert sorted(log.eval.task for log in logs) == [
        "oversight_shard-1-of-2", "oversight_shard-2-of-2"]  # fmt: skip
    assert sorted(len(log.samples or []) for log in logs) == [3, 3]
    one = run_inspect(["eval", TASK, *NAIVE[:-2], "--limit", "6"], stub.base_url,
                      tmp_path / "single", display="none")  # fmt: skip
    assert one.returncode == 0, one.stderr
    [single] = [read_eval_log(i.name) for i in list_eval_logs(str(tmp_path / "single"))]
    assert single.results is not None
    expected = {m.name: m.value for s in single.results.scores for m in s.metrics.values()}
    assert pooled(folder) == pytest.approx(expected), "the pooled figures are one run's"


def test_a_run_again_runs_nothing_and_a_larger_limit_only_the_new_samples(
    stub: StubServer, tmp_path: Path
) -> None:
    folder = ["--log-dir", str(tmp_path / "grown")]
    for limit, samples in (("4", 4), ("4", 4), ("7", 7)):
        done = run(["run", TASK, "--workers", "2", *NAIVE, "--limit", limit, *folder],
                   stub, tmp_path)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert len(stub.behaviour.requests) == samples * PER_SAMPLE
    assert "over 2 shard(s): 7 samples, 0 failed" in done.stdout
    other = run(["run", TASK, "--shards", "3", *NAIVE, "--limit", "7", *folder], stub, tmp_path)
    assert other.returncode == 2 and "has 2 shards; expected --shards 2" in other.stderr


def test_samples_a_dead_server_failed_run_on_the_next_try_and_no_finished_one_again(
    tmp_path: Path,
) -> None:
    # Debates of 4 speeches and 2 judge readings (6 calls): a speech the server refuses
    # fails its debate; the server dies after 8 calls, part way through the second.
    behaviour = StubBehaviour(fill_schemas=True, fail_after=8)
    args = ["run", "debatebench/debate", "--workers", "1", "--model", "ollama/m1",
            "-T", "format=lightning", "-T", "fact_check=false", "--limit", "3",
            "--max-connections", "1", "--retry-attempts", "0", "--max-retries", "0",
            "--display", "none", "--log-dir", str(tmp_path / "failed")]  # fmt: skip
    with StubServer(behaviour) as server:
        first = run(args, server, tmp_path)
        assert first.returncode == 1, first.stdout + first.stderr
        failed = int(re.findall(r"3 samples, (\d) failed", first.stdout)[0])
        assert failed >= 1 and "run the same command again" in first.stdout
        behaviour.fail_after = None
        answered = len(behaviour.requests)
        again = run(args, server, tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "over 1 shard(s): 3 samples, 0 failed" in again.stdout
    assert len(behaviour.requests) - answered == 6 * failed, "only the failed debates ran again"


def test_bad_input_is_one_message_and_nothing_runs(stub: StubServer, tmp_path: Path) -> None:
    bogus = run(["run", TASK, "--bogus", "1", "--log-dir", str(tmp_path / "b")], stub, tmp_path)
    assert bogus.returncode == 2 and "Traceback" not in bogus.stderr
    assert bogus.stderr.startswith(
        f"debatebench-eval run: the options for {TASK}: No such option '--bogus'"
    )
    missing = run(["run-worker", str(tmp_path / "nowhere"), "abc", "--index", "0",
                   "--workers", "1"], stub, tmp_path)  # fmt: skip
    assert missing.returncode == 2 and "holds no plan of run abc" in missing.stderr
    assert not stub.behaviour.requests


def test_a_run_on_s3_writes_its_plan_logs_and_figures_into_the_bucket(
    stub: StubServer, tmp_path: Path
) -> None:
    with S3Server(tmp_path) as s3:
        s3.client().create_bucket(Bucket="bucket")
        args = ["run", TASK, "--workers", "2", *NAIVE, "--limit", "4",
                "--log-dir", "s3://bucket/r"]  # fmt: skip
        done = run(args, stub, tmp_path, s3.env())
        assert done.returncode == 0, done.stderr
        keys = s3.keys("bucket", "r/")
        again = run(args, stub, tmp_path, s3.env())
    assert again.returncode == 0 and len(stub.behaviour.requests) == 4 * PER_SAMPLE, again.stderr
    assert len([k for k in keys if k.endswith(".eval")]) == 2
    assert any(k.endswith("-results.json") for k in keys) and any(
        k.startswith("r/run-") and k.endswith("-tasks.json") for k in keys
    )
