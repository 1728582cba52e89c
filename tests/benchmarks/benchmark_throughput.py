"""Throughput against debatebench 0.1.2 run sequentially and in parallel, and the per-call cost.

A loopback OpenAI-compatible stub answers after a fixed latency, at most K
requests at a time (K "slots", like a server's parallel decoding slots), and
keeps connections open as real model servers do. The same debates (phases
opening, rebuttal, conclusion: 6 dependent calls each, budget 64, no judging)
run through three clients:

1. debatebench 0.1.2 sequential: one `debate run-N.yaml` after another, as the
   earlier comparison ran it;
2. debatebench with K processes at a time, the obvious way to run it fast:
   `ls run-*.yaml | xargs -P K -n 1 debate`;
3. this project: `inspect eval debatebench/debate --max-connections K`.

at each size (32, 100 and 300 debates). Printed per run: wall time; the time
from the first request to the last reply (after start-up); the ideal time,
max(chain, ceil(calls / K)) x latency, a lower bound no client can beat; the
ratios; the client's CPU (user + sys of the command and its children) per
model call. The parallel clients run `--repeat` times in alternating order and
the median is compared; sequential debatebench runs once per size.

Then one more run of the project at the profile size, under py-spy, attributes
the harness's CPU per model call to its owners (the project's code, Inspect's
event logging and log writing, the provider client, HTTP, the event loop): see
harness_profile.py. Shares come from the profile; milliseconds per call from
the unprofiled run's CPU at the same size.

    python tests/benchmarks/benchmark_throughput.py            # every figure (about 25 min)
    python tests/benchmarks/benchmark_throughput.py --quick    # 16 debates, 32 profiled (2 min)

The full run writes its output to results/benchmarks/throughput.txt too.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml
from harness_profile import attribute, parse_raw, report

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.stub_server import StubBehaviour, StubServer

PHASES = ["opening", "rebuttal", "conclusion"]
CHAIN = 2 * len(PHASES)
BUDGET = 64
BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results" / "benchmarks" / "throughput.txt"
TEAM = {"id": "{side}-team", "name": "{side} team", "voice": "plain", "stance": "firm",
        "values": ["clarity"]}  # fmt: skip
SEQUENTIAL = "debatebench 0.1.2, sequential"
PROCESSES = "debatebench 0.1.2, K processes"
OURS = "debatebench-eval"


@dataclass(frozen=True)
class Timing:
    wall: float
    busy: float  # first request to last reply
    first_request: float  # seconds from the command's start to its first request
    requests: int
    cpu: float  # user + sys of the command and every child it waited for

    def per_call_ms(self) -> float:
        return 1000 * self.cpu / self.requests


def ideal_time(debates: int, slots: int, latency: float) -> float:
    return max(CHAIN, math.ceil(debates * CHAIN / slots)) * latency


def machine() -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {load}"
    )


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


def debatebench_command(folder: Path, base_url: str, debates: int, slots: int | None) -> list[str]:
    runs = [str(p) for p in write_debatebench_runs(folder, base_url, debates)]
    if slots is None:  # one after another, stopping at the first failure
        script = 'for run in "$@"; do "$0" "$run" >/dev/null || exit 1; done'
    else:  # the shell line a user types: ls run-*.yaml | xargs -P K -n 1 debate
        script = f'printf "%s\\n" "$@" | xargs -P {slots} -n 1 "$0" >/dev/null'
    return ["sh", "-c", script, str(BIN / "debate"), *runs]


def our_command(folder: Path, debates: int, slots: int) -> list[str]:
    motions = [{"id": f"m{i}", "motion": f"Motion number {i} should pass."} for i in range(debates)]
    (folder / "motions.yaml").write_text(yaml.safe_dump({"motions": motions}), encoding="utf-8")
    return [str(BIN / "inspect"), "eval", "debatebench/debate", "--model", "ollama/stub",
            "-T", f"motions={folder / 'motions.yaml'}", "-T", f"phases=[{', '.join(PHASES)}]",
            "-T", f"budget={BUDGET}", "--no-score", "--max-connections", str(slots),
            "--log-dir", str(folder / "logs"), "--display", "none"]  # fmt: skip


def timed_run(
    client: str, debates: int, slots: int, latency: float, profile: Path | None = None
) -> Timing:
    behaviour = StubBehaviour(latency_s=latency, slots=slots, keep_alive=True)
    with tempfile.TemporaryDirectory() as tmp, StubServer(behaviour) as stub:
        folder = Path(tmp)
        if client == OURS:
            command = our_command(folder, debates, slots)
        else:
            parallel = slots if client == PROCESSES else None
            command = debatebench_command(folder, stub.base_url, debates, parallel)
        if profile is not None:
            command = ["py-spy", "record", "--rate", "100", "--format", "raw", "--full-filenames",
                       "--output", str(profile), "--", *command]  # fmt: skip
        env = {**os.environ, "OLLAMA_BASE_URL": stub.base_url}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=folder,
                              timeout=3600)  # fmt: skip
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{client} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    times = behaviour.request_times
    if len(times) != debates * CHAIN:
        sys.exit(f"{client}: {len(times)} requests, expected {debates * CHAIN}")
    first = min(begin for begin, _ in times)
    return Timing(
        wall=wall,
        busy=max(end for _, end in times) - first,
        first_request=first - start,
        requests=len(times),
        cpu=(after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
    )


def median_timing(runs: list[Timing]) -> Timing:
    """The run of median wall time (an actual run, so its figures belong together)."""
    return sorted(runs, key=lambda t: t.wall)[len(runs) // 2]


def describe(client: str, runs: list[Timing], ideal: float) -> str:
    t = median_timing(runs)
    spread = ""
    if len(runs) > 1:
        walls = [r.wall for r in runs]
        spread = f" (median of {len(runs)}: {min(walls):.1f}-{max(walls):.1f} s)"
    return (
        f"  {client:31} wall {t.wall:6.1f} s{spread}; first request at {t.first_request:4.1f} s; "
        f"first request to last reply {t.busy:6.1f} s = {t.busy / ideal:.2f}x ideal; "
        f"CPU {t.per_call_ms():5.1f} ms per call"
    )


def compare(debates: int, args: argparse.Namespace, out: list[str]) -> dict[str, Timing]:
    ideal = ideal_time(debates, args.slots, args.latency)
    emit(out, f"{debates} debates x {CHAIN} dependent calls = {debates * CHAIN} requests; "
              f"ideal {ideal:.2f} s")  # fmt: skip
    runs: dict[str, list[Timing]] = {SEQUENTIAL: [], PROCESSES: [], OURS: []}
    if not args.skip_sequential:
        runs[SEQUENTIAL].append(timed_run(SEQUENTIAL, debates, args.slots, args.latency))
    for round_ in range(args.repeat):
        order = (PROCESSES, OURS) if round_ % 2 == 0 else (OURS, PROCESSES)
        for client in order:
            runs[client].append(timed_run(client, debates, args.slots, args.latency))
    for client, timings in runs.items():
        if timings:
            emit(out, describe(client, timings, ideal))
    ours, theirs = median_timing(runs[OURS]), median_timing(runs[PROCESSES])
    emit(out, f"  this project vs debatebench with {args.slots} processes: "
              f"{theirs.wall / ours.wall:.2f}x in wall time, "
              f"{theirs.busy / ours.busy:.2f}x from first request to last reply")  # fmt: skip
    if runs[SEQUENTIAL]:
        seq = runs[SEQUENTIAL][0]
        line = (
            f"  this project vs debatebench sequential: {seq.wall / ours.wall:.1f}x in wall "
            f"time, {seq.busy / ours.busy:.1f}x from first request to last reply"
        )
        emit(out, line)
    return {client: median_timing(t) for client, t in runs.items() if t}


def profile(debates: int, args: argparse.Namespace, timed: Timing | None, out: list[str]) -> None:
    if shutil.which("py-spy") is None:
        emit(out, "profile skipped: py-spy is not installed (pip install py-spy)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "profile.txt"
        run = timed_run(OURS, debates, args.slots, args.latency, profile=raw)
        result = attribute(parse_raw(raw.read_text(encoding="utf-8").splitlines()))
    emit(out, f"profile: this project, {debates} debates ({run.requests} model calls) under "
              f"py-spy (wall {run.wall:.1f} s under the profiler)")  # fmt: skip
    per_call = None
    if timed is not None:
        run_share = result.run_samples / sum(
            n for phase, n in result.phases.items() if phase != "threads parked (not CPU)"
        )
        per_call = timed.per_call_ms() * run_share
        emit(out, f"the unprofiled run's CPU: {timed.per_call_ms():.1f} ms per call in all, "
                  f"{per_call:.1f} ms of it in the run itself (the rest is start-up and "
                  "the end of the run)")  # fmt: skip
    for line in report(result, per_call):
        emit(out, line)


def emit(out: list[str], line: str) -> None:
    print(line, flush=True)
    out.append(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="32,100,300", help="debate counts, comma-separated")
    parser.add_argument("--slots", type=int, default=8, help="the stub's parallel slots (K)")
    parser.add_argument("--latency", type=float, default=0.25, help="seconds per request")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each parallel client")
    parser.add_argument("--profile-debates", type=int, default=300, help="0: no profile")
    parser.add_argument("--skip-sequential", action="store_true")
    parser.add_argument("--quick", action="store_true",
                        help="a small check: 16 debates, one run each, 32 profiled")  # fmt: skip
    parser.add_argument("--output", type=Path, help=f"also write here (full run: {RESULTS})")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.repeat, args.profile_debates = "16", 1, 32
    output = args.output or (None if args.quick else RESULTS)
    sizes = [int(s) for s in args.sizes.split(",")]
    out: list[str] = []
    command = " ".join(["python tests/benchmarks/benchmark_throughput.py", *sys.argv[1:]])
    emit(out, f"$ {command}")
    emit(out, f"machine: {machine()}")
    emit(out, f"stub: {args.slots} slots, {args.latency * 1000:.0f} ms per request, keep-alive; "
              f"phases {', '.join(PHASES)}, budget {BUDGET}, no judging")  # fmt: skip
    timings = {}
    for debates in sizes:
        timings[debates] = compare(debates, args, out)
    if args.profile_debates:
        timed = timings.get(args.profile_debates, {}).get(OURS)
        if timed is None:
            timed = timed_run(OURS, args.profile_debates, args.slots, args.latency)
        profile(args.profile_debates, args, timed, out)
    emit(out, f"machine after: {machine()}")
    if output is not None:
        output.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
