"""What a tournament's logs say, debate by debate, and which matchups count.

A `DebateResult` is one scheduled debate: (pair, motion, swapped), who argued
which side, and what became of it: `scored`, `unscored` (the judges gave no
usable verdict), `error` (the debate failed) or `missing` (scheduled, found in
no log). A matchup, the pair on one motion from both sides, counts only when
both of its debates were scored; every other debate is counted and listed with
its reason, never dropped and never scored as a loss.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from debatebench_eval.matches.spend import Spend
from debatebench_eval.record.protocol import SIDES

STATUSES = ("scored", "unscored", "error", "missing")
# Totals are compared as the verdict compares them (rounded at 9 places).
_PLACES = 9


@dataclass(frozen=True)
class JudgeView:
    """One judge's reading of one debate: its own winner from its orientation-mean
    totals ("tie" when they are equal) and its scores as fractions of each maximum."""

    judge: str
    valid: bool
    winner: str | None = None
    swap_flipped: bool | None = None
    fractions: dict[str, dict[str, float]] = field(default_factory=dict)
    # Each repeat's own winner when the judge judged the debate k > 1 times, else empty.
    repeat_winners: tuple[str, ...] = ()


@dataclass(frozen=True)
class SideStats:
    """What one side spoke: words (what the judge read), output tokens, budget hits, turns."""

    words: int = 0
    output_tokens: int = 0
    budget_hits: int = 0
    turns: int = 0


@dataclass(frozen=True)
class DebateResult:
    pair: tuple[str, str]
    motion: str
    swapped: bool
    pro: str
    con: str
    status: str
    reason: str | None = None
    totals: dict[str, float] | None = None
    dimensions: dict[str, dict[str, float]] | None = None
    maxima: dict[str, float] = field(default_factory=dict)
    judges: tuple[JudgeView, ...] = ()
    sides: dict[str, SideStats] = field(default_factory=dict)
    trust: str | None = None
    self_judged: bool = False
    # The side that lost by forfeit, whatever the totals (a verdict rule that
    # comes before the scores, e.g. arguing the other position).
    forfeited: str | None = None
    # swap_rule=survive found the swapped readings disagreeing: a tie, whatever the totals.
    swap_tie: bool = False
    swap_rule: str = "mean"
    # The side that spoke first in the first argument phase (None: not recorded).
    opener: str | None = None
    # False for an outcome imported without a margin: its totals say only who won.
    margin_known: bool = True
    # The fact-check ran and scored nothing (it never enters the ratings; counted so
    # a tournament whose every fact-check failed says so).
    fact_check_failed: bool = False
    log: str | None = None
    sample_id: str | None = None
    uuid: str | None = None
    # Each model's calls in the debate (tokens, and cost where Inspect priced them).
    spend: tuple[Spend, ...] = ()
    # A known-answer debate: the side whose answer the judge picked, and whether it was
    # the right one (None in a rubric-judged debate).
    sided_with: str | None = None
    correct: bool | None = None

    @property
    def key(self) -> tuple[tuple[str, str], str, bool]:
        return self.pair, self.motion, self.swapped

    @property
    def result(self) -> float | None:
        """Pro's result: 1 a win, 1/2 a tie (equal totals before the tiebreaks, or a verdict
        that did not survive the order swap under swap_rule=survive), 0 a loss; a forfeit
        is a loss for the side that forfeited."""
        if self.totals is None:
            return None
        if self.forfeited is not None:
            return 0.0 if self.forfeited == "pro" else 1.0
        if self.swap_tie:
            return 0.5
        pro, con = (round(self.totals[side], _PLACES) for side in SIDES)
        return 1.0 if pro > con else 0.5 if pro == con else 0.0

    def model(self, side: str) -> str:
        return self.pro if side == "pro" else self.con

    def side_of(self, model: str) -> str:
        return "pro" if model == self.pro else "con"

    def listing(self) -> dict[str, object]:
        """The debate as the excluded-debates lists show it."""
        return {"pair": list(self.pair), "motion": self.motion, "swapped": self.swapped,
                "pro": self.pro, "con": self.con, "status": self.status,
                "reason": self.reason, "log": self.log, "sample_id": self.sample_id,
                "uuid": self.uuid}  # fmt: skip


@dataclass(frozen=True)
class Matchup:
    """A pair on one motion, argued from both sides."""

    pair: tuple[str, str]
    motion: str
    debates: tuple[DebateResult, DebateResult]

    @property
    def eligible(self) -> bool:
        return all(d.status == "scored" for d in self.debates)


def ordered(results: Iterable[DebateResult]) -> list[DebateResult]:
    """Every statistic reads debates in this order, so the order of the logs never matters."""
    return sorted(results, key=lambda d: (d.motion, d.pro, d.con, d.swapped))


def matchups(results: Iterable[DebateResult]) -> list[Matchup]:
    """Debates grouped into matchups (a debate whose twin is absent is listed alone
    by `excluded`; the scheduled set always has both)."""
    grouped: dict[tuple[tuple[str, str], str], dict[bool, DebateResult]] = defaultdict(dict)
    for debate in ordered(results):
        grouped[(debate.pair, debate.motion)][debate.swapped] = debate
    return [
        Matchup(pair, motion, (sides[False], sides[True]))
        for (pair, motion), sides in sorted(grouped.items())
        if False in sides and True in sides
    ]


def eligible_debates(results: Iterable[DebateResult]) -> list[DebateResult]:
    return ordered(d for m in matchups(results) if m.eligible for d in m.debates)


def excluded(results: Iterable[DebateResult]) -> dict[str, list[DebateResult]]:
    """The debates that do not count, by why: `unscored`, `error`, `missing`, and
    `twin` (scored, but the same matchup's other debate was not)."""
    found: dict[str, list[DebateResult]] = {"unscored": [], "error": [], "missing": [], "twin": []}
    for matchup in matchups(results):
        if matchup.eligible:
            continue
        for debate in matchup.debates:
            found["twin" if debate.status == "scored" else debate.status].append(debate)
    return found
