"""Aggregation and the winner: arithmetic outside the model.

The judge only scores. Readings are combined in a fixed order — each judge's
two orientations averaged, then the median across judges per dimension — and
the winner follows from the combined scores: higher total, then the tiebreak
dimension, then a coin toss from the sample seed (`seed % 2`: even gives pro),
so a tied debate always resolves the same way and anyone can check it by hand.

One rule comes before the scores: a side that argued the other position
(most readings say its stance "switched") forfeits. A debate benchmark must
not credit a model for abandoning the side it was given, however well it
argued the other one; its scores are still kept and reported. When both
sides switched, neither forfeits and the scores decide.

With `swap_rule=survive` a winner must also survive the order swap: the
verdict stands only when the panel's reading of each orientation alone
names the same winner; otherwise it is a tie (`swap_disagreed`, tier
UNRESOLVED, half a win each), its scores still kept and reported. A forfeit
comes before this rule, as before the scores.
"""

from __future__ import annotations

import statistics
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TypeVar

from debatebench_eval.record.protocol import SIDES, Side, other_side

K = TypeVar("K", bound=Hashable)
SideScores = dict[Side, dict[str, float]]
TIERS = ("RESOLVED", "CONTESTED_BUT_LEANING", "UNRESOLVED")
DEFAULT_RESOLVED_MARGIN = 15.0
DEFAULT_LEANING_MARGIN = 5.0
# Averages of integer scores are exact in binary only to a point; compare
# totals after rounding so 0.1 + 0.2 style noise can never decide a debate.
_PLACES = 9


# A verdict with no winner: swap_rule=survive and the two orientations disagreed.
SWAP_DISAGREED = "swap_disagreed"


@dataclass(frozen=True)
class Verdict:
    winner: Side | None  # None: a tie (swap_rule=survive only), `reason` says why
    reason: str
    totals: dict[Side, float]
    margin: float
    tier: str


def mean_scores(readings: list[SideScores]) -> SideScores:
    """The per-dimension mean of several readings (one judge's orientations)."""
    return {
        side: {
            name: statistics.fmean(reading[side][name] for reading in readings)
            for name in readings[0][side]
        }
        for side in SIDES
    }


def median_scores(judges: list[SideScores]) -> SideScores:
    """The per-dimension median across judges (a panel)."""
    return {side: median_by_key([judge[side] for judge in judges]) for side in SIDES}


def median_by_key(readings: list[dict[K, float]]) -> dict[K, float]:
    """The median across readings of each key of the first reading."""
    return {
        key: float(statistics.median(reading[key] for reading in readings)) for key in readings[0]
    }


def totals(scores: SideScores) -> dict[Side, float]:
    return {side: round(sum(scores[side].values()), _PLACES) for side in SIDES}


def margin_tier(
    margin: float,
    resolved: float = DEFAULT_RESOLVED_MARGIN,
    leaning: float = DEFAULT_LEANING_MARGIN,
) -> str:
    """RESOLVED at or above `resolved`, CONTESTED_BUT_LEANING from `leaning`, else UNRESOLVED."""
    if margin >= resolved:
        return "RESOLVED"
    if margin >= leaning:
        return "CONTESTED_BUT_LEANING"
    return "UNRESOLVED"


def stance_violations(stances: list[dict[Side, str]]) -> dict[Side, bool]:
    """Per side, whether a strict majority of the readings found it argued the other position."""
    return {
        side: sum(reading[side] == "switched" for reading in stances) * 2 > len(stances)
        for side in SIDES
    }


def decide(
    scores: SideScores,
    tiebreak: str,
    seed: int,
    resolved: float = DEFAULT_RESOLVED_MARGIN,
    leaning: float = DEFAULT_LEANING_MARGIN,
    switched: frozenset[Side] = frozenset(),
) -> Verdict:
    """The winner; `switched` holds the sides that argued the other position."""
    sums = totals(scores)
    margin = round(abs(sums["pro"] - sums["con"]), _PLACES)
    if len(switched) == 1:
        # The outcome follows from the rule, whatever the margin: RESOLVED.
        return Verdict(other_side(next(iter(switched))), "stance_forfeit", sums, margin, TIERS[0])
    tier = margin_tier(margin, resolved, leaning)
    if sums["pro"] != sums["con"]:
        winner: Side = "pro" if sums["pro"] > sums["con"] else "con"
        return Verdict(winner, "total", sums, margin, tier)
    pro_tb, con_tb = (round(scores[side][tiebreak], _PLACES) for side in SIDES)
    if pro_tb != con_tb:
        return Verdict("pro" if pro_tb > con_tb else "con", "steelman_tiebreak", sums, margin, tier)
    return Verdict("pro" if seed % 2 == 0 else "con", "coin_toss", sums, margin, tier)


def survive(verdict: Verdict, oriented: list[Verdict]) -> Verdict:
    """swap_rule=survive: the verdict when every orientation's own verdict names its
    winner, else a tie recorded as `swap_disagreed` (a forfeit is never undone)."""
    if verdict.reason == "stance_forfeit" or all(o.winner == verdict.winner for o in oriented):
        return verdict
    return Verdict(None, SWAP_DISAGREED, verdict.totals, verdict.margin, TIERS[-1])
