"""The adaptive scheduler: which side-swapped matchups to debate next.

A leaderboard is a ranking, so a debate is worth what it does to the ranking.
The scheduler fits the outcomes so far (`bradley_terry.fit`: Bradley-Terry with
a side advantage, ties as half wins) and reads the fit as a Gaussian posterior
(`design.posterior`: the Laplace approximation under a prior fitted to the
board's spread). Its loss is the expected number of misordered pairs, Kendall's
distance to the true order, with the pairs at the top weighted up: for models
k and l, whose strength difference is N(d, v) under the posterior, the chance
their order is wrong is Phi(-|d| / sqrt(v)). A matchup (a, b), two debates with
the sides exchanged, adds information w = p(1 - p) + p'(1 - p') along e_a - e_b
(p and p' its two debates' fitted win chances); before it is played, the
posterior mean it will move the difference to is N(d, r), r the variance it
removes, and the chance the ranking is still wrong about (k, l) afterwards is
the chance that new mean and the truth disagree in sign,
2 T(|d| / sqrt(v), sqrt(v - r) / sqrt(r)) (Owen's T: the bivariate normal's
orthant in closed form). Each pick is the matchup that most lowers the loss:
one step of the knowledge-gradient policy (Frazier, Powell and Dayanik) for a
ranking loss. It favours what a tournament should look at without being told:
near-ties (a pair with d near zero loses the most), models whose rating is
least certain (a large v, in every pair they are in), and opponents near a
model's estimate (the largest w, and the pairs that decide its place); a
settled pair (|d| many times sqrt(v)) is worth nothing. Chatbot Arena's active
sampling (variance reduction) and Swiss pairing (neighbours in the current
order) are the two halves of this one criterion. The weight of a pair,
1 + TOP_WEIGHT (1/rank_k + 1/rank_l), adds Vigna's hyperbolically weighted
Kendall distance: the order at the top is what a leaderboard is read for.

Unlike plain uncertainty sampling, which on a packed board spends every debate
on near-ties no budget resolves (one such rule ranked worse than random pairs
at 400 debates there), the knowledge gradient values a debate by what it can
change. Two guards keep it at least as good as random pairs on the whole
order:

- One matchup in EXPLORE_EVERY of the tournament (those played or scheduled
  included) is drawn uniformly from the open pairs, as the last picks of a
  batch: no pair starves, and an order the early outcomes got wrong is
  revisited. The first pick of a call is therefore the criterion's, unless a
  single pick is asked for when the tournament's matchup count is one short
  of a multiple of EXPLORE_EVERY.
- The prior is the board's own spread, not the leaderboard's near-flat ridge,
  under which a model with few debates would be uncertain by +-30 logits and
  draw every pick. A new model's first opponent is the middle of the board,
  then the model nearest its new estimate: a binary search, with the step
  each outcome justifies.

Batches: after each pick the covariance is updated as if the matchup had been
played (its expected information, the means held), so one batch spreads over
the board (with the lazy greedy of `_Picker`, the greedy pick at a fraction of
the cost); debates scheduled but not yet judged (`Played.result` None) count
the same way and block their pair and motion. With no outcome yet the
scheduler pairs uniformly, each pick among the models with the fewest
matchups (random matchings, as Swiss pairing's first round). Motions: a pair
never debates a motion twice, and takes the least-used motion it has not
debated (the first listed among equals). Randomness (exploration, ties) comes
from a generator seeded by the seed and the number of debates played, so the
same inputs and seed give the same matchups.

With a `target_width` (an adaptive tournament that stops when every interval
is at most W wide), every other matchup of the tournament, while some
interval is wider, is the one that most lowers the summed excess of the
ratings' sd over the target's (A-optimal design restricted to the models
still too wide): the ranking criterion alone spends little on models whose
place is already clear, and their intervals then stay wide.

Measured on simulated boards (tests/benchmarks/benchmark_adaptive.py, the
benchmarks page): the ranking is ahead of round robin's and of random pairs'
from one round of round robin on, and level with them (within the
simulation's noise) before. Spearman 0.95 with the true #1, kept, on 80% of
boards: 1,160 debates against round robin's 3,915 on 30 models (0.30), 495
against 627 on 12 (0.79); on half the boards 0.70 and 0.82 of round robin's.

The ratings a leaderboard prints come from the project's fit with its own
small ridge; the prior here only decides where to look.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit, ndtr, ndtri, owens_t  # type: ignore[import-untyped]

from debatebench_eval.stats.bradley_terry import ELO_PER_LOGIT, RIDGE, Array, Games, fit
from debatebench_eval.stats.design import covariance
from debatebench_eval.stats.design import posterior as board_posterior
from debatebench_eval.stats.intervals import LEVEL, tails

# One matchup in four uniform over the open pairs: the floor that keeps the
# scheduler at or above random pairs (tests/stats/test_adaptive_simulation.py).
EXPLORE_EVERY = 4
# The loss weighs each pair 1 + TOP_WEIGHT (1/rank_k + 1/rank_l): Kendall's distance
# plus its hyperbolically top-weighted form (Vigna's weighted tau), so the order at
# the top, what a leaderboard is read for, weighs more (when it was chosen: the true
# #1 of 30 models found on 97% of 30 boards at 1,305 debates, against 73% without).
TOP_WEIGHT = 4.0
# Pairs whose order is wrong with less than this chance are left out of the loss.
SETTLED = 1e-6


@dataclass(frozen=True)
class Played:
    """One debate: pro's result (1 win, 0.5 tie, 0 loss), or None while it is
    scheduled and not yet judged (it then counts for motion balance and as
    information to come, never as an outcome)."""

    pro: str
    con: str
    motion: str
    result: float | None


@dataclass(frozen=True)
class Matchup:
    """A side-swapped pair: a and b debate `motion` twice, each as pro once (a < b)."""

    motion: str
    a: str
    b: str


def next_matchups(
    models: Sequence[str],
    motions: Sequence[str],
    played: Sequence[Played],
    count: int,
    seed: int,
    *,
    placing: Sequence[str] = (),
    target_width: float | None = None,
) -> list[Matchup]:
    """The next `count` matchups (each two debates, the sides exchanged) among
    `models` on `motions`, given the debates `played` so far (module docstring).

    `placing`: models to place in an existing board; only pairs with one of them
    are scheduled (the exploration picks too, uniform over those pairs), so
    adding a model runs only the debates its placement needs.

    `target_width` (rating points): while some model's interval is wider, every
    other matchup of the tournament (not counting exploration picks) is the one
    that most narrows the intervals still too wide (module docstring).

    Fewer than `count` come back only when no pair has a motion left to debate.
    Debates of models not in `models` still inform the fit; those models are
    never scheduled. Raises ValueError on a model or motion listed twice, a
    model to place that is not in `models`, a debate of a model against itself,
    or a result outside [0, 1].
    """
    plan = _Plan(models, motions, played, seed, placing)
    judged = [d for d in played if d.result is not None]
    if not judged:
        return [plan.take(*plan.uniform_start()) for _ in range(count) if plan.open_pairs()]
    rated = plan.rated_models()
    games = _games(rated, judged)
    posterior = board_posterior(games)
    index = [rated.index(m) for m in plan.models]
    state = _Picker(posterior.mean[index], posterior.side,
                    _with_pending(posterior.mean, posterior.side, posterior.covariance, rated,
                                  played)[np.ix_(index, index)])  # fmt: skip
    widths = None
    if target_width is not None:
        flat = _with_pending(posterior.mean, posterior.side,
                             covariance(games, fit(games), RIDGE), rated, played)  # fmt: skip
        limit = target_width / (2 * float(ndtri(tails(LEVEL)[1])) * ELO_PER_LOGIT)
        widths = _Widths(posterior.mean[index], posterior.side, flat[np.ix_(index, index)], limit)
    explore = plan.explorations(count)
    done = int(plan.matchups.sum()) // 2
    picks = []
    for n in range(count):
        pairs = plan.open_pairs()
        if not pairs:
            break
        if n >= count - explore:
            pair = pairs[int(plan.rng.integers(len(pairs)))]
        elif widths is not None and (done + n) % 2 == 1 and widths.wide():
            pair = widths.best(pairs)
        else:
            pair = state.best(pairs, plan.rng)
        state.add(*pair)
        if widths is not None:
            widths.add(*pair)
        picks.append(plan.take(*pair))
    return picks


class _Plan:
    """What is open: the pairs, the motions each has not debated, motion use."""

    def __init__(
        self,
        models: Sequence[str],
        motions: Sequence[str],
        played: Sequence[Played],
        seed: int,
        placing: Sequence[str] = (),
    ) -> None:
        for kind, names in (("model", models), ("motion", motions)):
            twice = sorted({n for n in names if list(names).count(n) > 1})
            if twice:
                raise ValueError(f"{kind} listed twice: {', '.join(twice)}")
        unknown = sorted(set(placing) - set(models))
        if unknown:
            raise ValueError(f"a model to place is not among the models: {', '.join(unknown)}")
        self.models, self.motions, self.played = list(models), list(motions), played
        m, k = len(self.models), len(self.motions)
        where = {name: i for i, name in enumerate(self.models)}
        self.at = {name: i for i, name in enumerate(self.motions)}
        self.use = np.zeros(k, dtype=np.int64)  # matchups per motion
        self.matchups = np.zeros(m, dtype=np.int64)  # per model
        self.used = np.zeros((m, m, k), dtype=bool)  # (i < j) debated motion k
        self.left = np.full((m, m), k, dtype=np.int64)  # motions each pair has left
        focus = {where[name] for name in placing}
        self.pairs = [
            (i, j)
            for i, j in itertools.combinations(range(m), 2)
            if not focus or i in focus or j in focus
        ]
        others: set[tuple[int, int, str]] = set()
        for d in played:
            if d.pro == d.con:
                raise ValueError(f"a debate of {d.pro} against itself on {d.motion}")
            if d.result is not None and not 0.0 <= d.result <= 1.0:
                raise ValueError(f"pro's result {d.result} is outside [0, 1] ({d.motion})")
            if d.pro in where and d.con in where:
                i, j = sorted((where[d.pro], where[d.con]))
                if d.motion in self.at:
                    self._mark(i, j, self.at[d.motion])
                elif (i, j, d.motion) not in others:  # a motion no longer listed
                    others.add((i, j, d.motion))
                    self.matchups[[i, j]] += 1
        self.rng = np.random.default_rng([seed, len(played)])

    def _mark(self, i: int, j: int, k: int) -> None:
        if not self.used[i, j, k]:
            self.used[i, j, k] = True
            self.left[i, j] -= 1
            self.matchups[[i, j]] += 1
            self.use[k] += 1

    def explorations(self, count: int) -> int:
        """How many of the next `count` picks are uniform: as many as make one in
        EXPLORE_EVERY of the tournament's matchups (those played or scheduled
        included) uniform, the batch's last picks."""
        n = int(self.matchups.sum()) // 2
        return (n + count) // EXPLORE_EVERY - n // EXPLORE_EVERY

    def rated_models(self) -> list[str]:
        seen = {m for d in self.played if d.result is not None for m in (d.pro, d.con)}
        return self.models + sorted(seen - set(self.models))

    def open_pairs(self) -> list[tuple[int, int]]:
        return [(i, j) for i, j in self.pairs if self.left[i, j] > 0]

    def uniform_start(self) -> tuple[int, int]:
        """A uniform pick among the open pairs of the models with the fewest matchups."""
        pairs = self.open_pairs()
        load = np.array([self.matchups[i] + self.matchups[j] for i, j in pairs])
        fewest = [p for p, n in zip(pairs, load, strict=True) if n == load.min()]
        return fewest[int(self.rng.integers(len(fewest)))]

    def take(self, i: int, j: int) -> Matchup:
        """The pair's least-used motion it has not debated (the first listed among
        equals), marked as used."""
        free = np.flatnonzero(~self.used[i, j])
        k = int(free[np.argmin(self.use[free])])
        self._mark(i, j, k)
        a, b = sorted((self.models[i], self.models[j]))
        return Matchup(self.motions[k], a, b)


class _Picker:
    """The knowledge-gradient choice over a posterior updated pick by pick.

    Lazy greedy: a pick lowers the other matchups' gains (information has
    diminishing returns), so the gains computed before it bound them from above.
    Each pick recomputes the best bounds, a block at a time, until a recomputed
    gain beats every bound left: the greedy pick, at a fraction of the cost."""

    BLOCK = 8

    def __init__(self, mean: Array, side: float, covariance: Array) -> None:
        self.mean, self.side, self.cov = mean, side, covariance.copy()
        self.bound: dict[tuple[int, int], float] = {}

    def best(self, pairs: list[tuple[int, int]], rng: np.random.Generator) -> tuple[int, int]:
        order = [pairs[int(n)] for n in rng.permutation(len(pairs))]
        if not self.bound:
            gains = matchup_gains(self.mean, self.side, self.cov, order)
            self.bound = dict(zip(order, gains.tolist(), strict=True))
            return order[int(np.argmax(gains))]
        bounds = np.array([self.bound[p] for p in order])
        queue = [order[int(n)] for n in np.argsort(-bounds, kind="stable")]
        fresh: dict[tuple[int, int], float] = {}
        while True:
            block, queue = queue[: self.BLOCK], queue[self.BLOCK :]
            gains = matchup_gains(self.mean, self.side, self.cov, block)
            fresh.update(zip(block, gains.tolist(), strict=True))
            self.bound.update(fresh)
            pick = max(fresh, key=lambda p: fresh[p])
            if not queue or fresh[pick] >= self.bound[queue[0]]:
                return pick

    def add(self, i: int, j: int) -> None:
        w = matchup_information(self.mean, self.side, np.array([i]), np.array([j]))[0]
        _update(self.cov, i, j, float(w))


class _Widths:
    """The width target's picks: the matchup that most lowers the summed excess of
    the ratings' sd (relative to the mean of all models) over the target's, under
    the fit's own (flat-prior) covariance, which the printed interval is at least
    about as wide as."""

    def __init__(self, mean: Array, side: float, covariance: Array, limit: float) -> None:
        self.mean, self.side, self.cov, self.limit = mean, side, covariance.copy(), limit

    def _sd(self, cov: Array) -> Array:
        m = len(cov)
        centring = np.eye(m) - 1.0 / m
        sd: Array = np.sqrt(np.maximum(np.diag(centring @ cov @ centring), 0.0))
        return sd

    def wide(self) -> bool:
        return bool(np.any(self._sd(self.cov) > self.limit))

    def best(self, pairs: list[tuple[int, int]]) -> tuple[int, int]:
        a = np.array([p[0] for p in pairs])
        b = np.array([p[1] for p in pairs])
        w = matchup_information(self.mean, self.side, a, b)
        u = self.cov[:, a] - self.cov[:, b]  # (models x candidates)
        q = u[a, np.arange(len(a))] - u[b, np.arange(len(b))]
        centred = u - u.mean(axis=0, keepdims=True)  # c_i' u, c_i = e_i - 1/m
        sd = self._sd(self.cov)
        after = np.sqrt(np.maximum(sd[:, None] ** 2 - w * centred**2 / (1 + w * q), 0.0))
        excess = np.maximum(sd - self.limit, 0.0)[:, None] - np.maximum(after - self.limit, 0.0)
        return pairs[int(np.argmax(excess.sum(axis=0)))]

    def add(self, i: int, j: int) -> None:
        w = matchup_information(self.mean, self.side, np.array([i]), np.array([j]))[0]
        _update(self.cov, i, j, float(w))


def matchup_information(
    mean: Array, side: float, a: NDArray[np.int64], b: NDArray[np.int64]
) -> Array:
    """The Fisher information of a matchup of a and b (both sides) along e_a - e_b."""
    p = expit(mean[a] - mean[b] + side)
    q = expit(mean[b] - mean[a] + side)
    info: Array = p * (1 - p) + q * (1 - q)
    return info


def matchup_gains(
    mean: Array, side: float, covariance: Array, pairs: Sequence[tuple[int, int]]
) -> Array:
    """For each candidate pair, how much its matchup lowers the expected number of
    misordered pairs of models (module docstring)."""
    m = len(mean)
    k, j = np.triu_indices(m, 1)
    d = np.abs(mean[k] - mean[j])
    v = covariance[k, k] + covariance[j, j] - 2 * covariance[k, j]
    sd = np.sqrt(np.maximum(v, 1e-300))
    rank = np.empty(m)
    rank[np.argsort(-mean, kind="stable")] = np.arange(1, m + 1)
    weight = 1.0 + TOP_WEIGHT * (1.0 / rank[k] + 1.0 / rank[j])
    before = ndtr(-d / sd)
    live = before > SETTLED
    k, j, d, v, sd, before = k[live], j[live], d[live], v[live], sd[live], before[live]
    weight = weight[live]
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    w = matchup_information(mean, side, a, b)
    u = covariance[:, a] - covariance[:, b]  # (models x candidates)
    q = u[a, np.arange(len(a))] - u[b, np.arange(len(b))]
    gains = np.empty(len(pairs))
    # Candidates in blocks: each block's (candidates x pairs) arrays stay small.
    step = max(1, 200_000 // max(len(k), 1))
    for start in range(0, len(pairs), step):
        c = slice(start, start + step)
        r = (w[c] / (1 + w[c] * q[c]))[:, None] * (u[k, c].T - u[j, c].T) ** 2
        r = np.clip(r, 1e-300, v * (1 - 1e-12))
        after = 2 * owens_t(d / sd, np.sqrt((v - r) / r))
        gains[c] = (before - after) @ weight
    return gains


def _with_pending(
    mean: Array, side: float, cov: Array, models: list[str], played: Sequence[Played]
) -> Array:
    """The covariance with the expected information of debates not yet judged."""
    cov = cov.copy()
    where = {m: i for i, m in enumerate(models)}
    for d in played:
        if d.result is None and d.pro in where and d.con in where:
            i, j = where[d.pro], where[d.con]
            p = expit(mean[i] - mean[j] + side)
            _update(cov, i, j, p * (1 - p))
    return cov


def _update(cov: Array, i: int, j: int, w: float) -> None:
    """In place: the covariance after information w along e_i - e_j (Sherman-Morrison)."""
    u = cov[:, i] - cov[:, j]
    cov -= w * np.outer(u, u) / (1.0 + w * (u[i] - u[j]))


def _games(models: list[str], judged: Sequence[Played]) -> Games:
    where = {m: i for i, m in enumerate(models)}
    motions = sorted({d.motion for d in judged})
    at = {m: i for i, m in enumerate(motions)}
    return Games(
        tuple(models),
        tuple(motions),
        np.array([where[d.pro] for d in judged], dtype=np.int64),
        np.array([where[d.con] for d in judged], dtype=np.int64),
        np.array([at[d.motion] for d in judged], dtype=np.int64),
        np.array([d.result for d in judged], dtype=np.float64),
    )
