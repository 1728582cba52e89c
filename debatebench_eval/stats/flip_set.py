"""The smallest set of debates whose removal reverses two models' order.

After Huang et al. (ICLR 2026, arXiv 2508.11847), who found that dropping a tiny
share of Chatbot Arena's votes changes its #1: an approximate influence method
ranks the debates, and a refit confirms the set.

At the Bradley-Terry fit theta (strengths and the side advantage), debate d
adds g_d = (y_d - p_d) x_d to the gradient of the log-likelihood. The gradient
of all debates is zero at the optimum, so without d it is -g_d, and one Newton
step from theta moves the fit by -H^-1 g_d, H the observed information. The
gap between models a and b (s_a - s_b, c'theta) therefore moves by about
-c'H^-1 g_d. The debates whose removal shrinks the gap most are ranked first,
and the shortest prefix of that ranking whose removal the one-step
approximation says closes the gap is where the search starts. Prefixes are
refitted without their debates (batched Newton steps): those of 1, 2, 4, ...
debates up to the limit, then every length between the last that held and the
first that reversed; the answer is the shortest prefix so found whose refit
reverses (or levels) the order. The refitted gap shrinks as the prefix grows
(each debate added is one that narrows it), so the doubling skips no shorter
answer in practice; it is not proven to. So every set reported is confirmed by an exact
refit; the ranking is approximate, so a smaller set may exist (the count is an
upper bound on the smallest), as in the paper.

A set is found only up to `share` of the debates (10% by default): beyond it
the order is called robust, and the search returns None.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from debatebench_eval.stats.bradley_terry import Fit, Games, fit, information

Array = NDArray[np.float64]
MOST_SHARE = 0.10


@dataclass(frozen=True)
class FlipSet:
    """The debates (indices into the games) whose removal puts `behind` above
    `ahead`, and the gap in logits before and after the refit without them."""

    ahead: int
    behind: int
    debates: tuple[int, ...]
    gap: float
    gap_after: float

    @property
    def count(self) -> int:
        return len(self.debates)


def per_debate(games: Games) -> Games:
    """The same games with each debate its own cluster, so a row of weights can
    leave out single debates."""
    n = len(games.y)
    return replace(games, motions=tuple(str(i) for i in range(n)), motion=np.arange(n))


def influence(games: Games, result: Fit, ahead: int, behind: int) -> Array:
    """Each debate's one-step effect on the gap s_ahead - s_behind when it is left
    out (negative: leaving it out narrows the gap)."""
    m = len(games.models)
    theta = np.append(result.strengths[0], result.side[0])
    x = np.zeros((len(games.y), m + 1))
    rows = np.arange(len(games.y))
    x[rows, games.pro] += 1.0
    x[rows, games.con] -= 1.0
    x[:, m] = 1.0
    p = 1.0 / (1.0 + np.exp(-(x @ theta)))
    c = np.zeros(m + 1)
    c[ahead], c[behind] = 1.0, -1.0
    direction = np.linalg.solve(information(games, result), c)
    effect: Array = -((games.y - p) * (x @ direction))
    return effect


def flip_set(
    games: Games, ahead: int, behind: int, *, result: Fit | None = None, share: float = MOST_SHARE
) -> FlipSet | None:
    """The smallest confirmed set of debates whose removal puts `behind` at or above
    `ahead` (module docstring); None when none of at most `share` of them does."""
    result = result or fit(games)
    gap = float(result.strengths[0, ahead] - result.strengths[0, behind])
    if gap <= 0:  # already level or reversed (an order from other ratings): nothing to drop
        return FlipSet(ahead, behind, (), gap, gap)
    most = math.floor(share * len(games.y))
    if most < 1:
        return None
    order = np.argsort(influence(games, result, ahead, behind), kind="stable")[:most]
    single = per_debate(games)
    # Doubling counts first (1, 2, 4, ... and the limit), then every count between the
    # last that held and the first that reversed: a few batches of refits, not one per count.
    coarse = sorted({*(2**i for i in range(most.bit_length())), most})
    gaps = _gaps_without(single, result, order, coarse, ahead, behind)
    reversed_at = [k for k, g in zip(coarse, gaps, strict=True) if g <= 0]
    if not reversed_at:
        return None
    high = reversed_at[0]
    low = max([k for k in coarse if k < high], default=0)
    between = list(range(low + 1, high + 1))
    fine = _gaps_without(single, result, order, between, ahead, behind)
    k, after = next((k, g) for k, g in zip(between, fine, strict=True) if g <= 0)
    return FlipSet(ahead, behind, tuple(sorted(int(i) for i in order[:k])), gap, float(after))


def _gaps_without(
    single: Games, result: Fit, order: NDArray[np.int64], counts: list[int], ahead: int,
    behind: int,
) -> Array:  # fmt: skip
    """The gap refitted without the first k debates of `order`, for each k of `counts`."""
    weights = np.ones((len(counts), len(single.y)))
    for row, k in enumerate(counts):
        weights[row, order[:k]] = 0.0
    refits = fit(single, weights, start=result)
    gaps: Array = refits.strengths[:, ahead] - refits.strengths[:, behind]
    return gaps


def top_flip(
    games: Games,
    result: Fit | None = None,
    *,
    share: float = MOST_SHARE,
    challengers: int = 5,
    known: dict[tuple[int, int], FlipSet | None] | None = None,
) -> FlipSet | None:
    """The smallest confirmed set whose removal changes the #1 model: the least of
    the sets that put each of the `challengers` nearest models above it (the
    one-step estimate orders them; a far model's set is longer than a near
    one's in practice, and each refit costs a batch of fits). `known` holds sets
    already found, by (ahead, behind)."""
    result = result or fit(games)
    strengths = result.strengths[0]
    ranked = np.argsort(-strengths, kind="stable")
    best = int(ranked[0])
    known = known or {}
    found = [known[(best, int(c))] if (best, int(c)) in known
             else flip_set(games, best, int(c), result=result, share=share)
             for c in ranked[1 : 1 + challengers]]  # fmt: skip
    sets = [f for f in found if f is not None]
    return min(sets, key=lambda f: (f.count, -f.gap_after)) if sets else None
