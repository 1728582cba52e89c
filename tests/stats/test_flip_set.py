"""The smallest set of debates whose removal reverses an order: the one-step influence
agrees with a refit, every set found is confirmed, and a firm order has none."""

from __future__ import annotations

import numpy as np
import pytest

from debatebench_eval.stats.bradley_terry import Games, fit
from debatebench_eval.stats.flip_set import flip_set, influence, per_debate, top_flip


def round_robin(strengths: list[float], motions: int, seed: int, side: float = 0.2) -> Games:
    rng = np.random.default_rng(seed)
    m = len(strengths)
    pro, con, motion = [], [], []
    for k in range(motions):
        for i in range(m):
            for j in range(m):
                if i != j:
                    pro.append(i), con.append(j), motion.append(k)  # type: ignore[func-returns-value]
    p, c = np.array(pro), np.array(con)
    s = np.array(strengths)
    y = (rng.random(len(p)) < 1 / (1 + np.exp(-(s[p] - s[c] + side)))).astype(np.float64)
    return Games(tuple(f"m{i}" for i in range(m)), tuple(f"q{k}" for k in range(motions)),
                 p, c, np.array(motion), y)  # fmt: skip


def gap_without(games: Games, dropped: list[int], a: int, b: int) -> float:
    weights = np.ones((1, len(games.y)))
    weights[0, dropped] = 0.0
    refit = fit(per_debate(games), weights)
    return float(refit.strengths[0, a] - refit.strengths[0, b])


def test_the_one_step_influence_matches_a_refit_without_the_debate() -> None:
    games = round_robin([-1.0, -0.3, 0.3, 1.0], 8, seed=1)
    full = fit(games)
    gap = float(full.strengths[0, 3] - full.strengths[0, 2])
    effect = influence(games, full, 3, 2)
    for d in (0, 17, int(np.argmin(effect)), int(np.argmax(effect))):
        assert gap_without(games, [d], 3, 2) - gap == pytest.approx(effect[d], rel=0.15, abs=2e-3)


def test_a_flip_set_is_confirmed_and_one_debate_fewer_in_its_order_is_not() -> None:
    games = round_robin([-1.0, -0.3, 0.25, 0.35], 8, seed=2)
    full = fit(games)
    ahead, behind = (3, 2) if full.strengths[0, 3] > full.strengths[0, 2] else (2, 3)
    found = flip_set(games, ahead, behind)
    assert found is not None and found.count >= 1
    assert found.gap > 0 >= found.gap_after
    assert gap_without(games, list(found.debates), ahead, behind) == pytest.approx(found.gap_after)
    order = np.argsort(influence(games, full, ahead, behind), kind="stable")
    assert set(order[: found.count].tolist()) == set(found.debates)
    assert gap_without(games, order[: found.count - 1].tolist(), ahead, behind) > 0


def test_a_firm_order_has_no_flip_set_within_a_tenth_of_the_debates() -> None:
    games = round_robin([-3.0, 0.0, 3.0], 10, seed=3)
    assert flip_set(games, 2, 1) is None
    assert top_flip(games) is None
    # Allowed half the debates, the same order does flip.
    assert flip_set(games, 2, 1, share=0.5) is not None


def test_the_top_flip_is_the_least_over_the_challengers() -> None:
    games = round_robin([-1.0, 0.0, 0.9, 1.0], 6, seed=4)
    full = fit(games)
    best = int(np.argmax(full.strengths[0]))
    found = top_flip(games, full)
    assert found is not None and found.ahead == best
    others = [flip_set(games, best, c, result=full) for c in range(4) if c != best]
    assert found.count == min(f.count for f in others if f is not None)


def test_an_order_already_reversed_needs_nothing_dropped() -> None:
    games = round_robin([-1.0, 0.0, 1.0], 6, seed=5)
    full = fit(games)
    weakest, strongest = int(np.argmin(full.strengths[0])), int(np.argmax(full.strengths[0]))
    found = flip_set(games, weakest, strongest)
    assert found is not None and found.count == 0
