"""How far the judges agree: the panel's reliability beside the ratings it produced.

- Krippendorff's alpha (interval), overall and per dimension, over each valid
  judge's orientation-mean score as a fraction of the dimension's maximum: the
  units of the `panel_alpha` metric, computed by Inspect's own metric.
- Pairwise winner agreement: for two judges, the share of debates where each
  judge's own totals pick the same winner (a tie is its own answer), with n and
  Cohen's kappa (agreement beyond what each judge's own answer rates give).
- Per judge: the share of valid readings, and the swap-flip rate (its two
  readings with Side A/B exchanged disagreed on the winner: a judge that favours
  a label or a position shows up here).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai.scorer import krippendorff_alpha

from debatebench_eval.judging.reliability import cohen_kappa
from debatebench_eval.matches.results import DebateResult, JudgeView
from debatebench_eval.record.protocol import SIDES

_ALPHA = krippendorff_alpha(level="interval")


def judge_agreement(scored: Sequence[DebateResult], judges: Sequence[str]) -> dict[str, Any]:
    """Every agreement figure over the scored debates."""
    dimensions = sorted({name for d in scored for name in (d.maxima or {})})
    return {
        "alpha": _alpha(scored, None),
        "alpha_by_dimension": {name: _alpha(scored, name) for name in dimensions},
        "pairwise": [
            _pairwise(scored, a, b) for i, a in enumerate(judges) for b in judges[i + 1 :]
        ],
        "judges": [_per_judge(scored, judge) for judge in judges],
        "swap_flip_rate": _rate(
            [v.swap_flipped for d in scored for v in d.judges if v.swap_flipped is not None]
        ),
        "trust": dict(sorted(Counter(d.trust or "not recorded" for d in scored).items())),
    }


def units(debate: DebateResult, dimension: str | None = None) -> list[list[float]]:
    """One rating list per (side, dimension), one rating per valid judge (two or more)."""
    valid = [v for v in debate.judges if v.valid]
    if len(valid) < 2:
        return []
    names = [dimension] if dimension else sorted(valid[0].fractions.get("pro", {}))
    return [[v.fractions[side][name] for v in valid] for side in SIDES for name in names]


def _alpha(scored: Sequence[DebateResult], dimension: str | None) -> float:
    found = [unit for debate in scored for unit in units(debate, dimension)]
    if not found:
        return math.nan
    value = _ALPHA([_Unit(unit) for unit in found])  # type: ignore[misc]
    return float(value)  # type: ignore[arg-type]


@dataclass(frozen=True)
class _Unit:
    """One unit as Inspect's krippendorff_alpha metric reads a SampleScore (it reads
    only `.score.value`). A tournament has hundreds of thousands of units, and
    building a pydantic SampleScore for each took longer than the rest of `rate`;
    a test checks the result against the logs' own `panel_alpha`."""

    value: list[float]

    @property
    def score(self) -> _Unit:
        return self


def _views(debate: DebateResult, judge: str) -> JudgeView | None:
    return next((v for v in debate.judges if v.judge == judge), None)


def _pairwise(scored: Sequence[DebateResult], a: str, b: str) -> dict[str, Any]:
    answers = []
    for debate in scored:
        first, second = _views(debate, a), _views(debate, b)
        if first and second and first.valid and second.valid:
            answers.append((first.winner, second.winner))
    n = len(answers)
    agreed = sum(x == y for x, y in answers)
    return {"judges": [a, b], "n": n, "agreement": agreed / n if n else math.nan,
            "kappa": cohen_kappa(answers)}  # fmt: skip


def _per_judge(scored: Sequence[DebateResult], judge: str) -> dict[str, Any]:
    views = [v for d in scored if (v := _views(d, judge)) is not None]
    flips = [v.swap_flipped for v in views if v.valid and v.swap_flipped is not None]
    winners = Counter(v.winner for v in views if v.valid)
    valid = sum(v.valid for v in views)
    return {
        "judge": judge,
        "readings": len(views),
        "valid_rate": _rate([v.valid for v in views]),
        "swap_flip_rate": _rate(flips),
        "pro_pick_rate": winners["pro"] / valid if valid else math.nan,
    }


def _rate(flags: Sequence[bool | None]) -> float:
    return sum(bool(f) for f in flags) / len(flags) if flags else math.nan
