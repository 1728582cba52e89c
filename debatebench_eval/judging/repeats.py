"""Repeat-run consistency: a debate judged k times, each repeat with its own seed.

A judge's repeats are readings of the same transcript under the same blind
mapping that differ only in the seed sent with the call, so they measure how
far a verdict is a draw from the judge's sampling ("The Coin Flip Judge?",
arXiv 2606.13685). Aggregation (stated in the option's help): each repeat's
orientations are averaged, each judge's repeats are combined by the median
per dimension (robust to one odd repeat, as the panel median is to one odd
judge), then the panel's judges by the median as before. With one repeat
every step is the identity, so the default judging is unchanged.

Per debate, the figures compare the panel's verdict repeat by repeat (the
median across judges of each repeat's scores):

- `repeat_flip_rate`: the share of pairs of repeats whose winners differ (a
  tie of totals is its own answer), the per-comparison flip rate the paper
  reports;
- `repeat_stable`: 1 when every repeat names the same winner, else 0;
- `repeat_spread.DIMENSION`: the sample standard deviation of the k repeat
  scores, in rubric points, averaged over the two sides.

A judge's records (`metadata["readings"]`) are then one per repeat, each
with its `repeat` number and `seed`; `judge_groups` puts one judge's back
together.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from debatebench_eval.judging.verdict import SideScores, median_scores, totals
from debatebench_eval.record.protocol import SIDES

REPEAT_KEY = "repeat"


def judge_groups(records: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The readings' judge records grouped per judge: a record without a repeat number
    (one repeat) is a judge alone, and repeat 1 starts the next judge's group."""
    groups: list[list[dict[str, Any]]] = []
    for record in records:
        if record.get(REPEAT_KEY, 1) == 1 or not groups:
            groups.append([record])
        else:
            groups[-1].append(record)
    return groups


def combine_repeats(repeats: list[SideScores]) -> SideScores:
    """One judge's repeats as one reading: the median per dimension (one: itself)."""
    return repeats[0] if len(repeats) == 1 else median_scores(repeats)


def outcome(scores: SideScores) -> str:
    """The winner by totals alone, a tie being its own answer (as agreement counts it)."""
    sums = totals(scores)
    if sums["pro"] == sums["con"]:
        return "tie"
    return "pro" if sums["pro"] > sums["con"] else "con"


def flip_rate(winners: Sequence[str]) -> float:
    """The share of pairs of repeats whose winners differ."""
    pairs = list(combinations(winners, 2))
    return sum(a != b for a, b in pairs) / len(pairs)


def repeat_figures(panel_by_repeat: list[SideScores], names: Sequence[str]) -> dict[str, float]:
    """The per-debate repeat figures (module docstring) from the panel's scores per repeat."""
    winners = [outcome(scores) for scores in panel_by_repeat]
    figures = {
        "repeat_flip_rate": flip_rate(winners),
        "repeat_stable": float(len(set(winners)) == 1),
    }
    for name in names:
        spreads = [statistics.stdev(s[side][name] for s in panel_by_repeat) for side in SIDES]
        figures[f"repeat_spread.{name}"] = statistics.fmean(spreads)
    return figures
