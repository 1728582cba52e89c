"""Cycles of clear head-to-head wins: a planted three-cycle is found with its edges;
a transitive or a noisy table has none; a cycle of four with no three-cycle in it is
found whole."""

from __future__ import annotations

import numpy as np

from debatebench_eval.stats.cycles import clear_wins, cycles


def table(wins: dict[tuple[int, int], int], m: int, n: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """score[i, j] of played[i, j] = n debates; wins[(i, j)] of them to i."""
    score, played = np.zeros((m, m)), np.zeros((m, m))
    for (i, j), w in wins.items():
        score[i, j], score[j, i] = w, n - w
        played[i, j] = played[j, i] = n
    return score, played


def test_a_planted_three_cycle_is_found_with_its_edges() -> None:
    score, played = table({(0, 1): 20, (1, 2): 20, (2, 0): 20, (0, 3): 20, (1, 3): 20,
                           (2, 3): 20}, 4)  # fmt: skip
    found = cycles(score, played)
    assert len(found) == 1
    assert [(e.winner, e.loser) for e in found[0]] == [(0, 1), (1, 2), (2, 0)]
    for edge in found[0]:
        assert edge.share.value == 20 / 24 and 0.5 < edge.share.low < edge.share.high <= 1


def test_a_transitive_table_has_no_cycle() -> None:
    score, played = table({(0, 1): 20, (1, 2): 20, (0, 2): 22}, 3)
    assert len(clear_wins(score, played)) == 3
    assert cycles(score, played) == []


def test_a_cycle_of_close_results_draws_no_edge() -> None:
    """13 of 24 each way round is a cycle of majorities, not of clear wins."""
    score, played = table({(0, 1): 13, (1, 2): 13, (2, 0): 13}, 3)
    assert clear_wins(score, played) == []
    assert cycles(score, played) == []


def test_a_four_cycle_without_a_three_cycle_is_found_whole() -> None:
    score, played = table({(0, 1): 20, (1, 2): 20, (2, 3): 20, (3, 0): 20}, 4)
    found = cycles(score, played)
    assert len(found) == 1 and len(found[0]) == 4
    steps = [(e.winner, e.loser) for e in found[0]]
    assert all(a[1] == b[0] for a, b in zip(steps, steps[1:] + steps[:1], strict=True))


def test_among_many_pairs_a_cycle_of_four_nil_results_is_not_claimed() -> None:
    """Each 4-0 has a 95% Wilson interval above 1/2, [0.51, 1]; among 45 pairs one
    such cycle turns up by chance, so the edges are held to the family's level."""
    wins = {(i, j): 2 for i in range(10) for j in range(i + 1, 10)}
    wins.update({(0, 1): 4, (1, 2): 4, (0, 2): 0})
    score, played = table(wins, 10, n=4)
    assert cycles(score, played) == []
    # The same three results as the only pairs played: still not clear at 1 - 0.05/3.
    alone, played_alone = table({(0, 1): 4, (1, 2): 4, (0, 2): 0}, 3, n=4)
    assert cycles(alone, played_alone) == []
