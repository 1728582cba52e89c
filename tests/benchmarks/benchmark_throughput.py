"""Throughput side by side: debatebench 0.1.2's CLI against this project, same debates.

A loopback OpenAI-compatible stub answers with a fixed latency and at most K
requests at a time (K "slots", like a server's parallel decoding slots). The
same workload — N debates of the same phases and budgets, no judging — runs
through (a) debatebench's `debate run.yaml` command, once per debate, as its
users run it, and (b) `inspect eval debatebench/debate` with Inspect's
concurrency. Printed: wall time, requests, the time from the first request to
the last reply (work after startup), the ideal time given K and each debate's
chain of dependent calls, and the ratios.

    python tests/benchmark_throughput.py [--debates 32] [--slots 8] [--latency 0.25]
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.stub_server import StubBehaviour, StubServer

PHASES = ["opening", "rebuttal", "conclusion"]
BUDGET = 64
BIN = Path(sys.executable).parent
TEAM = {"id": "{side}-team", "name": "{side} team", "voice": "plain", "stance": "firm",
        "values": ["clarity"]}  # fmt: skip


def write_debatebench_runs(folder: Path, base_url: str, debates: int) -> list[Path]:
    for side in ("pro", "con"):
        team = {k: (v.format(side=side) if isinstance(v, str) else v) for k, v in TEAM.items()}
        (folder / f"{side}.yaml").write_text(yaml.safe_dump(team), encoding="utf-8")
    runs = []
    for i in range(debates):
        run = {
            "topic": f"Motion number {i} should pass.",
            "format": {"phases": PHASES},
            "teams": [
                {"team": f"{side}.yaml", "side": side, "model": "stub", "base_url": base_url,
                 "budget": BUDGET} for side in ("pro", "con")
            ],
            "output": str(folder / f"transcript-{i}.json"),
        }  # fmt: skip
        path = folder / f"run-{i}.yaml"
        path.write_text(yaml.safe_dump(run, sort_keys=False), encoding="utf-8")
        runs.append(path)
    return runs


def run_debatebench(folder: Path, base_url: str, debates: int) -> None:
    for path in write_debatebench_runs(folder, base_url, debates):
        subprocess.run([str(BIN / "debate"), str(path)], check=True, capture_output=True,
                       cwd=folder, timeout=600)  # fmt: skip


def run_ours(folder: Path, base_url: str, debates: int, slots: int) -> None:
    motions = [{"id": f"m{i}", "motion": f"Motion number {i} should pass."} for i in range(debates)]
    (folder / "motions.yaml").write_text(yaml.safe_dump({"motions": motions}), encoding="utf-8")
    env = {**os.environ, "OLLAMA_BASE_URL": base_url}
    subprocess.run(
        [str(BIN / "inspect"), "eval", "debatebench/debate", "--model", "ollama/stub",
         "-T", f"motions={folder / 'motions.yaml'}", "-T", f"phases=[{', '.join(PHASES)}]",
         "-T", f"budget={BUDGET}", "--no-score", "--max-connections", str(max(slots, 1) * 4),
         "--max-samples", str(debates), "--log-dir", str(folder / "logs"), "--display", "none"],
        check=True, capture_output=True, env=env, timeout=600,
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--debates", type=int, default=32)
    parser.add_argument("--slots", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.25)
    args = parser.parse_args()
    chain = 2 * len(PHASES)
    total = args.debates * chain
    ideal = max(chain, math.ceil(total / args.slots)) * args.latency
    print(f"workload: {args.debates} debates x {chain} dependent calls = {total} requests; "
          f"stub: {args.slots} slots, {args.latency * 1000:.0f} ms per request")  # fmt: skip
    print(f"ideal time with {args.slots} slots: {ideal:.2f} s")
    results = {}
    for name in ("debatebench 0.1.2", "debatebench-eval"):
        behaviour = StubBehaviour(latency_s=args.latency, slots=args.slots)
        with tempfile.TemporaryDirectory() as tmp, StubServer(behaviour) as stub:
            start = time.perf_counter()
            if name == "debatebench-eval":
                run_ours(Path(tmp), stub.base_url, args.debates, args.slots)
            else:
                run_debatebench(Path(tmp), stub.base_url, args.debates)
            wall = time.perf_counter() - start
        times = behaviour.request_times
        busy = max(end for _, end in times) - min(begin for begin, _ in times)
        results[name] = {"wall": wall, "busy": busy}
        print(f"{name:18} wall {wall:7.2f} s, {len(times)} requests, "
              f"first request to last reply {busy:7.2f} s = {busy / ideal:.2f}x ideal")  # fmt: skip
    theirs, ours = results["debatebench 0.1.2"], results["debatebench-eval"]
    print(
        f"speed-up, wall time: {theirs['wall'] / ours['wall']:.1f}x; "
        f"after startup: {theirs['busy'] / ours['busy']:.1f}x"
    )


if __name__ == "__main__":
    main()
