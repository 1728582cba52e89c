"""How far a run's verdicts could be the judges' habits: effective panel size, and the
biases of position, side, length and self-preference, each with a 95% interval.

Plain functions over `Judged` debates, shared by the rubric scorer's metrics
(from score metadata) and the leaderboard (from the tournament's results).
Every figure is computed per judge, from that judge's own verdict (its
orientation-, repeat-mean totals), and for the panel's verdict (`PANEL`).

- **Effective number of judges** (Kish's design effect, as inspect_ai issue
  #4955 and "Nine Judges, Two Effective Votes", arXiv 2605.29800, apply it to
  judge panels): n_eff = n / (1 + (n - 1) * max(rho, 0)), where rho is the
  mean over judge pairs of the Pearson correlation of their verdicts over the
  debates both judged. A debate has no gold label, so rho is the correlation
  of verdicts, not of errors: judges that agree because they are right count
  as dependent too, so n_eff is a lower bound on the panel's independence.
  Two codings, reported separately: `all` (pro 1, tie 0, con -1, every
  debate) and `decisive` (pro 1, con -1, only debates neither judge tied). A
  negative rho is clipped to 0 (n_eff at most n); a pair with a judge that
  always gave one answer has no correlation and is left out.
- **Position**: the share of decisive verdicts won by the side that spoke
  first in the first argument phase, against 1/2. A debate run of this
  package always has pro open (initiative then alternates), so there the
  figure is the side figure; it separates only over transcripts with either
  opener (the judge task's). A score keeps the opener as its `pro_opened`
  figure; the leaderboard reads it from each debate's record.
- **Side**: pro's share of decisive verdicts, against 1/2 (in a tournament,
  beside the fitted side advantage, which is the same question net of the
  models' strengths).
- **Length**: the least-squares slope of the verdict's margin (pro total -
  con total, rubric points) on the length share (words pro - words con) /
  (words pro + words con), standardised: rubric points per standard
  deviation of the length share, with its t interval. Needs each side's
  words (a score's `words.pro`/`words.con` figures, or the debate's record).
- **Self-preference**: for a judge of one debater's model family
  (`judging.families`) and not the other's, its rate of picking that side
  minus the other judges' rate on the same debates (a tie half a pick); a
  percentile bootstrap over debates (2000 resamples, seed 0) gives the
  interval. Needs a judge of another family on the same debates.

Rates use the Wilson score interval. A figure is
flagged when its interval excludes the no-bias value (1/2, or 0). The level,
the intervals and the bootstrap are the package's one set (`stats`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from debatebench_eval.judging.families import family
from debatebench_eval.record.protocol import SIDES
from debatebench_eval.stats.bootstrap import resampled_means
from debatebench_eval.stats.intervals import (
    Estimate,
    percentile,
    share_difference,
    t_quantile,
    wilson,
)

PANEL = "panel"
RESAMPLES = 2000
SEED = 0
CODES = {"pro": 1.0, "tie": 0.0, "con": -1.0}


@dataclass(frozen=True)
class Judged:
    """One debate as the diagnostics read it; `verdicts` holds, per judge (and PANEL),
    its winner (pro, con or tie) and margin (pro total - con total)."""

    verdicts: dict[str, tuple[str, float]]
    models: dict[str, str]  # side -> debater model
    opener: str | None = None
    words: dict[str, int] | None = None
    repeats: dict[str, tuple[str, ...]] = field(default_factory=dict)


def cohen_kappa(answers: Sequence[tuple[Any, Any]]) -> float:
    """(observed - expected agreement) / (1 - expected), expected from each rater's own rates."""
    n = len(answers)
    if not n:
        return math.nan
    observed = sum(x == y for x, y in answers) / n
    first, second = Counter(x for x, _ in answers), Counter(y for _, y in answers)
    expected = sum(first[c] * second[c] for c in first) / n**2
    return 1.0 if expected == 1 else (observed - expected) / (1 - expected)


def judges_of(debates: Sequence[Judged]) -> list[str]:
    """Every judge named, in first-seen order, the panel left out."""
    found = dict.fromkeys(j for d in debates for j in d.verdicts if j != PANEL)
    return list(found)


# ---------------------------------------------------------------- panel size


def effective_judges(debates: Sequence[Judged], decisive: bool) -> dict[str, Any] | None:
    """n_eff over the panel's pairwise verdict correlation (module docstring)."""
    judges = judges_of(debates)
    if len(judges) < 2:
        return None
    found = [r for a, b in combinations(judges, 2) if (r := _correlation(debates, a, b, decisive))
             is not None]  # fmt: skip
    if not found:
        return {"judges": len(judges), "pairs": 0, "mean_correlation": None, "n_eff": None}
    rho = float(np.mean(found))
    n = len(judges)
    return {"judges": n, "pairs": len(found), "mean_correlation": rho,
            "n_eff": n / (1 + (n - 1) * max(rho, 0.0))}  # fmt: skip


def _correlation(debates: Sequence[Judged], a: str, b: str, decisive: bool) -> float | None:
    pairs = [(d.verdicts[a][0], d.verdicts[b][0]) for d in debates
             if a in d.verdicts and b in d.verdicts]  # fmt: skip
    if decisive:
        pairs = [(x, y) for x, y in pairs if "tie" not in (x, y)]
    if len(pairs) < 2:
        return None
    x, y = (np.array([CODES[p[i]] for p in pairs]) for i in (0, 1))
    if x.std() == 0 or y.std() == 0:
        return None
    return float(np.corrcoef(x, y)[0, 1])


# ---------------------------------------------------------------- repeats


def repeat_consistency(debates: Sequence[Judged], judge: str) -> dict[str, Any] | None:
    """A judge's flip rate across repeats (pairs of repeats that disagree) and the share
    of debates its winner was the same in every repeat."""
    runs = [d.repeats[judge] for d in debates if len(d.repeats.get(judge, ())) > 1]
    if not runs:
        return None
    pairs = [(a, b) for run in runs for a, b in combinations(run, 2)]
    stable = sum(len(set(run)) == 1 for run in runs)
    flips = wilson(sum(a != b for a, b in pairs), len(pairs))
    assert flips is not None
    return {"debates": len(runs), "k": max(len(run) for run in runs),
            "flip_rate": flips.value, "stable_share": stable / len(runs),
            # Flagged when repeats disagree at all: a consistent judge never flips.
            "flip_rate_interval": [flips.low, flips.high], "flagged": flips.low > 0}  # fmt: skip


# ---------------------------------------------------------------- biases


def position_bias(debates: Sequence[Judged], judge: str) -> Estimate | None:
    decided = [(d.verdicts[judge][0], d.opener) for d in debates
               if judge in d.verdicts and d.opener and d.verdicts[judge][0] != "tie"]  # fmt: skip
    return wilson(sum(w == o for w, o in decided), len(decided))


def side_bias(debates: Sequence[Judged], judge: str) -> Estimate | None:
    decided = [d.verdicts[judge][0] for d in debates
               if judge in d.verdicts and d.verdicts[judge][0] != "tie"]  # fmt: skip
    return wilson(sum(w == "pro" for w in decided), len(decided))


def length_bias(debates: Sequence[Judged], judge: str) -> Estimate | None:
    """The margin's slope on the standardised length share, with its t interval."""
    rows = [(d.verdicts[judge][1], length_share(d.words)) for d in debates
            if judge in d.verdicts and d.words and sum(d.words.values()) > 0]  # fmt: skip
    if len(rows) < 3:
        return None
    margin, share = (np.array([r[i] for r in rows], dtype=np.float64) for i in (0, 1))
    # Equal shares can have a rounding-error spread (0.2 three times has std 3e-17),
    # a slope over nothing: compare the values, not the spread.
    if share.max() == share.min():
        return None
    slope, stderr = _least_squares(share / share.std(), margin)
    half = t_quantile(len(rows) - 2) * stderr
    return Estimate(slope, slope - half, slope + half, len(rows), 0.0)


def _least_squares(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The slope of y on x and its standard error (n - 2 degrees of freedom)."""
    dx, dy = x - x.mean(), y - y.mean()
    spread = float((dx * dx).sum())
    slope = float((dx * dy).sum()) / spread
    residual = dy - slope * dx
    return slope, math.sqrt(float((residual * residual).sum()) / (len(x) - 2) / spread)


def length_share(words: dict[str, int]) -> float:
    return (words["pro"] - words["con"]) / (words["pro"] + words["con"])


def self_preference(debates: Sequence[Judged], judge: str) -> Estimate | None:
    """A judge's pick rate of its own family's side minus the other judges' rate."""
    own = family(judge)
    rows = []
    for d in debates:
        kin = [s for s in SIDES if family(d.models.get(s, "")) == own]
        others = [j for j in d.verdicts if j not in (judge, PANEL)]
        if judge not in d.verdicts or len(kin) != 1 or not others:
            continue
        mine = _pick(d.verdicts[judge][0], kin[0])
        rows.append((mine, float(np.mean([_pick(d.verdicts[j][0], kin[0]) for j in others]))))
    if not rows:
        return None
    diffs = np.array([a - b for a, b in rows])
    low, high = (float(bound) for bound in percentile(resampled_means(diffs, RESAMPLES, SEED)))
    value, low, high = share_difference(float(diffs.mean()), low, high)
    return Estimate(value, low, high, len(rows), 0.0)


def _pick(winner: str, side: str) -> float:
    return 0.5 if winner == "tie" else float(winner == side)


BIASES: dict[str, Callable[[Sequence[Judged], str], Estimate | None]] = {
    "position": position_bias,
    "side": side_bias,
    "length": length_bias,
    "self_preference": self_preference,
}


def diagnostics(debates: Sequence[Judged]) -> dict[str, Any]:
    """Every figure: per judge and for the panel, each bias (None: not measurable here)
    and the repeat consistency; the effective number of judges, both codings."""
    who = [*judges_of(debates), *([PANEL] if any(PANEL in d.verdicts for d in debates) else [])]
    per: dict[str, Any] = {}
    for judge in who:
        found = {name: rule(debates, judge) for name, rule in BIASES.items()}
        per[judge] = {name: e.as_dict() if e else None for name, e in found.items()}
        per[judge]["repeats"] = repeat_consistency(debates, judge)
    return {
        "effective_judges": {
            "all": effective_judges(debates, decisive=False),
            "decisive": effective_judges(debates, decisive=True),
        },
        "by_judge": per,
    }


def flagged(figures: dict[str, Any]) -> dict[str, list[str]]:
    """Per judge, the figures whose interval excludes no bias."""
    return {
        judge: [name for name, figure in found.items() if figure and figure["flagged"]]
        for judge, found in figures["by_judge"].items()
    }
