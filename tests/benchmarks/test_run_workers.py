"""The `run --workers` benchmark's own parts: the command it times, where it reads a run's
timeline from, and the issue's targets."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

# The benchmark scripts import each other by bare name, as they do when run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchmark_run_workers import (
    ONE,
    clients,
    run_client,
    run_command,
    target_lines,
    timeline,
)
from benchmark_throughput import CHAIN, PROCESSES, our_command
from client_runs import StubRun, Timing, run_on_stub

ARGS = argparse.Namespace(slots=8, latency=0.25)


def request(motion: int) -> dict[str, Any]:
    system = f'The motion is: "Motion number {motion} should pass."'
    return {"messages": [{"role": "system", "content": system}, {"role": "user", "content": "Go"}]}


def timing(wall: float, busy: float) -> Timing:
    return Timing(wall=wall, busy=busy, first_request=1.0, requests=6, cpu=0.06)


def test_run_takes_the_one_process_command_s_options(tmp_path: Path) -> None:
    one = our_command(tmp_path, 4, 8)
    sharded = run_command(tmp_path, 4, 8, "2")
    assert Path(sharded[0]).name == "debatebench-eval"
    assert sharded[1:5] == ["run", "debatebench/debate", "--workers", "2"]
    assert sharded[5:] == one[3:] and "--max-connections" in sharded
    assert list(clients(4, 8, ["2", "auto"])) == [PROCESSES, ONE, run_client("2"),
                                                  run_client("auto")]  # fmt: skip


def test_the_timeline_splits_the_first_requests_by_shard_and_reads_the_run_s_files() -> None:
    arrivals = [(5.0, request(1)), (5.5, request(3)), (6.0, request(0)), (7.0, request(2))]
    files = {
        "motions.yaml": 0.0,
        "logs/run-0123456789ab-tasks.json": 1.5,
        "logs/run-0123456789ab.json": 2.0,
        "logs/2026-01-01T00-00-00-00-00_debate-shard-2-of-2_abc.eval": 30.0,
        "logs/2026-01-01T00-00-00-00-00_debate-shard-1-of-2_def.eval": 31.0,
        "logs/run-0123456789ab-results.json": 33.0,
    }
    line = timeline(StubRun(timing(34.0, 25.0), arrivals, 30.5, files))
    assert line.plan == 2.0 and line.pooled == 33.0 and line.exit == 34.0
    assert line.first_requests == [6.0, 5.0]  # shard 1 holds motions 0, 2; shard 2 1, 3
    assert line.start_ups() == [4.0, 3.0]
    assert line.logs == [31.0, 30.0]  # by shard


def test_one_process_has_one_shard_and_no_plan() -> None:
    files = {"logs/2026-01-01T00-00-00-00-00_debate_abc.eval": 9.0}
    line = timeline(StubRun(timing(10.0, 6.0), [(3.0, request(4)), (3.1, request(0))], 9.0, files))
    assert line.plan is None and line.pooled is None and line.start_ups() == []
    assert line.first_requests == [3.0] and line.logs == [9.0]


def test_the_targets_say_met_or_not_and_leave_the_baseline_unjudged() -> None:
    fast, slow = run_client("2"), run_client("auto")
    timings = {
        300: {PROCESSES: timing(72.0, 70.0), ONE: timing(66.0, 60.0), fast: timing(59.0, 57.0),
              slow: timing(61.0, 58.0)},
        48: {PROCESSES: timing(14.0, 11.0), ONE: timing(13.0, 11.6), fast: timing(12.0, 10.7),
             slow: timing(13.0, 11.0)},
    }  # fmt: skip
    text = "\n".join(target_lines(timings, ARGS))
    assert f"{fast}, 300 debates: 1.22x faster" in text and "(target >= 1.20): met" in text
    assert f"{slow}, 300 debates: 1.18x faster" in text and "NOT met" in text
    assert f"{fast}, 48 debates: first request to last reply 1.19x ideal" in text
    assert f"{slow}, 48 debates: first request to last reply 1.22x ideal" in text
    assert text.count("the baseline, not a target") == 2
    assert "not measured" not in text
    only_small = "\n".join(target_lines({16: timings[48]}, ARGS))
    assert "not measured: no run at 300 or 48 debates" in only_small


def test_a_run_on_the_stub_gives_its_timeline_in_order() -> None:
    command = clients(2, 8, ["2"])[run_client("2")]
    run = run_on_stub(run_client("2"), command, 2 * CHAIN, 8, 0.0)
    line = timeline(run)
    assert line.plan is not None and line.pooled is not None and len(line.first_requests) == 2
    assert line.plan < min(line.first_requests) <= line.last_reply <= line.pooled <= line.exit
    assert len(line.logs) == 2 and max(line.logs) <= line.pooled
