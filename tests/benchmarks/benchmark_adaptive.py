"""Adaptive tournaments against round robin and uniform random pairs, on simulated
boards with known Bradley-Terry strengths (issue 45).

Boards (tests/support/simulated_boards.py): 12 and 30 models at the normal
quantiles of a population with sd 140 rating points (the middle packed, the ends
apart), and a board shaped like the public debate leaderboard: 29 models from
1,100 to 1,710, the top ten within 100 points. Every debate: a pro advantage of
0.3 logits, ties (10% at even odds) and a motion-level side effect (sd 0.3);
60 motions. The three schedules play the same outcomes (common random numbers);
the adaptive one asks `next_matchups` for rounds of `round` matchups.

Printed per board, for each schedule:

- (a) the debates by which 80% (and 50%) of the boards had reached Spearman >=
  0.95 with the true order and the true top model, and kept both at every later
  budget of the grid;
- (b) the debates by which 80% (and 50%) of the boards had every 95% interval at
  most W = 150 rating points wide, each design with the interval a leaderboard
  prints for it (round robin and random pairs: the cluster bootstrap over
  motions, 200 resamples; adaptive: `rating_intervals(..., "adaptive")`);
- the mean Spearman, the share of boards whose top model is right, and the top
  five found (how many of the true top five are in the fitted top five), at
  chosen budgets; the packed board adds the median interval width of its top
  five;
- coverage of the true ratings: the adaptive interval under the adaptive
  schedule, and, for contrast, the leaderboard's bootstrap under it.

Then placing a new model in a rated 30-model board (two motions of round robin,
1,740 debates): its true rating uniform over the board's middle 80%; the
debates until its fitted rank is within one of its true rank and stays so,
adaptive (`next_matchups(..., placing=[new])`, one matchup at a time) against
opponents drawn uniformly.

    python tests/benchmarks/benchmark_adaptive.py [--quick] [--save]
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import sys
import time
from collections import defaultdict
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from debatebench_eval.stats.active import Played, next_matchups
from debatebench_eval.stats.bradley_terry import fit
from debatebench_eval.stats.design import rating_intervals

from support.simulated_boards import (
    Board,
    Draw,
    adaptive,
    games,
    packed,
    round_robin,
    spread,
    uniform_pairs,
)

ROOT = Path(__file__).resolve().parents[2]
WIDTH = 150.0  # (b): every interval at most this wide, in rating points
SPEARMAN = 0.95
SHARES = (0.8, 0.5)  # "by which this share of the boards had reached it"
MOTIONS = 60
RESAMPLES = 200  # the bootstrap's, for (b) and the coverage contrast
SCHEDULES = ("round robin", "random pairs", "adaptive", "adaptive, W target")
SAVED = ROOT / "results" / "benchmarks" / "adaptive.txt"


@dataclass(frozen=True)
class Plan:
    """One board's simulation: the budget grid and where to report."""

    board: Board
    step: int  # grid step, in debates
    most: int  # the grid's last budget
    round: int  # the adaptive schedule's matchups a round
    repetitions: int
    report: tuple[int, ...]  # budgets for the table of rankings
    coverage_at: tuple[int, ...]

    @property
    def grid(self) -> list[int]:
        return list(range(self.step, self.most + 1, self.step))


@dataclass
class Found:
    """One schedule's results over the repetitions."""

    spearman: list[list[float]] = field(default_factory=list)  # rep x grid
    top: list[list[bool]] = field(default_factory=list)
    top_five: list[list[int]] = field(default_factory=list)
    width_reached: list[float] = field(default_factory=list)  # (b), per rep
    top_widths: list[list[float]] = field(default_factory=list)  # rep x report
    seconds: float = 0.0


def machine() -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    cpu = platform.processor() or platform.machine()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{cpu}, {cores} cores, Python {platform.python_version()}, load {load}"


def schedule(name: str, draw: Draw, most: int, seed: int, size: int) -> list[Played]:
    if name == "round robin":
        return round_robin(draw, most, seed)
    if name == "random pairs":
        return uniform_pairs(draw, most, seed)
    target = WIDTH if name == "adaptive, W target" else None
    return adaptive(draw, most, seed, size, target_width=target)


def design(name: str) -> str:
    return "adaptive" if name.startswith("adaptive") else "round_robin"


def intervals(draw: Draw, played: list[Played], name: str) -> tuple[np.ndarray, np.ndarray]:
    _, low, high = rating_intervals(games(draw, played), design(name), RESAMPLES, 0)
    return low, high


def all_narrow(draw: Draw, played: list[Played], name: str) -> bool:
    low, high = intervals(draw, played, name)
    return bool(np.all(high - low <= WIDTH))


def first_narrow(draw: Draw, played: list[Played], name: str, grid: list[int]) -> float:
    """The first grid budget at which every interval is at most WIDTH (a binary
    search: widths fall as debates are added), inf if not by the grid's end."""
    if not all_narrow(draw, played[: grid[-1]], name):
        return float("inf")
    low, high = 0, len(grid) - 1
    while low < high:
        mid = (low + high) // 2
        if all_narrow(draw, played[: grid[mid]], name):
            high = mid
        else:
            low = mid + 1
    return float(grid[low])


def ranks(draw: Draw, played: list[Played]) -> tuple[float, bool, int]:
    estimate = fit(games(draw, played)).strengths[0]
    truth = draw.strengths
    rho = float(np.corrcoef(np.argsort(np.argsort(estimate)), np.argsort(np.argsort(truth)))[0, 1])
    top = int(np.argmax(estimate)) == int(np.argmax(truth))
    five = len(set(np.argsort(-estimate)[:5]) & set(np.argsort(-truth)[:5]))
    return rho, top, five


def run_board(plan: Plan) -> tuple[dict[str, Found], dict[str, float]]:
    found = {name: Found() for name in SCHEDULES}
    covered: dict[str, list[np.ndarray]] = defaultdict(list)
    for rep in range(plan.repetitions):
        draw = Draw(plan.board, MOTIONS, seed=rep)
        true_five = np.argsort(-draw.strengths)[:5]
        for name in SCHEDULES:
            start = time.perf_counter()
            played = schedule(name, draw, plan.most, rep, plan.round)
            found[name].seconds += time.perf_counter() - start
            rows = [ranks(draw, played[:b]) for b in plan.grid]
            found[name].spearman.append([r[0] for r in rows])
            found[name].top.append([r[1] for r in rows])
            found[name].top_five.append([r[2] for r in rows])
            found[name].width_reached.append(first_narrow(draw, played, name, plan.grid))
            widths = []
            for b in plan.report:
                low, high = intervals(draw, played[:b], name)
                widths.append(float(np.median((high - low)[true_five])))
            found[name].top_widths.append(widths)
            if name.startswith("adaptive"):
                truth = draw.true_ratings
                for b in plan.coverage_at:
                    g = games(draw, played[:b])
                    for label, kind in (("adaptive interval", "adaptive"),
                                        ("bootstrap over motions", "round_robin")):  # fmt: skip
                        _, low, high = rating_intervals(g, kind, RESAMPLES, 0)
                        covered[f"{name}: {label}"].append((low <= truth) & (truth <= high))
    return found, {k: float(np.mean(v)) for k, v in covered.items()}


def reached(grid: list[int], ok: np.ndarray) -> np.ndarray:
    """Per repetition, the first grid budget from which `ok` holds at every later
    budget of the grid (inf when it does not hold at the last)."""
    out = np.full(len(ok), np.inf)
    for r, row in enumerate(ok):
        if row[-1]:
            failed = np.flatnonzero(~row)
            out[r] = grid[failed[-1] + 1] if len(failed) else grid[0]
    return out


def by_share(values: np.ndarray, share: float) -> str:
    """The budget by which `share` of the boards had it (a quantile), or '> end'."""
    value = float(np.quantile(values, share, method="higher"))
    return "not reached" if np.isinf(value) else f"{value:,.0f}"


def report_board(plan: Plan, found: dict[str, Found], coverage: dict[str, float]) -> None:
    grid = plan.grid
    print(f"\n== {plan.board.name}: {plan.repetitions} boards (seeds 0-{plan.repetitions - 1}), "
          f"grid every {plan.step} debates to {plan.most:,}, adaptive rounds of "
          f"{plan.round} matchups ==")  # fmt: skip
    print(
        f"  debates by which boards had (a) Spearman >= {SPEARMAN} with the true order and the "
        f"true #1, both kept at every later budget; (b) every interval <= {WIDTH:.0f} points"
    )
    a_needed: dict[str, np.ndarray] = {}
    for name in SCHEDULES:
        f = found[name]
        ok = (np.array(f.spearman) >= SPEARMAN) & np.array(f.top)
        a_needed[name] = reached(grid, ok)
        b_needed = np.array(f.width_reached)
        print(f"{name:>18}: (a) 80% of boards by {by_share(a_needed[name], 0.8)}, half by "
              f"{by_share(a_needed[name], 0.5)}; (b) 80% by {by_share(b_needed, 0.8)}, half by "
              f"{by_share(b_needed, 0.5)} [{f.seconds / plan.repetitions:.1f} s each]")  # fmt: skip
    for share in SHARES:
        rr = float(np.quantile(a_needed["round robin"], share, method="higher"))
        ad = float(np.quantile(a_needed["adaptive"], share, method="higher"))
        if np.isfinite(rr) and np.isfinite(ad):
            print(f"  (a) adaptive / round robin at {share:.0%} of boards: {ad / rr:.2f}")
    print(f"  {'debates':>7}  {'schedule':<18} {'Spearman':>8} {'#1 right':>8} {'top 5':>5} "
          f"{'w(top 5)':>8}")  # fmt: skip
    for i, b in enumerate(plan.report):
        g = grid.index(b)
        for name in SCHEDULES:
            f = found[name]
            print(f"  {b:>7,}  {name:<18} {np.mean([r[g] for r in f.spearman]):8.3f} "
                  f"{np.mean([r[g] for r in f.top]):8.0%} "
                  f"{np.mean([r[g] for r in f.top_five]):5.1f} "
                  f"{np.median([r[i] for r in f.top_widths]):8.0f}")  # fmt: skip
    print(f"  coverage of the true ratings under the adaptive schedules (at "
          f"{', '.join(f'{b:,}' for b in plan.coverage_at)} debates, pooled): "
          + "; ".join(f"{k} {v:.3f}" for k, v in coverage.items()))  # fmt: skip


def established(draw: Draw, motions: int) -> list[Played]:
    """Every pair of the board's models on the first `motions` motions."""
    return round_robin(draw, motions * len(draw.models) * (len(draw.models) - 1), seed=0)


def placement(repetitions: int, most: int) -> None:
    """A new model placed in a rated 30-model board (module docstring)."""
    base = spread(30)
    lo, hi = np.quantile(base.ratings, [0.1, 0.9])
    steps = list(range(2, most + 1, 2))
    needed: dict[str, list[float]] = {"adaptive": [], "random opponents": []}
    errors: dict[str, list[list[int]]] = {"adaptive": [], "random opponents": []}
    seconds = 0.0
    for rep in range(repetitions):
        rng = np.random.default_rng(1000 + rep)
        new_rating = float(rng.uniform(lo, hi))
        board = Board(base.name + " + 1", (*base.ratings, new_rating))
        draw = Draw(board, MOTIONS, seed=1000 + rep)
        # Draw shuffles names over strengths: find the new model's.
        target = board.strengths[len(base.ratings)]
        new = int(np.flatnonzero(np.isclose(draw.strengths, target))[0])
        others = [m for i, m in enumerate(draw.models) if i != new]
        prior = [d for d in established(draw, 2) if draw.models[new] not in (d.pro, d.con)]
        true_rank = int(np.sum(draw.strengths > draw.strengths[new]))
        for how in needed:
            played, row = list(prior), []
            start = time.perf_counter()
            for n in range(len(steps)):
                played += _one(draw, played, new, others, how, rng, rep * 1000 + n)
                estimate = fit(games(draw, played)).strengths[0]
                row.append(int(np.sum(estimate > estimate[new])) - true_rank)
            if how == "adaptive":
                seconds += time.perf_counter() - start
            errors[how].append(row)
            ok = np.abs(np.array(row)) <= 1
            needed[how].append(float(reached(steps, ok[None, :])[0]))
    print(f"\n== placing a new model in a rated board: {base.name}, 1,740 debates rated "
          f"(2 motions of round robin); the new model's true rating uniform on "
          f"[{lo:.0f}, {hi:.0f}]; {repetitions} boards (seeds 1000-{999 + repetitions}), up to "
          f"{most} debates ==")  # fmt: skip
    for how in needed:
        e = np.abs(np.array(errors[how]))
        at = {k: float(np.median(e[:, steps.index(k)])) for k in (8, 16, 32, most) if k in steps}
        print(f"{how:>17}: within one rank of its true rank and kept: 80% by "
              f"{by_share(np.array(needed[how]), 0.8)}, half by "
              f"{by_share(np.array(needed[how]), 0.5)} debates; median rank error "
              + ", ".join(f"{v:.0f} at {k}" for k, v in at.items())
              + "; within one rank at 16 debates: "
              f"{np.mean(e[:, steps.index(16)] <= 1):.0%} of boards")  # fmt: skip
    print(
        f"  (adaptive: {seconds / repetitions / len(steps) * 1000:.0f} ms a call of "
        f"next_matchups on 31 models and ~1,800 debates)"
    )


def _one(
    draw: Draw,
    played: list[Played],
    new: int,
    others: list[str],
    how: str,
    rng: np.random.Generator,
    seed: int,
) -> list[Played]:
    """One matchup of the new model: chosen by the scheduler, or at random."""
    name = draw.models[new]
    at = {m: k for k, m in enumerate(draw.motions)}
    index = {m: i for i, m in enumerate(draw.models)}
    if how == "adaptive":
        pick = next_matchups(draw.models, draw.motions, played, 1, seed, placing=[name])[0]
        return draw.matchup(index[pick.a], index[pick.b], at[pick.motion])
    opponent = index[others[int(rng.integers(len(others)))]]
    used = {d.motion for d in played if {d.pro, d.con} == {name, draw.models[opponent]}}
    motion = next(k for k, m in enumerate(draw.motions) if m not in used)
    return draw.matchup(new, opponent, motion)


def plans(quick: bool) -> list[Plan]:
    if quick:
        return [
            Plan(spread(12), 66, 660, 10, 6, (132, 264, 528), (264,)),
            Plan(packed(), 203, 1218, 20, 3, (406, 812, 1218), (812,)),
        ]
    return [
        Plan(spread(12), 33, 1320, 10, 40, (132, 264, 396, 528, 792, 1056), (132, 264, 528)),
        Plan(spread(30), 145, 4350, 20, 20, (435, 870, 1305, 1740, 2610, 3480),
             (435, 870, 1740)),
        Plan(packed(), 203, 4060, 20, 20, (406, 812, 1624, 2436, 3248, 4060),
             (406, 812, 1624)),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run (a minute or two)")
    parser.add_argument("--save", action="store_true", help=f"write {SAVED.relative_to(ROOT)}")
    args = parser.parse_args()
    out = io.StringIO()
    tee = _Tee(sys.stdout, out)
    start = time.perf_counter()
    with redirect_stdout(tee):  # type: ignore[type-var]
        print(f"machine: {machine()}")
        print(f"boards: pro advantage 0.3 logits, ties 10% at even odds, motion side effect "
              f"sd 0.3, {MOTIONS} motions; W = {WIDTH:.0f} rating points; bootstrap "
              f"{RESAMPLES} resamples, seed 0{'; --quick' if args.quick else ''}")  # fmt: skip
        for plan in plans(args.quick):
            found, coverage = run_board(plan)
            report_board(plan, found, coverage)
        placement(*((4, 32) if args.quick else (40, 64)))
        print(f"\nwall {time.perf_counter() - start:.0f} s; machine after: {machine()}")
    if args.save:
        SAVED.write_text(out.getvalue(), encoding="utf-8")


class _Tee(io.TextIOBase):
    def __init__(self, *streams: io.TextIOBase | object) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)  # type: ignore[attr-defined]
            stream.flush()  # type: ignore[attr-defined]
        return len(text)


if __name__ == "__main__":
    main()
