"""The shipped Slurm array-job template, submitted to a single-node Slurm started for
the session (tests/deploy/conftest.py): the cluster runs an array job, the template
refuses to start without its folder, and it runs a planned tournament's workers
against the loopback stub server into a folder on disk or on a local S3 server (moto),
after which the leaderboard rates every debate."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.command_line import subcommands
from support.object_store import S3Server
from support.paths import ROOT, data_home
from support.slurm import LocalSlurm
from support.stub_server import StubBehaviour, StubServer
from support.tournaments import ranked_judge

TEMPLATE = ROOT / "deploy" / "slurm" / "tournament-array.sbatch"
COMMAND = str(Path(sys.executable).parent / "debatebench-eval")
PLAN = ["--models", "ollama/m1,ollama/m2,ollama/m3", "--judges", "ollama/j1", "--format",
        "lightning", "--limit", "1", "-T", "fact_check=false"]  # fmt: skip
PER_DEBATE = 6  # 4 speeches, 1 judge x 2 orientations


def submit(
    slurm: LocalSlurm, script: Path, folder: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """`sbatch --array=0-1 --wait`: returns once both tasks have ended."""
    return subprocess.run(
        ["sbatch", "--array=0-1", "--wait", f"--chdir={folder}", str(script)],
        env={**slurm.env, **env}, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def outputs(folder: Path) -> str:
    return "\n".join(p.read_text() for p in sorted(folder.glob("*.out")))


def test_the_local_cluster_runs_an_array_job(slurm: LocalSlurm, tmp_path: Path) -> None:
    script = tmp_path / "each.sbatch"
    script.write_text('#!/bin/bash\n#SBATCH --output=task-%a.out\n'
                      'echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT"\n')  # fmt: skip
    done = submit(slurm, script, tmp_path, {})
    assert done.returncode == 0, done.stderr + outputs(tmp_path)
    found = [path.read_text() for path in sorted(tmp_path.glob("task-*.out"))]
    assert found == ["task 0 of 2\n", "task 1 of 2\n"]


def test_the_template_without_its_folder_fails_saying_what_to_set(
    slurm: LocalSlurm, tmp_path: Path
) -> None:
    env = {k: v for k, v in slurm.env.items() if k != "LOG_DIR"}
    done = subprocess.run(["sbatch", "--array=0-1", "--wait", f"--chdir={tmp_path}",
                           str(TEMPLATE)], env=env, capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode != 0
    refused = "LOG_DIR: set LOG_DIR to the folder of the planned tournament (see the header"
    assert refused in outputs(tmp_path)


@pytest.mark.parametrize("store", ["disk", "s3"])
def test_the_template_runs_a_planned_tournaments_workers_then_rate_reads_them(
    slurm: LocalSlurm, tmp_path: Path, store: str
) -> None:
    """Plan, the array of two workers, rate: in a folder on disk, or on a local S3."""
    if not {"plan", "worker"} <= subcommands("tournament"):
        pytest.skip("needs `debatebench-eval tournament plan` and `worker` (issue 27, item 1)")
    with contextlib.ExitStack() as stack:
        stub = stack.enter_context(
            StubServer(StubBehaviour(tag_speech=True, script=ranked_judge, slots=4))
        )
        env = {"OLLAMA_BASE_URL": stub.base_url, "NO_COLOR": "1",
               "XDG_DATA_HOME": str(data_home(tmp_path)), "DEBATEBENCH_EVAL": COMMAND,
               "WORKER_ARGS": "--display none"}  # fmt: skip
        if store == "s3":
            s3 = stack.enter_context(S3Server(tmp_path))
            s3.client().create_bucket(Bucket="bucket")
            env |= {**s3.env(), "LOG_DIR": "s3://bucket/t"}
        else:
            env["LOG_DIR"] = str(tmp_path / "tourney")
        plan = subprocess.run(
            [COMMAND, "tournament", "plan", *PLAN, "--log-dir", env["LOG_DIR"]],
            env={**slurm.env, **env}, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert plan.returncode == 0, plan.stderr
        done = submit(slurm, TEMPLATE, tmp_path, env)
        printed = outputs(tmp_path)
        assert done.returncode == 0, done.stderr + printed
        assert "worker, share 0 of 2" in printed and "worker, share 1 of 2" in printed
        rate = subprocess.run(
            [COMMAND, "tournament", "rate", env["LOG_DIR"], "--resamples", "100", "--no-plots"],
            env={**os.environ, **env}, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert rate.returncode == 0, rate.stderr
        board = json.loads(
            s3.read("bucket", "t/leaderboard.json") if store == "s3"
            else (tmp_path / "tourney" / "leaderboard.json").read_text()
        )  # fmt: skip
    assert [row["model"] for row in board["models"]] == ["ollama/m3", "ollama/m2", "ollama/m1"]
    assert board["counts"]["eligible_debates"] == 6 and board["counts"]["missing"] == 0
    assert len(stub.behaviour.requests) == 6 * PER_DEBATE, "no debate ran twice"
