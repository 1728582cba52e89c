"""The adaptive scheduler's rules, each on a small hand-made board."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from debatebench_eval.stats import active
from debatebench_eval.stats.active import Matchup, Played, matchup_gains, next_matchups

MOTIONS = [f"q{k}" for k in range(12)]


def matchup(a: str, b: str, motion: str, a_as_pro: float, a_as_con: float) -> list[Played]:
    """Both debates of a matchup: a's result as pro, then as con."""
    return [Played(a, b, motion, a_as_pro), Played(b, a, motion, 1.0 - a_as_con)]


def ordered_board(models: list[str], motions: int, seed: int = 0) -> list[Played]:
    """Every pair on the first `motions` motions, drawn from strengths falling in
    the order given (1.5 to -1.5 logits) with a pro advantage of 0.3."""
    rng = np.random.default_rng(seed)
    s = np.linspace(1.5, -1.5, len(models))
    played = []
    for k, (i, j) in itertools.product(
        range(motions), itertools.combinations(range(len(models)), 2)
    ):
        for pro, con in ((i, j), (j, i)):
            p = 1 / (1 + np.exp(-(s[pro] - s[con] + 0.3)))
            played.append(Played(models[pro], models[con], MOTIONS[k], float(rng.random() < p)))
    return played


def near_tie_and_settled() -> list[Played]:
    """A and B split every matchup (each wins as pro); every other pair is settled,
    the higher of A, B > C > D winning all six debates."""
    played = []
    for motion in MOTIONS[:3]:
        played += matchup("A", "B", motion, 1.0, 0.0)
        for a, b in [("A", "C"), ("A", "D"), ("B", "C"), ("B", "D"), ("C", "D")]:
            played += matchup(a, b, motion, 1.0, 1.0)
    return played


def test_the_near_tie_is_picked_over_the_settled_pairs() -> None:
    # 18 matchups played: not a multiple of four less one, so the pick is not an
    # exploration pick (module docstring), whatever the seed.
    played = near_tie_and_settled()
    for seed in range(5):
        assert next_matchups(["A", "B", "C", "D"], MOTIONS, played, 1, seed) == [
            Matchup("q3", "A", "B")
        ]


def test_a_near_tie_gains_more_than_a_settled_pair() -> None:
    mean = np.array([1.0, 1.0, 0.0, -3.0])
    cov = np.eye(4) * 0.1
    near_tie, settled = matchup_gains(mean, 0.3, cov, [(0, 1), (2, 3)])
    assert near_tie > 0.5 and abs(settled) < 1e-9


def test_the_first_matchups_are_uniform_random_matchings() -> None:
    models = [f"m{i}" for i in range(6)]
    seen: Counter[tuple[str, str]] = Counter()
    for seed in range(300):
        picks = next_matchups(models, MOTIONS, [], 3, seed)
        # Three pairs cover the six models: a matching, each model once.
        assert sorted(m for p in picks for m in (p.a, p.b)) == models
        seen.update((p.a, p.b) for p in picks)
    assert len(seen) == 15
    # 900 picks over 15 pairs: 60 each on average, all within a few sd (sd about 7.5).
    assert min(seen.values()) > 35 and max(seen.values()) < 85


def test_the_same_inputs_and_seed_give_the_same_matchups() -> None:
    models = [f"m{i}" for i in range(6)]
    played = ordered_board(models, 2)
    first = next_matchups(models, MOTIONS, played, 8, seed=7)
    assert next_matchups(models, MOTIONS, played, 8, seed=7) == first
    assert next_matchups(models, MOTIONS, [], 8, seed=7) == next_matchups(models, MOTIONS, [], 8, 7)
    others = {tuple(next_matchups(models, MOTIONS, [], 8, seed=s)) for s in range(5)}
    assert len(others) > 1  # the seed matters


def test_motions_are_balanced_least_used_first() -> None:
    models = [f"m{i}" for i in range(5)]
    played = ordered_board(models, 2)  # q0 and q1 used by every pair
    picks = next_matchups(models, MOTIONS, played, 20, seed=1)
    use = Counter(p.motion for p in picks)
    assert "q0" not in use and "q1" not in use
    assert max(use.values()) - min(use.values()) <= 1
    assert set(use) == set(MOTIONS[2:])


def test_a_pair_never_debates_a_motion_twice() -> None:
    models = ["A", "B", "C"]
    motions = ["q0", "q1", "q2"]
    played = [*matchup("A", "B", "q0", 1.0, 0.0), Played("A", "C", "q1", None)]
    picks = next_matchups(models, motions, played, 20, seed=0)
    # Nine (pair, motion) slots, two already taken: seven come back, none repeated.
    assert len(picks) == 7
    keys = {(p.a, p.b, p.motion) for p in picks}
    assert len(keys) == 7
    assert ("A", "B", "q0") not in keys and ("A", "C", "q1") not in keys


def test_a_scheduled_debate_counts_for_balance_not_as_an_outcome() -> None:
    models = ["A", "B", "C", "D"]
    judged = near_tie_and_settled()
    scheduled = [Played("A", "B", m, None) for m in MOTIONS[3:6]]
    picks = next_matchups(models, MOTIONS, judged + scheduled, 2, seed=0)
    assert all(p.motion not in MOTIONS[:6] or (p.a, p.b) != ("A", "B") for p in picks)
    # Outcomes only: with three A-B matchups on their way, A-B is worth less.
    gains_before = _first_gain(models, judged, ("A", "B"))
    gains_after = _first_gain(models, judged + scheduled, ("A", "B"))
    assert gains_after < gains_before


def _first_gain(models: list[str], played: list[Played], pair: tuple[str, str]) -> float:
    """The gain of `pair` as the scheduler sees it with these debates."""
    plan = active._Plan(models, MOTIONS, played, 0)
    judged = [d for d in played if d.result is not None]
    post = active.board_posterior(active._games(models, judged))
    cov = active._with_pending(post.mean, post.side, post.covariance, models, played)
    i, j = models.index(pair[0]), models.index(pair[1])
    assert plan.left[i, j] > 0
    return float(matchup_gains(post.mean, post.side, cov, [(i, j)])[0])


def test_a_new_model_is_placed_by_a_binary_search() -> None:
    models = [f"m{i}" for i in range(8)]  # m0 the strongest
    played = ordered_board(models, 6)
    board = [*models, "new"]
    first = next_matchups(board, MOTIONS, played, 1, seed=0)[0]
    assert "new" in (first.a, first.b)
    opponent = first.a if first.b == "new" else first.b
    assert opponent in ("m3", "m4")  # the middle of the board
    won = played + matchup("new", opponent, first.motion, 1.0, 1.0)
    lost = played + matchup("new", opponent, first.motion, 0.0, 0.0)
    up = next_matchups(board, MOTIONS, won, 1, seed=0)[0]
    down = next_matchups(board, MOTIONS, lost, 1, seed=0)[0]
    assert "new" in (up.a, up.b) and "new" in (down.a, down.b)
    above = {f"m{i}" for i in range(models.index(opponent))}
    below = {f"m{i}" for i in range(models.index(opponent) + 1, 8)}
    assert {up.a, up.b} - {"new"} <= above
    assert {down.a, down.b} - {"new"} <= below


def test_one_matchup_in_four_is_an_exploration_pick() -> None:
    models = [f"m{i}" for i in range(6)]
    plan = active._Plan(models, MOTIONS, ordered_board(models, 2), 0)  # 30 matchups
    assert plan.explorations(1) == 0 and plan.explorations(2) == 1
    assert plan.explorations(10) == (30 + 10) // 4 - 30 // 4


def test_debates_of_models_not_listed_inform_the_fit_and_are_never_scheduled() -> None:
    played = near_tie_and_settled()
    picks = next_matchups(["A", "B", "C"], MOTIONS, played, 6, seed=0)
    assert all("D" not in (p.a, p.b) for p in picks)


@pytest.mark.parametrize(
    ("models", "played", "message"),
    [
        (["A", "A"], [], "model listed twice: A"),
        (["A", "B"], [Played("A", "A", "q0", 1.0)], "against itself"),
        (["A", "B"], [Played("A", "B", "q0", 2.0)], "outside"),
    ],
)
def test_bad_input_is_refused(models: list[str], played: list[Played], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        next_matchups(models, MOTIONS, played, 1, 0)


def test_a_motion_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="motion listed twice: q0"):
        next_matchups(["A", "B"], ["q0", "q0"], [], 1, 0)


def test_placing_a_model_schedules_only_its_pairs() -> None:
    models = [f"m{i}" for i in range(8)]
    played = ordered_board(models, 6)
    picks = next_matchups([*models, "new"], MOTIONS, played, 8, seed=0, placing=["new"])
    assert len(picks) == 8 and all("new" in (p.a, p.b) for p in picks)
    with pytest.raises(ValueError, match="not among the models: old"):
        next_matchups(models, MOTIONS, played, 1, 0, placing=["old"])
