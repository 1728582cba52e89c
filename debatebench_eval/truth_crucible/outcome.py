"""The verdict and the score's fixed keys: arithmetic outside the model.

Each side's mean is the mean weighted total of its scored claims; the gap
between the means gives the tier (`judging.verdict.margin_tier`: RESOLVED at
or above the resolved margin, CONTESTED_BUT_LEANING from the leaning margin,
else UNRESOLVED). The side with the higher mean leads unless the tier is
UNRESOLVED: there is no winner and no coin toss. An exact tie (equal means, to
four places) is UNRESOLVED whatever the margins: with `leaning_margin` 0 any
other gap leans, but a tie has no side ahead to lead. Every key is in every
scored sample, NaN when it does not apply.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from debatebench_eval.judging.verdict import margin_tier
from debatebench_eval.truth_crucible.record import SIDES, CrucibleRecord

NAN = math.nan
OUTCOME_KEYS = (
    "pro_mean",
    "con_mean",
    "gap",
    "tier_resolved",
    "tier_contested",
    "tier_unresolved",
    "pro_leads",
)
RECORD_KEYS = (
    "pro_claims",
    "con_claims",
    "pro_verified",
    "con_verified",
    "evidence_verified_rate",
    "conflicts",
    "rounds_run",
    "stopped_early",
    "convergence_max",
    "lexical_max",
    "steelman_mean",
)
PANEL_KEYS = ("judges", "judge_alpha", "repairs", "rescored")


def score_keys(dimensions: list[str]) -> tuple[str, ...]:
    per_side = tuple(f"{side}_{d}" for side in SIDES for d in dimensions)
    return OUTCOME_KEYS + per_side + RECORD_KEYS + PANEL_KEYS


@dataclass(frozen=True)
class Outcome:
    means: dict[str, float]
    gap: float
    tier: str
    leading: str | None  # None when UNRESOLVED

    def answer(self) -> str:
        """What the sample list shows: who leads, then the tier."""
        lead = f"{self.leading.upper()} leads" if self.leading else "no side leads"
        return f"{lead} · {self.tier}"

    def line(self) -> str:
        lead = f", {self.leading.upper()} leads" if self.leading else ", no side leads"
        means = " vs ".join(f"{s.upper()} {self.means[s]:.2f}" for s in SIDES)
        return f"{self.tier}: {means} (gap {self.gap:.2f}{lead})"


def decide(means: dict[str, float], resolved: float, leaning: float) -> Outcome:
    """The tier and the leading side from the side means. A gap of 0 is UNRESOLVED even
    when a margin is 0 (`margin_tier` alone would call it a lean, and "lead" one side)."""
    gap = round(abs(means["pro"] - means["con"]), 4)
    tier = "UNRESOLVED" if gap == 0 else margin_tier(gap, resolved, leaning)
    leading = None
    if tier != "UNRESOLVED":
        leading = "pro" if means["pro"] > means["con"] else "con"
    return Outcome(means, gap, tier, leading)


def outcome_value(outcome: Outcome) -> dict[str, float]:
    return {
        "pro_mean": outcome.means["pro"],
        "con_mean": outcome.means["con"],
        "gap": outcome.gap,
        "tier_resolved": float(outcome.tier == "RESOLVED"),
        "tier_contested": float(outcome.tier == "CONTESTED_BUT_LEANING"),
        "tier_unresolved": float(outcome.tier == "UNRESOLVED"),
        "pro_leads": NAN if outcome.leading is None else float(outcome.leading == "pro"),
    }


def side_dimensions(
    medians: dict[str, dict[str, float]], sides: dict[str, str], dimensions: list[str]
) -> dict[str, float]:
    """Per side and dimension, the mean over its scored claims of the claim's median."""
    value = {}
    for side in SIDES:
        own = [m for claim, m in medians.items() if sides[claim] == side]
        for d in dimensions:
            value[f"{side}_{d}"] = round(statistics.fmean(m[d] for m in own), 4) if own else NAN
    return value


def record_value(record: CrucibleRecord) -> dict[str, float]:
    items = [e for c in record.claims for e in c.evidence]
    regular = [r for r in record.reviews if r.kind == "round"]
    grades = [g.fidelity for r in record.reviews for g in r.steelman]
    value = {
        **{f"{s}_claims": float(sum(c.side == s for c in record.claims)) for s in SIDES},
        **{f"{s}_verified": float(len(record.verified(s))) for s in SIDES},
        "evidence_verified_rate": sum(e.verified for e in items) / len(items) if items else NAN,
        "conflicts": float(len(record.conflicts)),
        "rounds_run": float(len(regular)),
        "stopped_early": float(record.stopped_early),
        "convergence_max": max((r.convergence for r in record.reviews), default=NAN),
        "lexical_max": max((r.lexical for r in record.reviews), default=NAN),
        "steelman_mean": statistics.fmean(grades) if grades else NAN,
    }
    return {key: value[key] for key in RECORD_KEYS}
