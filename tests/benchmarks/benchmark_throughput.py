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
3. this project: `inspect eval debatebench/debate --max-connections K`;
4. the same with the lean log, `--no-log-realtime --no-log-model-api` (Inspect
   settings that cut its per-call work and keep every turn and score),

at each size (32, 100 and 300 debates). Printed per run: wall time; the time
from the first request to the last reply (after start-up); the ideal time,
max(chain, ceil(calls / K)) x latency, a lower bound no client can beat; the
ratios; the client's CPU (user + sys of the command and its children) per
model call. The parallel clients run `--repeat` times in rotating order and
the run of median wall time is compared; sequential debatebench runs once per
size. Then: CPU per call between the smallest and largest size (start-up
cancels out), and the issue's targets, met or not.

Last, one more run of the project at the profile size under py-spy, with and
without the lean log, attributes the harness's CPU per model call to its
owners (the project's code, Inspect's event logging and log writing, the
OpenAI client, HTTP, the event loop): see harness_profile.py. Shares come from
the profile; milliseconds per call from the unprofiled run's CPU at that size.

    python tests/benchmarks/benchmark_throughput.py            # every figure (about 25 min)
    python tests/benchmarks/benchmark_throughput.py --quick    # 16 debates, 32 profiled (2 min)

The full run writes its output to results/benchmarks/throughput.txt too.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import shutil
import sys
import tempfile
from pathlib import Path

import yaml
from client_runs import Timing, run_on_stub
from harness_profile import WAITING, attribute, parse_raw, report

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
LEAN = "debatebench-eval, lean log"
# Inspect settings that cut its per-call work and keep every turn and score in
# the log: no live-view event buffer, no raw API request/response per call.
LEAN_FLAGS = ("--no-log-realtime", "--no-log-model-api")
PARALLEL = (PROCESSES, OURS, LEAN)


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


def our_command(folder: Path, debates: int, slots: int, lean: bool = False) -> list[str]:
    motions = [{"id": f"m{i}", "motion": f"Motion number {i} should pass."} for i in range(debates)]
    (folder / "motions.yaml").write_text(yaml.safe_dump({"motions": motions}), encoding="utf-8")
    return [str(BIN / "inspect"), "eval", "debatebench/debate", "--model", "ollama/stub",
            "-T", f"motions={folder / 'motions.yaml'}", "-T", f"phases=[{', '.join(PHASES)}]",
            "-T", f"budget={BUDGET}", "--no-score", "--max-connections", str(slots),
            "--log-dir", str(folder / "logs"), "--display", "none",
            *(LEAN_FLAGS if lean else ())]  # fmt: skip


def timed_run(
    client: str, debates: int, slots: int, latency: float, profile: Path | None = None
) -> Timing:
    def command(folder: Path, base_url: str) -> list[str]:
        if client in (OURS, LEAN):
            return our_command(folder, debates, slots, lean=client == LEAN)
        parallel = slots if client == PROCESSES else None
        return debatebench_command(folder, base_url, debates, parallel)

    return run_on_stub(client, command, debates * CHAIN, slots, latency, profile).timing


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
    emit(
        out,
        f"{debates} debates x {CHAIN} dependent calls = {debates * CHAIN} requests; "
        f"ideal {ideal:.2f} s",
    )
    runs: dict[str, list[Timing]] = {SEQUENTIAL: [], **{client: [] for client in PARALLEL}}
    if not args.skip_sequential:
        runs[SEQUENTIAL].append(timed_run(SEQUENTIAL, debates, args.slots, args.latency))
    for round_ in range(args.repeat):  # each round in another order: the machine drifts
        for client in PARALLEL[round_ % 3 :] + PARALLEL[: round_ % 3]:
            runs[client].append(timed_run(client, debates, args.slots, args.latency))
    for client, timings in runs.items():
        if timings:
            emit(out, describe(client, timings, ideal))
    medians = {client: median_timing(t) for client, t in runs.items() if t}
    theirs = medians[PROCESSES]
    for client in (OURS, LEAN):
        ours = medians[client]
        emit(
            out,
            f"  {client} vs debatebench with {args.slots} processes: "
            f"{theirs.wall / ours.wall:.2f}x in wall time, "
            f"{theirs.busy / ours.busy:.2f}x from first request to last reply",
        )
    emit(
        out,
        f"  (a client with no start-up at exactly the ideal time would be "
        f"{theirs.wall / ideal:.2f}x faster than debatebench with {args.slots} processes)",
    )
    if SEQUENTIAL in medians:
        seq, ours = medians[SEQUENTIAL], medians[OURS]
        emit(
            out,
            f"  {OURS} vs debatebench sequential: {seq.wall / ours.wall:.1f}x in wall "
            f"time, {seq.busy / ours.busy:.1f}x from first request to last reply",
        )
    return medians


def marginal_cpu(timings: dict[int, dict[str, Timing]], out: list[str]) -> None:
    """CPU per call between the smallest and largest size: start-up and end cancel out."""
    small, large = min(timings), max(timings)
    if small == large:
        return
    calls = (large - small) * CHAIN
    emit(out, f"CPU per model call between {small} and {large} debates (start-up excluded):")
    for client in PARALLEL:
        extra = timings[large][client].cpu - timings[small][client].cpu
        emit(out, f"  {client:31} {1000 * extra / calls:5.1f} ms")


def targets(
    timings: dict[int, dict[str, Timing]], args: argparse.Namespace, out: list[str]
) -> None:
    emit(out, "targets:")
    for client in (OURS, LEAN):
        for debates, need in ((300, 1.25), (100, 1.0)):
            if debates in timings:
                t = timings[debates]
                speedup = t[PROCESSES].wall / t[client].wall
                verdict = "met" if speedup >= need else "NOT met"
                emit(
                    out,
                    f"  {client}, {debates} debates: {speedup:.2f}x debatebench with "
                    f"{args.slots} processes (target >= {need}): {verdict}",
                )
        for debates, t in timings.items():
            ratio = t[client].busy / ideal_time(debates, args.slots, args.latency)
            verdict = "met" if ratio <= 1.15 else "NOT met"
            emit(
                out,
                f"  {client}, {debates} debates: first request to last reply "
                f"{ratio:.2f}x ideal (target <= 1.15): {verdict}",
            )


def profile(
    client: str, debates: int, args: argparse.Namespace, timed: Timing | None, out: list[str]
) -> int:
    """Profile one run; print where its CPU went. Returns the run's sample count."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "profile.txt"
        run = timed_run(client, debates, args.slots, args.latency, profile=raw)
        result = attribute(parse_raw(raw.read_text(encoding="utf-8").splitlines()))
    flags = f" ({' '.join(LEAN_FLAGS)})" if client == LEAN else ""
    emit(
        out,
        f"profile: {client}{flags}, {debates} debates ({run.requests} model calls) under "
        f"py-spy (wall {run.wall:.1f} s under the profiler)",
    )
    per_call = None
    if timed is not None:
        run_share = result.run_samples / (sum(result.phases.values()) - result.phases[WAITING])
        per_call = timed.per_call_ms() * run_share
        emit(
            out,
            f"the same run unprofiled: CPU {timed.per_call_ms():.1f} ms per call in all, "
            f"{per_call:.1f} ms of it in the run itself (the rest: start-up and "
            "the end of the run)",
        )
    for line in report(result, per_call):
        emit(out, line)
    return result.run_samples


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
    emit(
        out,
        f"stub: {args.slots} slots, {args.latency * 1000:.0f} ms per request, keep-alive; "
        f"phases {', '.join(PHASES)}, budget {BUDGET}, no judging",
    )
    timings = {}
    for debates in sizes:
        timings[debates] = compare(debates, args, out)
    marginal_cpu(timings, out)
    targets(timings, args, out)
    if args.profile_debates and shutil.which("py-spy") is None:
        emit(out, 'profile skipped: py-spy is not installed (pip install -e ".[bench]")')
    elif args.profile_debates:
        samples = {}
        for client in (OURS, LEAN):
            timed = timings.get(args.profile_debates, {}).get(client)
            if timed is None:
                timed = timed_run(client, args.profile_debates, args.slots, args.latency)
            samples[client] = profile(client, args.profile_debates, args, timed, out)
        emit(
            out,
            f"the lean log's run took {samples[LEAN] / samples[OURS]:.2f}x the default's "
            "profile samples",
        )
    emit(out, f"machine after: {machine()}")
    if output is not None:
        output.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
