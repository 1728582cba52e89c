"""How firm a leaderboard's order is, on a simulated 30-model board, and what weighing
judges by how well they judge buys (issue 46).

1. A 30-model board (tests/support/simulated_boards.py's normal spread, sd 140
   rating points: #1 73 points above #2, 12 between neighbours in the middle),
   a round robin over MOTIONS motions with each side once (a pro advantage of
   0.3 logits), read by three judges, rated as `tournament rate` rates it
   (`rubric_board.figures`, 200 resamples): once with three good judges, once
   with two good judges and one answering at random. Printed: the #1's flip
   set, the adjacent pairs' (how many have a set within 10% of the debates, and
   their sizes), cycles, the models that could be #1, each judge's weight, the
   alarms, and the time the new figures took.
2. Two good judges and one at random against three good judges, on 10-model
   boards (4 motions, 360 debates, 1,080 readings; 100 boards each): Spearman
   with the true strengths and the mean absolute rating error, for the
   judge-aware fit, equal weights (every reading one game) and the panel's
   majority verdict (tests/support/judge_panels.py).

    python tests/benchmarks/benchmark_robustness.py [--quick] [--save]
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from debatebench_eval.tournament.rubric_board import figures
from debatebench_eval.tournament.standings import Options

from support.judge_panels import METHODS, compare
from support.planted_defects import as_rated, drawn
from support.simulated_boards import spread

ROOT = Path(__file__).resolve().parents[2]
SAVED = ROOT / "results" / "benchmarks" / "robustness.txt"
MOTIONS = 2
RESAMPLES = 200


def machine() -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{platform.machine()}, {cores} cores, Python {platform.python_version()}, load {load}"


def board_30(panel: tuple[float, ...], motions: int, seed: int) -> None:
    truth = spread(30).strengths
    strengths = {f"m{i:02d}": float(s) for i, s in enumerate(truth)}
    results = drawn(strengths, motions, side=0.3, judges=panel, seed=seed)
    start = time.perf_counter()
    board = figures(as_rated(results), Options(resamples=RESAMPLES))
    seconds = time.perf_counter() - start
    print(f"\n== 30 models, {motions} motions, {len(results)} debates; judges' discriminations "
          f"{panel}; rated in {seconds:.1f} s ==")  # fmt: skip
    report(board, strengths)


def report(board: dict[str, Any], strengths: dict[str, float]) -> None:
    found = board["robustness"]
    best = max(strengths, key=lambda m: strengths[m])
    top = found["top"]
    print(f"  #1 fitted {board['models'][0]['model']} (true #1 {best}); top_flip "
          f"{found['top_flip']}" + (f" ({top['share']:.2%} of debates; {top['overtaken_by']} "
                                    "then leads)" if top else " (none within 10%)"))  # fmt: skip
    counts = [p["count"] for p in found["pairs"]]
    within = sorted(c for c in counts if c is not None)
    print(f"  adjacent pairs with a flip set within 10%: {len(within)} of {len(counts)}; "
          f"sizes: median {np.median(within):.0f}, min {within[0]}, max {within[-1]}"
          if within else "  no adjacent pair flips within 10%")  # fmt: skip
    print(f"  could be #1: {len(board['possible_first'])} models "
          f"({', '.join(board['possible_first'])})")  # fmt: skip
    print(f"  cycles of clear wins: {len(board['cycles'])}")
    for judge in (board.get("judge_aware") or {}).get("judges", []):
        w = judge["weight"]
        print(f"  weight of {judge['judge']}: {w['value']:.2f} [{w['low']:.2f}, {w['high']:.2f}]")
    for alarm in board["diagnostics"] or [{"defect": "none", "text": "no alarm"}]:
        print(f"  alarm {alarm['defect']}: {alarm['text']}")


def panels(repetitions: int) -> None:
    print(f"\n== 10 models (sd 0.8 logits), 4 motions, 3 judges, {repetitions} boards each ==")
    print(f"  {'panel':<22}{'method':<18}{'Spearman':>9}{'error (points)':>16}")
    for panel in ((1.0, 1.0, 0.0), (1.0, 1.0, 1.0)):
        scores = compare(repetitions, panel=panel, seed=7)
        for method in METHODS:
            print(f"  {panel!s:<22}{method:<18}{np.mean(scores.spearman[method]):>9.3f}"
                  f"{np.mean(scores.error[method]):>16.1f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one board, 20 panel boards")
    parser.add_argument("--save", action="store_true", help=f"write {SAVED.relative_to(ROOT)}")
    args = parser.parse_args()
    out = io.StringIO()
    start = time.perf_counter()
    with redirect_stdout(out):
        print(f"machine: {machine()}; bootstrap {RESAMPLES} resamples, seed 0")
        board_30((1.0, 1.0, 1.0), MOTIONS, seed=1)
        if not args.quick:
            board_30((1.0, 1.0, 0.0), MOTIONS, seed=2)
        panels(20 if args.quick else 100)
        print(f"\nwall {time.perf_counter() - start:.0f} s")
    print(out.getvalue(), end="")
    if args.save:
        SAVED.write_text(out.getvalue(), encoding="utf-8")


if __name__ == "__main__":
    main()
