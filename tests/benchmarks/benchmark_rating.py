"""Rating speed at a public debate leaderboard's size, from a known-strength simulation.

31 models, 750 matchups (1,500 debates, both sides of each pair) over 650 motions,
drawn from Bradley-Terry strengths spread over 3 logits, a pro advantage of 0.3 and
a length effect; `standings()` with length control and 1,000 bootstrap resamples
(every figure of `tournament rate` but reading and writing files). Printed: wall
and CPU time of each repeat, the machine's load, and how far the fitted strengths
are from the simulated ones (a check that the fast fit still answers right).
Then the whole command on the same debates as an outcomes table,
`debatebench-eval tournament rate --outcomes FILE --no-plots`: wall and CPU
(Python's start and importing Inspect included), and Python's start with the
imports alone.

    python tests/benchmarks/benchmark_rating.py [--models 31] [--motions 650]
                                               [--matchups 750] [--repeat 3] [--profile]
                                               [--skip-command]
"""

from __future__ import annotations

import argparse
import cProfile
import csv
import os
import platform
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from debatebench_eval.matches.results import DebateResult
from debatebench_eval.stats.bradley_terry import ELO_PER_LOGIT
from debatebench_eval.tournament.standings import Options, standings

from support.tournaments import leaderboard_results


def machine() -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    cpu = platform.processor() or platform.machine()
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, load {load}"


def timed(call: object) -> tuple[float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    call()  # type: ignore[operator]
    return time.perf_counter() - start, time.process_time() - cpu


def recovery(board: dict[str, object], truth: dict[str, float]) -> str:
    """The fitted ratings against the simulated strengths (both about their mean)."""
    rows = {r["model"]: r for r in board["models"]}  # type: ignore[attr-defined]
    names = sorted(truth)
    true = np.array([truth[m] for m in names]) * ELO_PER_LOGIT
    fitted = np.array([rows[m]["length_controlled"]["value"] for m in names])
    error = (fitted - fitted.mean()) - (true - true.mean())
    covered = sum(
        rows[m]["length_controlled"]["low"]
        <= v + fitted.mean() - true.mean()
        <= rows[m]["length_controlled"]["high"]
        for m, v in zip(names, true, strict=True)
    )
    return (
        f"length-controlled ratings vs the simulated strengths: RMS error "
        f"{np.sqrt(np.mean(error**2)):.0f} points, {covered}/{len(names)} intervals cover"
    )


def write_outcomes(results: list[DebateResult], path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["motion", "pro", "con", "winner", "margin", "pro_words", "con_words"])
        for d in results:
            assert d.totals is not None
            winner = {1.0: "pro", 0.0: "con"}.get(d.result or 0.0, "tie")
            writer.writerow([d.motion, d.pro, d.con, winner, abs(d.totals["pro"] - d.totals["con"]),
                             d.sides["pro"].words, d.sides["con"].words])  # fmt: skip


def child(command: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + sys) of a command run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def command_figures(results: list[DebateResult]) -> None:
    binary = str(Path(sys.executable).parent / "debatebench-eval")
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "outcomes.csv"
        write_outcomes(results, table)
        wall, cpu = child([binary, "tournament", "rate", "--outcomes", str(table), "--no-plots"])
    imports = "import debatebench_eval.cli.main, debatebench_eval.tournament.leaderboard"
    start_wall, start_cpu = child([sys.executable, "-c", imports])
    print(f"tournament rate --outcomes (1,500 rows) --no-plots: {wall:.2f} s wall, "
          f"{cpu:.2f} s CPU; of which Python's start and imports {start_wall:.2f} s wall, "
          f"{start_cpu:.2f} s CPU")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=31)
    parser.add_argument("--motions", type=int, default=650)
    parser.add_argument("--matchups", type=int, default=750)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="one more run under cProfile")
    parser.add_argument("--skip-command", action="store_true", help="time standings() only")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    results, truth = leaderboard_results(args.models, args.motions, args.matchups)
    judges = ("ollama/j1",)
    board: dict[str, object] = {}

    def rate() -> None:
        board.update(standings(results, sorted(truth), judges, Options()))

    times = [timed(rate) for _ in range(args.repeat)]
    counts = board["counts"]
    print(
        f"standings, {args.models} models, {counts['eligible_debates']:,} debates over "  # type: ignore[index]
        f"{board['bootstrap']['motions']} motions, length control, 1,000 resamples:"  # type: ignore[index]
    )
    for wall, cpu in times:
        print(f"  {wall:.2f} s wall, {cpu:.2f} s CPU")
    print(f"  median {statistics.median(t[0] for t in times):.2f} s wall, "
          f"{statistics.median(t[1] for t in times):.2f} s CPU (target <= 2 s wall)")  # fmt: skip
    print(f"  {recovery(board, truth)}")
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(rate)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(20)
    if not args.skip_command:
        command_figures(results)
    print(f"machine after: {machine()}")


if __name__ == "__main__":
    main()
