"""Shares: the K-th of N shares of a plan is a partition, balanced by the work left."""

from __future__ import annotations

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.runs.planned import PlannedTask
from debatebench_eval.runs.shares import (
    auto_workers,
    check_share,
    deal,
    named_tasks,
    parse_workers,
)


def tasks(todo: list[int]) -> list[PlannedTask]:
    return [PlannedTask(f"t{i:02d}", f"id-{i}", 20, left) for i, left in enumerate(todo)]


@pytest.mark.parametrize("workers", [1, 2, 3, 4, 7, 15, 20])
def test_every_task_is_in_exactly_one_share(workers: int) -> None:
    planned = tasks([20] * 15)
    shares = deal(planned, workers)
    dealt = [task for share in shares for task in share]
    assert sorted(t.name for t in dealt) == [t.name for t in planned]
    sizes = [len(share) for share in shares]
    assert max(sizes) - min(sizes) <= 1
    for share in shares:  # each share keeps the plan's order
        assert share == sorted(share, key=planned.index)


def test_the_deal_depends_on_the_plan_only() -> None:
    planned = tasks([20, 0, 5, 20, 3, 20])
    # Same tasks in another order: the same partition (shares are sets of names).
    names = [{t.name for t in share} for share in deal(planned, 3)]
    assert names == [{t.name for t in share} for share in deal(list(reversed(planned)), 3)]


def test_a_grown_tournament_spreads_its_new_pairs() -> None:
    # Three old pairs nearly done, three new ones whole: each of 3 workers gets a new one.
    planned = tasks([1, 1, 1, 20, 20, 20])
    loads = [sum(t.todo for t in share) for share in deal(planned, 3)]
    assert loads == [21, 21, 21]
    # Two workers: one takes two new pairs, the other the third and every leftover.
    loads = sorted(sum(t.todo for t in share) for share in deal(planned, 2))
    assert loads == [23, 40]


@pytest.mark.parametrize(
    ("index", "workers", "message"),
    [(0, 0, "--workers: got 0; expected an integer of at least 1"),
     (2, 2, "--index: got 2 with --workers 2; expected 0 to 1"),
     (-1, 2, "--index: got -1 with --workers 2")],
)  # fmt: skip
def test_a_share_out_of_range_is_refused(index: int, workers: int, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        check_share(index, workers)


def test_a_task_list_names_planned_tasks_once_each() -> None:
    planned = tasks([1, 2, 3])
    assert named_tasks("# mine\n t02 \n\nt00\n", "list.txt", planned) == [planned[2], planned[0]]
    with pytest.raises(ConfigError, match=r"list.txt, line 2: 't00' is listed twice"):
        named_tasks("t00\nt00\n", "list.txt", planned)
    with pytest.raises(ConfigError, match=r"list.txt, line 1: 'nope' is not a planned task"):
        named_tasks("nope\n", "list.txt", planned)
    with pytest.raises(ConfigError, match=r"list.txt: names no task"):
        named_tasks("# nothing\n", "list.txt", planned)


def test_workers_are_a_number_or_auto_and_auto_is_a_core_each_up_to_the_tasks() -> None:
    assert parse_workers("3") == 3 and parse_workers(" Auto ") == "auto"
    for bad in ("0", "-2", "two", ""):
        with pytest.raises(ConfigError, match="an integer of at least 1, or auto"):
            parse_workers(bad)
    assert auto_workers(cores=16, tasks=15) == 15
    assert auto_workers(cores=2, tasks=15) == 2
    assert auto_workers(cores=8, tasks=0) == 1
