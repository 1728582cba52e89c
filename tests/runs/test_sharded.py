"""A sharded run's rules, without running anything: Inspect's own options, the samples
shared out by position (a growing `--limit` keeps each sample in its shard), each
shard a task of its own with the task's registered name, and the run's key named by
what it runs, not by how."""

from __future__ import annotations

from typing import Any

import pytest

from debatebench_eval.core._inspect import registry_info
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.runs.sharded import (
    WORKER_DEFAULTS,
    RunSpec,
    eval_set_call,
    shard_name,
    shard_tasks,
)

TASK = "debatebench/oversight"
NAIVE = ("--model", "ollama/m1", "-T", "protocol=naive")


def spec(*options: str, shards: int = 3) -> RunSpec:
    return RunSpec(TASK, (*NAIVE, *options), "logs/shards", shards)


def shard_ids(run: RunSpec, options: dict[str, Any]) -> list[list[str]]:
    return [[str(s.id) for s in task.dataset] for task in shard_tasks(run, options, range(3))]


def test_the_options_are_inspects_own() -> None:
    found = spec("--limit", "7", "--temperature", "0.5", "--max-connections", "4").arguments()
    assert found["task_args"] == {"protocol": "naive"} and found["model"] == "ollama/m1"
    assert found["limit"] == 7 and found["temperature"] == 0.5 and found["max_connections"] == 4
    assert found["log_dir"] == "logs/shards", "the run's folder, given last, wins"


def test_an_option_inspect_does_not_take_is_one_error_naming_it() -> None:
    with pytest.raises(ConfigError, match="No such option '--bogus'"):
        spec("--bogus").arguments()


def test_samples_are_shared_out_by_position_each_once() -> None:
    run = spec("--limit", "8")
    ids = shard_ids(run, run.arguments())
    every = [str(s.id) for s in shard_tasks(RunSpec(TASK, run.options, "x", 1),
                                              run.arguments(), [0])[0].dataset]  # fmt: skip
    assert len(every) == 8 and sorted(i for shard in ids for i in shard) == sorted(every)
    assert ids == [every[0::3], every[1::3], every[2::3]]


def test_a_larger_limit_keeps_every_sample_in_its_shard() -> None:
    small, large = spec("--limit", "6"), spec("--limit", "11")
    for before, after in zip(
        shard_ids(small, small.arguments()), shard_ids(large, large.arguments()), strict=True
    ):
        assert after[: len(before)] == before


def test_each_shard_is_a_task_of_its_own_that_keeps_the_tasks_registered_name() -> None:
    run = spec("--limit", "3")
    tasks = shard_tasks(run, run.arguments(), range(3))
    assert [t.name for t in tasks] == [shard_name(TASK, k, 3) for k in range(3)]
    assert tasks[0].name == "oversight_shard-1-of-3"
    assert {registry_info(t).name.rsplit("/", 1)[1] for t in tasks} == {"oversight"}
    assert "shard 2 of 3" in (tasks[1].tags or []) and tasks[1].metadata["shard"] == [2, 3]


def test_a_seeded_shuffle_is_the_same_on_every_worker_and_an_unseeded_one_is_refused() -> None:
    seeded = spec("--limit", "6", "--sample-shuffle", "7")
    assert shard_ids(seeded, seeded.arguments()) == shard_ids(seeded, seeded.arguments())
    plain = spec("--limit", "6")
    assert shard_ids(seeded, seeded.arguments()) != shard_ids(plain, plain.arguments())
    unseeded = spec("--sample-shuffle")
    with pytest.raises(ConfigError, match="--sample-shuffle: without a seed"):
        shard_tasks(unseeded, unseeded.arguments(), [0])


def test_the_key_names_what_runs_not_how() -> None:
    base = spec().key(spec().arguments())
    how = spec("--max-connections", "2", "--display", "none", "--limit", "5", shards=2)
    assert how.key(how.arguments()) == base
    for other in (spec("-T", "rounds=1"), RunSpec(TASK, ("--model", "ollama/m2"), "x", 3)):
        assert other.key(other.arguments()) != base


def test_the_eval_set_call_leaves_out_what_the_shards_already_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import inspect_ai

    made: dict[str, Any] = {}
    monkeypatch.setattr(inspect_ai, "eval_set", lambda tasks, **kwargs: made.update(kwargs))
    run = spec("--limit", "4", "--log-buffer", "5")
    eval_set_call([], run.arguments(), "somewhere", "run-id", WORKER_DEFAULTS)()
    assert "limit" not in made and "task_args" not in made and "tasks" not in made
    assert made["log_buffer"] == 5, "an option the user gave wins over the worker's default"
    assert made["log_realtime"] is False and made["eval_set_id"] == "run-id"
    assert made["log_dir"] == "somewhere" and made["log_dir_allow_dirty"] is True
