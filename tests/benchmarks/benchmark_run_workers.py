"""`debatebench-eval run --workers N` against debatebench 0.1.2 in K processes and the ideal.

The debates, stub and clients of benchmark_throughput.py (phases opening,
rebuttal, conclusion: 6 dependent calls a debate, budget 64, no judging; a
loopback stub with K slots at a fixed latency, connections kept open), run
through:

1. debatebench 0.1.2 with K processes at a time: `ls run-*.yaml | xargs -P K -n 1 debate`;
2. this project in one process: `inspect eval debatebench/debate --max-connections K`;
3. this project sharded: `debatebench-eval run debatebench/debate --workers N
   --max-connections K` (the same options; `run` shares the K connections out
   among its workers), for each N of `--workers` (`auto`: one a core). Its wall
   time is the whole command's: the plan step, the workers, the pooled summary.

at each size (48 and 300 debates). Printed per client: wall time; the time from
the first request to the last reply; the ideal, max(chain, ceil(calls / K)) x
latency; the ratios; CPU (user + sys of the command and its children) per model
call. For `run`, its timeline too: when the plan was written, each shard's first
request (one shard a worker) and so each worker's start-up after the plan, the
last reply, when each shard's log was last written, when the pooled results were
written, and the exit. The clients run `--repeat` times in rotating order and the
run of median wall time is compared. Then the targets of issue 44, item 4, met
or not: at 300 debates `run --workers` at least 1.20x faster in wall time than
debatebench in K processes; at 48, first request to last reply at most 1.20x
the ideal.

    python tests/benchmarks/benchmark_run_workers.py --save     # 48 and 300 debates, 3 runs each
    python tests/benchmarks/benchmark_run_workers.py --workers 2,auto --save   # and one a core
    python tests/benchmarks/benchmark_run_workers.py --quick    # 8 and 16 debates, one run each

`--save` writes the output to results/benchmarks/run-workers.txt too.
"""

from __future__ import annotations

import argparse
import platform
import re
import shlex
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from benchmark_throughput import (
    BIN,
    BUDGET,
    CHAIN,
    PHASES,
    PROCESSES,
    ROOT,
    debatebench_command,
    describe,
    emit,
    ideal_time,
    machine,
    median_timing,
    our_command,
)
from client_runs import CommandFor, StubRun, Timing, run_on_stub

RESULTS = ROOT / "results" / "benchmarks" / "run-workers.txt"
ONE = "debatebench-eval, one process"
SPEEDUP_SIZE, SPEEDUP_TARGET = 300, 1.20  # run --workers against debatebench in K processes
IDEAL_SIZE, IDEAL_TARGET = 48, 1.20  # run --workers, first request to last reply / ideal
MOTION = re.compile(r"Motion number (\d+) should pass")
SHARD_LOG = re.compile(r"_debate-shard-(\d+)-of-(\d+)_[^/]*\.eval$")
PLAN_FILE = re.compile(r"(^|/)run-[0-9a-f]{12}\.json$")
RESULTS_FILE = re.compile(r"(^|/)run-[0-9a-f]{12}-results\.json$")


def run_client(workers: str) -> str:
    return f"debatebench-eval run, {workers} workers"


def run_command(folder: Path, debates: int, slots: int, workers: str) -> list[str]:
    """`inspect eval`'s command of the one-process client, as `debatebench-eval run`."""
    program, subcommand, task, *options = our_command(folder, debates, slots)
    if Path(program).name != "inspect" or subcommand != "eval":
        raise ValueError(f"not an `inspect eval` command: {program} {subcommand}")
    return [str(BIN / "debatebench-eval"), "run", task, "--workers", workers, *options]


def clients(debates: int, slots: int, workers: list[str]) -> dict[str, CommandFor]:
    """Each client's command, from its folder and the stub's URL."""

    def processes(folder: Path, base_url: str) -> list[str]:
        return debatebench_command(folder, base_url, debates, slots)

    def one(folder: Path, base_url: str) -> list[str]:
        return our_command(folder, debates, slots)

    def sharded(count: str) -> CommandFor:
        return lambda folder, base_url: run_command(folder, debates, slots, count)

    return {PROCESSES: processes, ONE: one, **{run_client(n): sharded(n) for n in workers}}


@dataclass(frozen=True)
class Timeline:
    """When things happened in one run, in seconds from the command's start."""

    plan: float | None  # `run`'s plan written (None: no plan)
    first_requests: list[float]  # each shard's first request, by shard (one for one process)
    last_reply: float
    logs: list[float]  # each eval log's last write, by shard
    pooled: float | None  # `run`'s pooled results written
    exit: float

    def start_ups(self) -> list[float]:
        """Each shard's first request after the plan was written: its worker's start-up."""
        if self.plan is None:
            return []
        return [first - self.plan for first in self.first_requests]


def timeline(run: StubRun) -> Timeline:
    shards = max([int(m[2]) for name in run.files if (m := SHARD_LOG.search(name))], default=1)
    firsts: dict[int, float] = {}
    for arrived, request in run.arrivals:
        found = MOTION.search(_text(request))
        shard = int(found[1]) % shards if found else -1  # sample i is in shard i mod S
        firsts.setdefault(shard, arrived)
    logs = sorted(
        (int(m[1]) if (m := SHARD_LOG.search(name)) else 0, at)
        for name, at in run.files.items()
        if name.endswith(".eval")
    )
    return Timeline(
        plan=_file_time(run, PLAN_FILE),
        first_requests=[firsts[k] for k in sorted(firsts)],
        last_reply=run.last_reply,
        logs=[at for _, at in logs],
        pooled=_file_time(run, RESULTS_FILE),
        exit=run.timing.wall,
    )


def _text(request: dict[str, object]) -> str:
    messages = request.get("messages")
    if not isinstance(messages, list):
        return ""
    return " ".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))


def _file_time(run: StubRun, pattern: re.Pattern[str]) -> float | None:
    return next((at for name, at in run.files.items() if pattern.search(name)), None)


def median_run(runs: list[StubRun]) -> StubRun:
    """The run of median wall time, as benchmark_throughput.py picks it."""
    timing = median_timing([r.timing for r in runs])
    return next(r for r in runs if r.timing is timing)


def seconds(values: list[float]) -> str:
    return ", ".join(f"{v:.1f}" for v in values) + " s"


def describe_timeline(line: Timeline) -> str:
    """The run's timeline on one line, in seconds from the command's start."""
    parts = []
    if line.plan is not None:
        parts.append(f"plan written {line.plan:.1f} s")
        parts.append(f"each shard's first request {seconds(line.first_requests)}, "
                     f"{seconds(line.start_ups())} after the plan")  # fmt: skip
    else:
        parts.append(f"first request {seconds(line.first_requests)}")
    parts.append(f"last reply {line.last_reply:.1f} s")
    if line.logs:
        parts.append(f"log{'s' if len(line.logs) > 1 else ''} last written {seconds(line.logs)}")
    if line.pooled is not None:
        parts.append(f"pooled results written {line.pooled:.1f} s "
                     f"({line.pooled - line.last_reply:.1f} s after the last reply)")  # fmt: skip
    parts.append(f"exit {line.exit:.1f} s")
    return "    " + "; ".join(parts)


def compare(debates: int, args: argparse.Namespace, out: list[str]) -> dict[str, StubRun]:
    ideal = ideal_time(debates, args.slots, args.latency)
    emit(out, f"{debates} debates x {CHAIN} dependent calls = {debates * CHAIN} requests; "
              f"ideal {ideal:.2f} s")  # fmt: skip
    commands = clients(debates, args.slots, args.workers)
    order = list(commands)
    runs: dict[str, list[StubRun]] = {client: [] for client in order}
    for round_ in range(args.repeat):  # each round in another order: the machine drifts
        shift = round_ % len(order)
        for client in order[shift:] + order[:shift]:
            run = run_on_stub(client, commands[client], debates * CHAIN, args.slots, args.latency)
            runs[client].append(run)
    medians = {client: median_run(r) for client, r in runs.items()}
    for client in order:
        emit(out, describe(client, [r.timing for r in runs[client]], ideal))
        if client != PROCESSES:
            emit(out, describe_timeline(timeline(medians[client])))
    theirs = medians[PROCESSES].timing
    heading = "against debatebench with {} processes, and against the ideal (wall time; first "
    emit(out, "  " + heading.format(args.slots) + "request to last reply):")
    for client in order:
        t = medians[client].timing
        ratios = [f"{t.wall / ideal:.2f}x ideal", f"{t.busy / ideal:.2f}x ideal"]
        if client != PROCESSES:
            ratios[:0] = [
                f"{theirs.wall / t.wall:.2f}x faster",
                f"{theirs.busy / t.busy:.2f}x faster",
            ]
        emit(out, f"    {client:33} " + "; ".join(ratios))
    ceiling = theirs.wall / ideal
    emit(out, f"  (a client with no start-up at exactly the ideal time would be {ceiling:.2f}x "
              f"faster than debatebench with {args.slots} processes)")  # fmt: skip
    return medians


def marginal_cpu(timings: dict[int, dict[str, Timing]], out: list[str]) -> None:
    """CPU per call between the smallest and largest size: start-up and end cancel out."""
    small, large = min(timings), max(timings)
    if small == large:
        return
    calls = (large - small) * CHAIN
    emit(out, f"CPU per model call between {small} and {large} debates (start-up excluded):")
    for client, timing in timings[large].items():
        extra = timing.cpu - timings[small][client].cpu
        emit(out, f"  {client:33} {1000 * extra / calls:5.1f} ms")


def target_lines(timings: dict[int, dict[str, Timing]], args: argparse.Namespace) -> list[str]:
    """The issue's two targets for each `run` client; one process beside them, as the baseline."""
    lines = ["targets (issue 44, item 4):"]
    ours = [client for client in next(iter(timings.values())) if client != PROCESSES]
    for client in ours:
        if SPEEDUP_SIZE in timings:
            t = timings[SPEEDUP_SIZE]
            speedup = t[PROCESSES].wall / t[client].wall
            lines.append(
                f"  {client}, {SPEEDUP_SIZE} debates: {speedup:.2f}x faster than debatebench "
                f"with {args.slots} processes in wall time (target >= {SPEEDUP_TARGET:.2f}): "
                + _verdict(client, speedup >= SPEEDUP_TARGET)
            )
        if IDEAL_SIZE in timings:
            t = timings[IDEAL_SIZE]
            ideal = ideal_time(IDEAL_SIZE, args.slots, args.latency)
            ratio = t[client].busy / ideal
            lines.append(
                f"  {client}, {IDEAL_SIZE} debates: first request to last reply {ratio:.2f}x "
                f"ideal (target <= {IDEAL_TARGET:.2f}; wall time {t[client].wall / ideal:.2f}x "
                f"ideal): " + _verdict(client, ratio <= IDEAL_TARGET)
            )
    missing = [str(n) for n in (SPEEDUP_SIZE, IDEAL_SIZE) if n not in timings]
    if missing:
        lines.append(f"  not measured: no run at {' or '.join(missing)} debates (--sizes)")
    return lines


def _verdict(client: str, met: bool) -> str:
    if client == ONE:
        return "the baseline, not a target"
    return "met" if met else "NOT met"


def commands_shown(args: argparse.Namespace) -> list[str]:
    """Each client's command for one debate, its folder as FOLDER."""
    lines = ["commands (FOLDER: a fresh folder a run; the stub's URL in OLLAMA_BASE_URL):"]
    with tempfile.TemporaryDirectory() as tmp:
        for client, command_for in clients(1, args.slots, args.workers).items():
            text = shlex.join(command_for(Path(tmp), "http://127.0.0.1:PORT/v1"))
            text = text.replace(f"{BIN}/", "").replace(tmp, "FOLDER")
            lines.append(f"  {client}: {text}")
    return lines


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=f"{IDEAL_SIZE},{SPEEDUP_SIZE}",
                        help="debate counts, comma-separated")  # fmt: skip
    parser.add_argument("--slots", type=int, default=8, help="the stub's parallel slots (K)")
    parser.add_argument("--latency", type=float, default=0.25, help="seconds per request")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each client")
    parser.add_argument(
        "--workers", default="2", help="values of `run --workers`, comma-separated: numbers, auto"
    )
    parser.add_argument("--quick", action="store_true",
                        help="a small check: 8 and 16 debates, one run each")  # fmt: skip
    saved = RESULTS.relative_to(ROOT).as_posix()
    parser.add_argument("--save", action="store_true", help=f"also write the output to {saved}")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.repeat = "8,16", 1
    args.workers = [w.strip() for w in args.workers.split(",") if w.strip()]
    return args


def main() -> None:
    args = parse_arguments()
    began = time.perf_counter()
    sizes = [int(s) for s in args.sizes.split(",")]
    out: list[str] = []
    emit(out, " ".join(["$ python tests/benchmarks/benchmark_run_workers.py", *sys.argv[1:]]))
    emit(out, f"machine: {machine()}; {platform.system()} {platform.release()}")
    emit(out, f"inspect-ai {version('inspect-ai')}, debatebench {version('debatebench')}, "
              f"debatebench-eval {version('debatebench-eval')}")  # fmt: skip
    emit(out, f"stub: {args.slots} slots, {args.latency * 1000:.0f} ms per request, keep-alive; "
              f"phases {', '.join(PHASES)}, budget {BUDGET}, no judging; "
              f"{args.repeat} run(s) of each client in rotating order (median)")  # fmt: skip
    if "auto" in args.workers:
        from debatebench_eval.runs.processes import usable_cores

        emit(out, f"--workers auto: {usable_cores()} worker(s) here (one a usable core)")
    for line in commands_shown(args):
        emit(out, line)
    timings = {}
    for debates in sizes:
        medians = compare(debates, args, out)
        timings[debates] = {client: run.timing for client, run in medians.items()}
    marginal_cpu(timings, out)
    for line in target_lines(timings, args):
        emit(out, line)
    emit(out, f"machine after: {machine()}; the benchmark took "
              f"{(time.perf_counter() - began) / 60:.1f} min")  # fmt: skip
    if args.save:
        RESULTS.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
