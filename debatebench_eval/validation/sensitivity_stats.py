"""Statistics of the judge sensitivity check: does the degraded side score lower, and lose?

Plain functions over the rubric's scores of each pair (a reference debate and
its variant with one side degraded). For each pair: whether the degraded side
scored lower than in the reference on each dimension that must fall, whether
it lost the degraded debate, and whether the unchanged side's scores moved.
Rates carry Wilson 95% intervals; pairs share source debates, so the
intervals treat pairs as independent and are narrower than a source-level
resampling would give. Chance levels come from simulating a judge that scores
every dimension uniformly at random, aggregated as the rubric scorer does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from debatebench_eval.record.protocol import other_side
from debatebench_eval.stats import intervals

CHANCE_DRAWS = 20000


@dataclass(frozen=True)
class PairOutcome:
    pair: str
    degradation: str
    side: str
    fell: dict[str, bool]
    lost: bool
    unchanged_moved: bool
    unchanged_shift: float  # the unchanged side's total, degraded minus reference

    @property
    def detected(self) -> bool:
        """Every stated dimension fell and the degraded side lost: the headline event."""
        return all(self.fell.values()) and self.lost


@dataclass(frozen=True)
class Rate:
    k: int
    n: int
    low: float | None
    high: float | None

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None


def wilson(k: int, n: int) -> Rate:
    """k of n with the project's one Wilson interval (`stats.intervals.wilson`)."""
    found = intervals.wilson(k, n)
    if found is None:
        return Rate(0, 0, None, None)
    return Rate(k, n, found.low, found.high)


def pair_outcome(
    pair: str,
    degradation: str,
    side: str,
    must_fall: Sequence[str],
    dimensions: Sequence[str],
    reference: Mapping[str, float],
    degraded: Mapping[str, float],
) -> PairOutcome:
    """One pair from the two rubric score values (keys pro_<dimension>, pro_win, ...)."""
    kept = other_side(side)  # type: ignore[arg-type]
    fell = {d: degraded[f"{side}_{d}"] < reference[f"{side}_{d}"] for d in must_fall}
    pro_won = degraded["pro_win"] == 1
    lost = pro_won if side == "con" else not pro_won
    moved = any(degraded[f"{kept}_{d}"] != reference[f"{kept}_{d}"] for d in dimensions)
    shift = degraded[f"{kept}_total"] - reference[f"{kept}_total"]
    return PairOutcome(pair, degradation, side, fell, lost, moved, shift)


@dataclass(frozen=True)
class SensitivitySummary:
    samples: int
    parsed: int
    parse_rate: float
    pairs: int
    pairs_judged: int
    sensitivity: Rate
    loss: Rate
    unchanged_moved: Rate
    unchanged_mean_abs_shift: float | None
    swap_flip: Rate
    by_degradation: dict[str, Rate]
    falls: dict[str, dict[str, Rate]]
    chance: dict[str, float] = field(default_factory=dict)

    def as_metrics(self) -> dict[str, float | None]:
        """Flat numbers for Inspect's metric, the headline first (the viewer's log
        list shows the first metric). An undefined figure is None, which Inspect
        leaves out of its results (no `nan` row in the terminal table; the
        per-pair values stay in the log), except the headline, sensitivity,
        which is always there (NaN when undefined)."""
        out: dict[str, float | None] = {}
        for name, rate in (
            ("sensitivity", self.sensitivity),
            ("loss_rate", self.loss),
            ("unchanged_moved", self.unchanged_moved),
            ("swap_flip_rate", self.swap_flip),
        ):
            out.update(_rate(name, rate))
        out.update(
            parse_rate=self.parse_rate,
            pairs=float(self.pairs),
            pairs_judged=float(self.pairs_judged),
            unchanged_mean_abs_shift=self.unchanged_mean_abs_shift,
        )
        for name, rate in self.by_degradation.items():
            out.update(_rate(f"sensitivity.{name}", rate))
        for name, dims in self.falls.items():
            for dim, rate in dims.items():
                out[f"fell.{name}.{dim}"] = rate.value
        out.update({f"chance.{name}": value for name, value in self.chance.items()})
        out[HEADLINE] = _nan(out[HEADLINE])
        return out


HEADLINE = "sensitivity"


def _rate(name: str, rate: Rate) -> dict[str, float | None]:
    return {name: rate.value, f"{name}_low": rate.low, f"{name}_high": rate.high}


def _nan(value: float | None) -> float:
    return math.nan if value is None else float(value)


def summarise_pairs(
    outcomes: Sequence[PairOutcome],
    *,
    samples: int,
    parsed: int,
    pairs: int,
    flips: Sequence[float],
    must_fall: Mapping[str, Sequence[str]],
    maxima: Mapping[str, int],
    tiebreak: str = "steelman_fidelity",
    readings: int = 2,
) -> SensitivitySummary:
    """Every figure of one sensitivity run. `flips` are the rubric's swap_flipped values
    of the judged samples; `pairs` counts every pair given, judged or not."""
    by_name: dict[str, list[PairOutcome]] = {}
    for outcome in outcomes:
        by_name.setdefault(outcome.degradation, []).append(outcome)
    flipped = [f for f in flips if not math.isnan(f)]
    shifts = [abs(o.unchanged_shift) for o in outcomes]
    return SensitivitySummary(
        samples=samples,
        parsed=parsed,
        parse_rate=parsed / samples if samples else 0.0,
        pairs=pairs,
        pairs_judged=len(outcomes),
        sensitivity=wilson(sum(o.detected for o in outcomes), len(outcomes)),
        loss=wilson(sum(o.lost for o in outcomes), len(outcomes)),
        unchanged_moved=wilson(sum(o.unchanged_moved for o in outcomes), len(outcomes)),
        unchanged_mean_abs_shift=float(np.mean(shifts)) if shifts else None,
        # A share of judges, 0 to 1 per sample; a sample counts as flipped when any flipped.
        swap_flip=wilson(sum(f > 0 for f in flipped), len(flipped)),
        by_degradation={n: wilson(sum(o.detected for o in g), len(g)) for n, g in by_name.items()},
        falls={
            n: {d: wilson(sum(o.fell[d] for o in g), len(g)) for d in must_fall[n]}
            for n, g in by_name.items()
        },
        chance=_chance(by_name, must_fall, maxima, tiebreak, readings),
    )


def _chance(
    by_name: Mapping[str, Sequence[PairOutcome]],
    must_fall: Mapping[str, Sequence[str]],
    maxima: Mapping[str, int],
    tiebreak: str,
    readings: int,
) -> dict[str, float]:
    """Each degradation's chance level, and the run's (weighted by its pairs)."""
    if not maxima or not by_name:
        return {}
    each = {n: chance_detection(must_fall[n], maxima, tiebreak, readings) for n in by_name}
    pairs = sum(len(g) for g in by_name.values())
    return {**each, "all": sum(each[n] * len(g) for n, g in by_name.items()) / pairs}


def chance_detection(
    must_fall: Sequence[str],
    maxima: Mapping[str, int],
    tiebreak: str,
    readings: int = 2,
    draws: int = CHANCE_DRAWS,
    seed: int = 0,
) -> float:
    """The headline rate of a judge that scores every dimension uniformly at random,
    each debate's scores the mean of `readings` readings (swap judging), the winner by
    total, then the tiebreak dimension, then a fair coin (the recorded seed's parity)."""
    rng = np.random.default_rng(seed)
    names = list(maxima)

    def scores() -> dict[str, np.ndarray]:
        return {
            d: rng.integers(0, maxima[d] + 1, size=(draws, readings)).mean(axis=1) for d in names
        }

    reference, degraded, opponent = scores(), scores(), scores()
    fell = np.all([degraded[d] < reference[d] for d in must_fall], axis=0)
    own = sum(degraded[d] for d in names)
    other = sum(opponent[d] for d in names)
    tie = own == other
    lost = (own < other) | (tie & (degraded[tiebreak] < opponent[tiebreak]))
    coin = tie & (degraded[tiebreak] == opponent[tiebreak]) & (rng.random(draws) < 0.5)
    return float(np.mean(fell & (lost | coin)))
