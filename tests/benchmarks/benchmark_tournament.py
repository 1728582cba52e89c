"""Tournament speed: a whole tournament against the stub server, and `rate` at scale.

1. `debatebench-eval tournament plan`, then N `tournament worker` processes at once
   (N = 1, 2, 4 by default, one tournament each): 6 models x 10 motions x 2 sides =
   300 debates, lightning (4 speeches), judged by a panel of 2 with swap judging
   (4 rubric calls) and the fact-check (1 call): 2,700 model calls to a stub with 8
   slots and a fixed latency, `--max-connections 8` shared out among the workers
   (what `tournament run --workers N` does when one process's CPU is the limit).
   The ideal time is max(calls x latency / slots,
   chain x latency), the chain being a debate's dependent calls (4 speeches, the
   rubric calls at once, the fact-check: 6). Printed: wall time, the time from the
   first request to the last reply (after startup) against the ideal, the harness's
   CPU per model call (the workers' user+sys time over the calls) and how it grows
   with the workers, a worker's fixed CPU (one started again on the finished folder:
   start-up, reading its logs, the summary), where the first worker's CPU goes
   (`--profile`: cProfile's own time by owner), and `rate` on the logs.
2. The statistics of `rate` on 10,000 synthetic matchups (20,000 debates): the fit,
   the length-controlled fit, win rates, judge agreement, 1,000 bootstrap resamples;
   the plots timed apart.

    python tests/benchmarks/benchmark_tournament.py [--latency 0.1] [--slots 8]
                                                    [--workers 1 2 4] [--motions 10] [--profile]
                                                    [--skip-run] [--skip-rate]
    python tests/benchmarks/benchmark_tournament.py --soak WORKERS DEBATES ROUNDS
                                                    [--latency 0.1] [--slots 8]

3. `--soak`: the workers' soak instead (tests/support/soak.py): every round a new
   tournament, every worker started one second after the last, each round checked
   for a worker that died and a debate run twice.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import pstats
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness_profile import OTHER, owner_of

from debatebench_eval.tournament.plots import draw_plots
from debatebench_eval.tournament.rubric_board import markdown
from debatebench_eval.tournament.standings import Options, standings

from support.soak import CALLS_PER_DEBATE, soak_round
from support.stub_server import StubBehaviour, StubServer
from support.tournaments import ranked_judge, synthetic_results

BIN = Path(sys.executable).parent
MODELS = [f"ollama/m{i}" for i in range(1, 7)]
MOTIONS = 10
CHAIN = 6  # 4 speeches, the 4 rubric calls at once, the fact-check


def machine() -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    cpu = platform.processor() or platform.machine()
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, load {load}"


def plan_command(log_dir: Path, motions: int = MOTIONS) -> list[str]:
    return [str(BIN / "debatebench-eval"), "tournament", "plan", "--models", ",".join(MODELS),
            "--judges", "ollama/j1,ollama/j2", "--format", "lightning", "--limit", str(motions),
            "--log-dir", str(log_dir)]  # fmt: skip


def worker_commands(log_dir: Path, connections: int, workers: int) -> list[list[str]]:
    """One `tournament worker` per share, the client connections shared out between them
    (what `tournament run --workers N` starts, and what `xargs -P N` would)."""
    return [[str(BIN / "debatebench-eval"), "tournament", "worker", str(log_dir), "--index",
             str(k), "--workers", str(workers), "--max-connections",
             str(max(1, connections // workers)), "--display", "none"]
            for k in range(workers)]  # fmt: skip


def run_workers(commands: list[list[str]], env: dict[str, str], profile: Path | None) -> None:
    """Start every worker at once and wait for all; with `profile`, the first worker
    runs under cProfile (py-spy is not in the venv), its stats written there."""
    if profile is not None:
        commands = [[sys.executable, "-m", "cProfile", "-o", str(profile),
                     "-m", "debatebench_eval", *commands[0][1:]], *commands[1:]]  # fmt: skip
    processes = [
        subprocess.Popen(c, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for c in commands
    ]
    for process in processes:
        _, err = process.communicate(timeout=1800)
        if process.returncode:
            sys.exit(f"a worker failed ({process.returncode}): {err.decode()[-2000:]}")


def profile_owners(path: Path) -> tuple[float, list[tuple[str, float]]]:
    """cProfile's own time of every function, summed by the owner of its file (the
    owners of harness_profile; a shared utility's time stays with the utility here,
    as cProfile keeps no stacks): total seconds, and (owner, seconds) largest first."""
    stats = pstats.Stats(str(path))
    owners: Counter[str] = Counter()
    for (file, _, _), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        owners[owner_of(file) or OTHER] += own
    total = sum(owners.values())
    return total, owners.most_common()


def settled_worker_cpu(log_dir: Path, workers: int, env: dict[str, str]) -> float:
    """A worker's fixed CPU: worker 0 of N again on the finished folder, which starts,
    reads its own tasks' logs, finds them settled and prints the summary, calling no
    model (what every worker spends beside its calls)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(worker_commands(log_dir, 8, workers)[0], env=env, check=True,
                   capture_output=True, timeout=600)  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_tournament(
    latency: float, slots: int, workers: int, profile: bool, connections: int, motions: int
) -> float:
    """Run one tournament with `workers` workers; the harness's CPU per model call."""
    behaviour = StubBehaviour(tag_speech=True, script=ranked_judge, fill_schemas=True,
                              latency_s=latency, slots=slots)  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp, StubServer(behaviour) as stub:
        log_dir = Path(tmp) / "tourney"
        env = {**os.environ, "OLLAMA_BASE_URL": stub.base_url, "XDG_DATA_HOME": tmp}
        start = time.perf_counter()
        subprocess.run(plan_command(log_dir, motions), env=env, check=True, capture_output=True,
                       timeout=600)  # fmt: skip
        planned = time.perf_counter() - start
        before, stub_before = resource.getrusage(resource.RUSAGE_CHILDREN), time.process_time()
        start = time.perf_counter()
        stats = Path(tmp) / "profile.pstats" if profile else None
        run_workers(worker_commands(log_dir, connections, workers), env, stats)
        wall = time.perf_counter() - start
        after, stub_cpu = resource.getrusage(resource.RUSAGE_CHILDREN), time.process_time()
        owners = profile_owners(stats) if stats else None
        stub_cpu -= stub_before  # this process is the stub's: it shares the cores
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        fixed = settled_worker_cpu(log_dir, workers, env)
        calls = len(behaviour.request_times)
        busy = max(e for _, e in behaviour.request_times) - min(
            b for b, _ in behaviour.request_times
        )
        ideal = max(calls * latency / slots, CHAIN * latency)
        # Requests inside the stub on average (waiting for a slot included): under
        # the slots means the server sat idle while the client was busy elsewhere.
        held = sum(end - begin for begin, end in behaviour.request_times) / busy
        start = time.perf_counter()
        subprocess.run([str(BIN / "debatebench-eval"), "tournament", "rate", str(log_dir)],
                       check=True, capture_output=True, timeout=600)  # fmt: skip
        rated = time.perf_counter() - start
        board = json.loads((log_dir / "leaderboard.json").read_text())
    debates = board["counts"]["scored"]
    per_worker = max(1, connections // workers)
    print(
        f"tournament: {len(MODELS)} models x {motions} motions x 2 sides, {debates} debates "
        f"scored, {calls} model calls; stub {slots} slots, {latency * 1000:.0f} ms a call; "
        f"{workers} worker(s) at once, --max-connections {per_worker} each"
    )
    print(
        f"  plan {planned:.1f} s; workers' wall {wall:.1f} s; first request to last reply "
        f"{busy:.1f} s; ideal {ideal:.2f} s; busy/ideal {busy / ideal:.2f} (target <= 1.25); "
        f"worker start-up and end {wall - busy:.1f} s"
    )
    print(f"  requests in the stub on average: {held:.2f} (its slots: {slots})")
    print(
        f"  workers' CPU {cpu:.1f} s = {cpu / calls * 1000:.1f} ms per model call "
        f"(user+sys of every worker, start-up and Inspect included); the stub's CPU "
        f"{stub_cpu:.1f} s"
    )
    print(
        f"  a worker's fixed CPU (start, its logs, summary; no call): {fixed:.1f} s, "
        f"{workers * fixed / cpu:.0%} of the workers' CPU; the rest "
        f"{(cpu - workers * fixed) / calls * 1000:.1f} ms per model call"
    )
    print(
        f"  rate on these logs: {rated:.1f} s wall (command start, reading 15 logs, "
        "1,000 resamples, plots)"
    )
    if owners is not None:
        total, shares = owners
        print(f"  the first worker under cProfile: {total:.1f} s of own time, by owner:")
        for owner, seconds in shares[:8]:
            print(f"    {seconds / total:5.1%} {owner}")
    return cpu / calls


def rate_at_scale(models: int, motions: int) -> None:
    strengths = {f"ollama/model-{i:02d}": (i - models / 2) / models * 2 for i in range(models)}
    words = {m: 300 + 20 * i for i, m in enumerate(sorted(strengths))}
    results = synthetic_results(strengths, motions, seed=1, words=words, words_effect=0.2)
    start, cpu_start = time.perf_counter(), time.process_time()
    figures = standings(results, sorted(strengths), ("ollama/j1", "ollama/j2"), Options())
    stats, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    board = {"tournament": {"models": sorted(strengths), "motions": [None] * motions,
                            "identity": {"judges": ["ollama/j1", "ollama/j2"]}},
             "settings": {"anchor": "mean", "base": 1000.0}, "caveats": [], **figures}  # fmt: skip
    start = time.perf_counter()
    markdown(board)
    text = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        draw_plots(json.loads(json.dumps(board, default=float)), tmp)
        plots = time.perf_counter() - start
    matchups = figures["counts"]["eligible_matchups"]
    print(
        f"rate statistics, {models} models x {motions} motions = {matchups:,} matchups "
        f"({2 * matchups:,} debates), 1,000 resamples, length control included: {stats:.2f} s "
        f"wall, {cpu:.2f} s CPU (target < 10 s); Markdown {text:.2f} s; plots {plots:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--slots", type=int, default=8)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4],
                        help="workers at once; one tournament per number given")  # fmt: skip
    parser.add_argument("--connections", type=int, help="client connections (default: slots)")
    parser.add_argument("--motions", type=int, default=MOTIONS,
                        help=f"motions of the tournament (default {MOTIONS})")  # fmt: skip
    parser.add_argument("--profile", action="store_true",
                        help="the first worker under cProfile (slower)")  # fmt: skip
    parser.add_argument("--skip-run", action="store_true")
    parser.add_argument("--skip-rate", action="store_true", help="no `rate` at scale")
    parser.add_argument("--soak", nargs=3, type=int, metavar=("WORKERS", "DEBATES", "ROUNDS"),
                        help="instead: the workers' soak (tests/support/soak.py), e.g. "
                        "--soak 8 600 5 on a machine with the cores")  # fmt: skip
    args = parser.parse_args()
    print(f"machine: {machine()}")
    if args.soak:
        run_soak(*args.soak, latency=args.latency, slots=args.slots)
        return
    if not args.skip_run:
        connections = args.connections or args.slots
        per_call = {}
        for workers in args.workers:
            per_call[workers] = run_tournament(
                args.latency, args.slots, workers, args.profile, connections, args.motions
            )
            print(f"machine after {workers} worker(s): {machine()}")
        first = min(per_call)
        print("CPU per model call by workers: " + "; ".join(
            f"{n}: {cpu * 1000:.1f} ms ({cpu / per_call[first]:.2f}x {first})"
            for n, cpu in per_call.items()))  # fmt: skip
    if not args.skip_rate:
        rate_at_scale(20, 53)
        rate_at_scale(10, 222)
    print(f"machine after: {machine()}")


def run_soak(workers: int, debates: int, rounds: int, latency: float, slots: int) -> None:
    print(f"soak: {workers} workers x {debates} debates x {rounds} rounds, the stub "
          f"{latency * 1000:.0f} ms a call, {slots} slots")  # fmt: skip
    clean = 0
    for number in range(1, rounds + 1):
        found = soak_round(workers, debates, latency, slots, stagger_s=1.0)
        clean += found.clean
        print(f"  round {number}: {'clean' if found.clean else 'FAILED'}; workers exited "
              f"{found.workers_exit}; {found.scored} of {debates} scored; {found.duplicates} "
              f"duplicates; {found.calls} calls ({debates * CALLS_PER_DEBATE} expected); "
              f"{found.wall_s:.1f} s")  # fmt: skip
        for failure in found.failures:
            print(f"    {failure}")
    print(f"soak: {clean} of {rounds} rounds clean")


if __name__ == "__main__":
    main()
