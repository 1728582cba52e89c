"""tournament.json: shards that start together each keep their run entry."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.tournament import manifest as mf
from debatebench_eval.tournament.runner import requested_schedule
from debatebench_eval.tournament.schedule import Schedule


def schedule(models: str) -> Schedule:
    names = ",".join(f"ollama/{name}" for name in models.split(","))
    return requested_schedule(
        models=names, judges="ollama/j", motions="default", limit=2, format=None, seed=7,
        allow_self_judging=False, task_items=[],
    )  # fmt: skip


def add_runs(log_dir: str, models: str, runs: int) -> None:
    requested = schedule(models)

    def change(now: mf.Manifest | None) -> mf.Manifest:
        time.sleep(0.01)  # widens the read-to-write window a lost update needs
        entry = mf.run_entry(requested, (1, 1), requested.models)
        if now is None:
            return mf.Manifest(requested, (entry,))
        return mf.Manifest(now.schedule.grown(requested), (*now.runs, entry))

    for _ in range(runs):
        mf.update_manifest(log_dir, change)


def test_runs_written_together_are_all_kept_and_the_schedule_grows(tmp_path: Path) -> None:
    log_dir = str(tmp_path / "logs")
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=add_runs, args=(log_dir, models, 5))
        for models in ("a,b", "a,c", "b,c", "a,b")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    manifest = mf.read_manifest(log_dir)
    assert manifest is not None
    assert len(manifest.runs) == 20
    assert set(manifest.schedule.models) == {"ollama/a", "ollama/b", "ollama/c"}


@pytest.mark.parametrize("key", ["budget", "reasoning_budget"])
def test_a_cap_by_role_is_refused_since_every_model_argues_both_roles(key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        requested_schedule(
            models="ollama/a,ollama/b", judges="ollama/j", motions="default", limit=2,
            format=None, seed=7, allow_self_judging=False, task_items=[f"{key}={{pro: 9}}"],
        )  # fmt: skip
    assert str(caught.value) == (
        f"-T {key}: a mapping by role (pro); expected one number for every debater: "
        "in a tournament a role is a slot in a pair, not a model."
    )
    assert requested_schedule(
        models="ollama/a,ollama/b", judges="ollama/j", motions="default", limit=2,
        format=None, seed=7, allow_self_judging=False, task_items=[f"{key}=900"],
    ).settings.task_args == ((key, 900),)  # fmt: skip
