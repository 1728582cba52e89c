"""Boards of models with known Bradley-Terry strengths, for the adaptive scheduler's
simulations: three schedules (round robin, uniform random pairs, adaptive) played
on the same outcomes, and what each ranking and interval makes of them.

A debate of pro i against con j on motion k: P(pro's result) = sigma(s_i - s_j + h
+ u_k), u_k ~ N(0, motion_sd^2) a motion-level side effect (a motion can favour one
side for every pair), and a tie with chance ties x 4 p (1 - p) (ties at even odds;
fewer between unequal models), taken evenly from the win and the loss so that
pro's expected result, ties as halves, is still p: the model the fit assumes.

Outcomes are common random numbers: a repetition draws, once, the uniform that
decides each (pro, con, motion), so every schedule that plays a debate gets the
same result for it, and schedules are compared on the same luck. Each repetition
also shuffles which name holds which strength, so no tie-break of names can
favour the truth.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit, ndtri
from scipy.stats import spearmanr

from debatebench_eval.stats.active import Played, next_matchups
from debatebench_eval.stats.bradley_terry import ELO_PER_LOGIT, Games, elo, fit

Array = NDArray[np.float64]
SIDE = 0.3  # logits: pro wins 57% between equals
TIES = 0.1  # ties at even odds
MOTION_SD = 0.3


@dataclass(frozen=True)
class Board:
    """True ratings (rating points; only their differences matter) and the game."""

    name: str
    ratings: tuple[float, ...]
    side: float = SIDE
    ties: float = TIES
    motion_sd: float = MOTION_SD

    @property
    def strengths(self) -> Array:
        s = np.array(self.ratings) / ELO_PER_LOGIT
        centred: Array = s - s.mean()
        return centred


def spread(models: int, centre: float = 1400.0, sd: float = 140.0) -> Board:
    """Ratings at the normal quantiles (i - 1/2)/n of a population with this centre and
    sd, as real leaderboards spread: the middle packed, the ends apart. 30 models span
    1,102-1,698 (#1 73 points above #2, 12 between neighbours in the middle); 12
    models 1,158-1,642 (#1 67 above #2, 24 in the middle)."""
    quantiles = ndtri((np.arange(models) + 0.5) / models)
    return Board(f"{models} models, normal spread (sd {sd:.0f})",
                 tuple(centre + sd * quantiles))  # fmt: skip


def spaced(models: int, low: float = 1100.0, high: float = 1700.0) -> Board:
    """Ratings evenly spaced from low to high."""
    return Board(f"{models} models, {low:.0f}-{high:.0f} evenly",
                 tuple(np.linspace(low, high, models)))  # fmt: skip


def packed() -> Board:
    """Shaped like the public debate leaderboard: 29 models from 1,100 to 1,710, the top
    ten within 100 points (1,610 to 1,710), the other 19 evenly from 1,100 to 1,590."""
    top = np.linspace(1610.0, 1710.0, 10)
    rest = np.linspace(1100.0, 1590.0, 19)
    return Board("29 models, 1100-1710, top ten within 100", tuple(np.concatenate([rest, top])))


class Draw:
    """One repetition of a board: names shuffled over strengths, and every debate's
    outcome fixed in advance."""

    def __init__(self, board: Board, motions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        m = len(board.ratings)
        self.board = board
        self.models = [f"m{i:02d}" for i in range(m)]
        # Model i holds strength strengths[perm[i]].
        self.strengths = board.strengths[rng.permutation(m)]
        self.motions = [f"q{k:03d}" for k in range(motions)]
        self.motion_effect = rng.normal(0.0, board.motion_sd, motions)
        self.uniform = rng.random((m, m, motions))

    @property
    def true_ratings(self) -> Array:
        ratings: Array = elo(self.strengths)
        return ratings

    def result(self, pro: int, con: int, motion: int) -> float:
        p = expit(self.strengths[pro] - self.strengths[con] + self.board.side
                  + self.motion_effect[motion])  # fmt: skip
        tie = self.board.ties * 4 * p * (1 - p)
        x = self.uniform[pro, con, motion]
        return 1.0 if x < p - tie / 2 else 0.5 if x < p + tie / 2 else 0.0

    def debate(self, pro: int, con: int, motion: int) -> Played:
        return Played(self.models[pro], self.models[con], self.motions[motion],
                      self.result(pro, con, motion))  # fmt: skip

    def matchup(self, a: int, b: int, motion: int) -> list[Played]:
        return [self.debate(a, b, motion), self.debate(b, a, motion)]


def round_robin(draw: Draw, debates: int, seed: int) -> list[Played]:
    """Every pair on the first motion, then every pair on the next, ..., each round's
    pairs in a shuffled order; the first `debates` debates."""
    rng = np.random.default_rng(seed)
    pairs = list(itertools.combinations(range(len(draw.models)), 2))
    out: list[Played] = []
    for k in range(len(draw.motions)):
        for n in rng.permutation(len(pairs)):
            out += draw.matchup(*pairs[n], k)
            if len(out) >= debates:
                return out[:debates]
    return out


def uniform_pairs(draw: Draw, debates: int, seed: int) -> list[Played]:
    """Each matchup a pair drawn uniformly from those with a motion left, on its least
    used motion (the adaptive scheduler's motion rule)."""
    rng = np.random.default_rng(seed)
    m, k = len(draw.models), len(draw.motions)
    done = np.zeros((m, m, k), dtype=bool)
    use = np.zeros(k)
    pairs = list(itertools.combinations(range(m), 2))
    out: list[Played] = []
    while len(out) < debates:
        open_pairs = [p for p in pairs if not done[p[0], p[1]].all()]
        if not open_pairs:
            break
        a, b = open_pairs[int(rng.integers(len(open_pairs)))]
        free = np.flatnonzero(~done[a, b])
        motion = int(free[np.argmin(use[free])])
        done[a, b, motion] = True
        use[motion] += 1
        out += draw.matchup(a, b, motion)
    return out[:debates]


def adaptive(
    draw: Draw,
    debates: int,
    seed: int,
    round_size: int = 10,
    start: list[Played] | None = None,
    target_width: float | None = None,
) -> list[Played]:
    """`next_matchups` in rounds of `round_size` matchups, each round judged before
    the next is planned, after the debates `start` (which are returned too)."""
    out = list(start or [])
    index = {name: i for i, name in enumerate(draw.models)}
    at = {name: k for k, name in enumerate(draw.motions)}
    while len(out) < debates:
        size = min(round_size, (debates - len(out) + 1) // 2)
        picks = next_matchups(draw.models, draw.motions, out, size, seed, target_width=target_width)
        if not picks:
            break
        for pick in picks:
            out += draw.matchup(index[pick.a], index[pick.b], at[pick.motion])
    return out[:debates]


def games(draw: Draw, played: list[Played]) -> Games:
    """The debates as the fit takes them, over every model of the board."""
    index = {name: i for i, name in enumerate(draw.models)}
    at = {name: k for k, name in enumerate(draw.motions)}
    motions = sorted({at[d.motion] for d in played})
    where = {k: i for i, k in enumerate(motions)}
    return Games(
        tuple(draw.models),
        tuple(draw.motions[k] for k in motions),
        np.array([index[d.pro] for d in played], dtype=np.int64),
        np.array([index[d.con] for d in played], dtype=np.int64),
        np.array([where[at[d.motion]] for d in played], dtype=np.int64),
        np.array([d.result for d in played], dtype=np.float64),
    )


@dataclass(frozen=True)
class Ranking:
    """How close a fitted ranking is to the truth."""

    spearman: float
    top: bool  # the true top model is the fitted top


def ranking(draw: Draw, played: list[Played]) -> Ranking:
    estimate = fit(games(draw, played)).strengths[0]
    rho = float(spearmanr(estimate, draw.strengths).statistic)
    return Ranking(rho, int(np.argmax(estimate)) == int(np.argmax(draw.strengths)))
