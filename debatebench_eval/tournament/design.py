"""How a tournament's debates were chosen, as its leaderboard states it: a round robin,
or an adaptive design (how many rounds and debates, and why it stopped), with each
model's debates and interval width and the rounds' history (debates against the
widest interval) as a plot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

ROUNDS_PLOT = "rounds.png"


def design_of(adaptive: bool, debates: int, rounds: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The design as leaderboard.json records it (under the tournament's header)."""
    if not adaptive:
        return {"kind": "round robin", "debates": debates}
    last = rounds[-1] if rounds else {}
    return {"kind": "adaptive", "debates": debates, "rounds": list(rounds),
            "stopped": last.get("stopped")}  # fmt: skip


def design_lines(header: dict[str, Any], models: Sequence[dict[str, Any]]) -> list[str]:
    """The design in words, and for an adaptive one a table of each model's debates and
    interval width and one of its rounds."""
    design = header.get("design")
    if not design:
        return []
    if design["kind"] != "adaptive":
        return ["", f"Design: round robin, every pair on every item from both sides "
                f"({design['debates']} debates scheduled)."]  # fmt: skip
    rounds = design["rounds"]
    stopped = design["stopped"] or "not yet: run the same command again to go on"
    lines = [
        "", "## Adaptive design", "",
        f"Adaptive: {len(rounds)} round(s), {design['debates']} debates scheduled, each round "
        "the matchups where a debate was worth most (near-ties, uncertain ratings), motions "
        f"balanced. Stopped: {stopped}.", "",
        "| model | debates | 95% interval width |", "|---|---|---|",
    ]  # fmt: skip
    for row in models:
        width = _width(row.get("rating"))
        lines.append(f"| {row['model']} | {row.get('debates', 0)} | {width} |")
    lines += ["", "| round | rated debates | widest interval | matchups added |",
              "|---|---|---|---|"]  # fmt: skip
    for number, entry in enumerate(rounds, 1):
        widest = "n/a" if entry.get("widest") is None else f"{entry['widest']:.0f}"
        lines.append(f"| {number} | {entry['rated_debates']} | {widest} "
                     f"| {entry['matchups_added']} |")  # fmt: skip
    return lines


def _width(rating: dict[str, Any] | None) -> str:
    if not rating or rating.get("low") is None or rating.get("high") is None:
        return "n/a"
    return f"{rating['high'] - rating['low']:.0f}"


def rounds_plot(header: dict[str, Any], root: str) -> list[str]:
    """The rounds' history, debates rated against the widest interval (none for a round
    robin, or fewer than two rated rounds)."""
    design = header.get("design") or {}
    points = [(e["rated_debates"], e["widest"]) for e in design.get("rounds", [])
              if e.get("widest") is not None]  # fmt: skip
    if design.get("kind") != "adaptive" or len(points) < 2:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from debatebench_eval.tournament.plots import save

    figure, axis = plt.subplots(figsize=(6, 3.5))
    axis.plot([p[0] for p in points], [p[1] for p in points], marker="o")
    axis.set_xlabel("debates rated")
    axis.set_ylabel("widest 95% interval (rating points)")
    axis.set_title("Adaptive rounds")
    axis.grid(alpha=0.3)
    return [save(figure, f"{root}/{ROUNDS_PLOT}")]
