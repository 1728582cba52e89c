"""The soak that would have caught a worker dying on another worker's half-written
log: 4 workers x 200 debates, three rounds, against the stub with a short latency
(tests/support/soak.py; `benchmark_tournament.py --soak` runs the big form)."""

from __future__ import annotations

from support.soak import CALLS_PER_DEBATE, models_for, soak


def test_four_workers_fill_one_folder_three_times_without_a_crash_or_a_debate_twice() -> None:
    rounds = soak(workers=4, debates=200, rounds=3, latency_s=0.02, slots=8)
    for number, found in enumerate(rounds, start=1):
        assert not found.failures, f"round {number}: {found.failures}"
        assert found.workers_exit == (0, 0, 0, 0)
        assert found.scored == 200 and found.duplicates == 0, f"round {number}: {found}"
        assert found.calls == 200 * CALLS_PER_DEBATE, f"round {number}: a debate ran twice"
        assert found.clean


def test_the_soaks_tournaments_have_the_debates_asked_for() -> None:
    assert models_for(200, 4) == (5, 10)  # 10 pairs, 10 motions, both sides
    assert models_for(600, 8) == (5, 30)
