"""An adaptive tournament's rounds: after each round the ratings are refitted, the
tournament stops when its target is met or its budget spent, and otherwise the next
round's matchups are chosen where a debate is worth most (`stats.active`).

A round is a set of matchups (a pair on one item, argued from both sides). They are
written into the folder's schedule (`Schedule.chosen`) before any of them runs, so a
worker killed mid-round, or the command run again, finishes that round's debates
and never chooses them twice. The ratings are fitted from every outcome as in a
round robin (the likelihood does not depend on how the pairs were chosen); their
intervals are the ones that cover under this design (`stats.design`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from debatebench_eval.matches.results import DebateResult, eligible_debates
from debatebench_eval.stats.active import Matchup, Played, next_matchups
from debatebench_eval.stats.design import rating_intervals, stop_reason
from debatebench_eval.tournament.schedule import Chosen, Schedule
from debatebench_eval.tournament.standings import games_of

# Resamples of a refit between rounds: enough to compare an interval with a target
# width to within a few points; the leaderboard's own figures use its --resamples.
REFIT_RESAMPLES = 300
BUDGET_SPENT = "the budget of {n} debates is spent"
NONE_LEFT = "every pair has debated every item: nothing is left to choose"


@dataclass(frozen=True)
class Target:
    """When an adaptive tournament stops, and how big a round is (in debates)."""

    round_debates: int
    width: float | None = None
    max_debates: int | None = None


@dataclass(frozen=True)
class Refit:
    """The ratings after a round: each rated model's rating and interval."""

    models: tuple[str, ...]
    ratings: np.ndarray
    low: np.ndarray
    high: np.ndarray
    rated_debates: int

    @property
    def widest(self) -> float:
        return float((self.high - self.low).max())


def played(results: Sequence[DebateResult]) -> list[Played]:
    """Every scheduled debate as the chooser reads it: pro's result where it was
    scored, None where it is scheduled but not judged (it still counts for balance)."""
    return [Played(r.pro, r.con, r.motion, r.result if r.status == "scored" else None)
            for r in results]  # fmt: skip


def refit(results: Sequence[DebateResult], seed: int) -> Refit | None:
    """The ratings of the eligible debates, with the adaptive design's intervals (None
    while fewer than two models are rated)."""
    debates = eligible_debates(results)
    models = sorted({m for d in debates for m in (d.pro, d.con)})
    if len(models) < 2:
        return None
    point, low, high = rating_intervals(games_of(debates, models), "adaptive",
                                        REFIT_RESAMPLES, seed)  # fmt: skip
    return Refit(tuple(models), point, low, high, len(debates))


def stopped(
    schedule: Schedule, fit: Refit | None, target: Target, placing: Sequence[str] = ()
) -> str | None:
    """Why the tournament stops now: its target met (for the models being placed, when
    some are), its budget spent, or nothing left to choose."""
    if target.max_debates is not None and schedule.debates() >= target.max_debates:
        return BUDGET_SPENT.format(n=target.max_debates)
    pairs = [p for p in schedule.pairs if not placing or set(p) & set(placing)]
    if sum(len(schedule.pair_items(*p)) for p in pairs) >= len(pairs) * len(schedule.items):
        return NONE_LEFT
    if fit is None or set(fit.models) != set(schedule.models):
        return None  # a model not yet rated: keep going
    if placing:
        return _placed(fit, placing, target.width)
    return stop_reason(fit.ratings, fit.low, fit.high, target.width)


def _placed(fit: Refit, placing: Sequence[str], width: float | None) -> str | None:
    """A placement is done when each placed model's interval is at most the width."""
    if width is None:
        return None
    index = [fit.models.index(m) for m in placing]
    if all(fit.high[i] - fit.low[i] <= width for i in index):
        return f"every placed model's interval at most {width:g} wide"
    return None


def next_round(
    schedule: Schedule,
    results: Sequence[DebateResult],
    target: Target,
    seed: int,
    placing: Sequence[str] = (),
) -> list[Chosen]:
    """The next round's matchups, within the budget: only the pairs of the models
    being `placing` on an existing board, when there are any; the width target
    steering the choice, when there is one."""
    count = math.ceil(target.round_debates / 2)
    if target.max_debates is not None:
        count = min(count, max(1, (target.max_debates - schedule.debates()) // 2))
    picks = next_matchups(schedule.models, [i.id for i in schedule.items], played(results),
                          count, seed, placing=placing, target_width=target.width)  # fmt: skip
    return [(m.a, m.b, m.motion) for m in picks]


def placing(schedule: Schedule, existing: Schedule | None, rounds: Sequence[dict[str, Any]]
            ) -> tuple[str, ...]:  # fmt: skip
    """The models an adaptive run is placing on an existing board: those the folder did
    not have, and those an earlier run was still placing when it was cut short."""
    if existing is None or not existing.matchups():
        return ()
    new = set(schedule.models) - set(existing.models)
    if rounds and rounds[-1].get("stopped") is None:
        new |= set(rounds[-1].get("placing") or ())
    return tuple(sorted(new))


def round_entry(
    fit: Refit | None, added: int, why: str | None, placed: Sequence[str] = ()
) -> dict[str, Any]:
    """A round as the folder records it: what the refit found, what it added, the
    models it was placing, and why the tournament stopped, if it did."""
    return {
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
        "rated_debates": fit.rated_debates if fit else 0,
        "widest": round(fit.widest, 1) if fit else None,
        "matchups_added": added,
        "placing": list(placed),
        "stopped": why,
    }


def next_rows(
    models: Sequence[str], items: Sequence[str], results: Sequence[DebateResult],
    count: int, seed: int,
) -> list[tuple[str, str, str]]:  # fmt: skip
    """`tournament next`: the next `count` matchups as (motion, pro, con) rows, both
    sides of each one after the other."""
    picks: list[Matchup] = next_matchups(models, items, played(results), count, seed)
    return [row for m in picks for row in ((m.motion, m.a, m.b), (m.motion, m.b, m.a))]
