"""tournament.json: the plan step is its one writer, and records what workers run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs

from debatebench_eval.core._inspect import EvalSetCapture
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.tournament import manifest as mf
from debatebench_eval.tournament.debate_kind import DebateKind
from debatebench_eval.tournament.plan import plan
from debatebench_eval.tournament.runner import requested_schedule
from debatebench_eval.tournament.schedule import Schedule


def schedule(models: str) -> Schedule:
    names = ",".join(f"ollama/{name}" for name in models.split(","))
    return requested_schedule(
        models=names, judges="ollama/j", motions="default", limit=2, format=None, seed=7,
        allow_self_judging=False, task_items=["probe=false"],
    )  # fmt: skip


def test_the_plan_records_every_task_with_inspects_identifier(tmp_path: Path) -> None:
    log_dir = str(tmp_path / "logs")
    written = plan(log_dir, schedule("a,b,c"), None)
    manifest = mf.read_manifest(log_dir)
    assert manifest == written and manifest.plan is not None
    assert [t.name for t in manifest.plan.tasks] == [
        "ollama-a_vs_ollama-b", "ollama-a_vs_ollama-c", "ollama-b_vs_ollama-c"
    ]  # fmt: skip
    assert all(t.samples == 4 and t.todo == 4 for t in manifest.plan.tasks)
    captured = EvalSetCapture.model_validate_json((tmp_path / "logs" / mf.CAPTURE).read_text())
    assert [t.identifier for t in captured.tasks] == [t.identifier for t in manifest.plan.tasks]
    assert captured.eval_set_id == manifest.schedule.eval_set_id
    assert not list_eval_logs(log_dir), "planning runs nothing"
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == [mf.CAPTURE, mf.MANIFEST]

    # Planning again with a model more: the schedule grows, the new pairs are planned.
    grown = plan(log_dir, schedule("a,b,c,d"), manifest)
    assert grown.plan is not None and len(grown.plan.tasks) == 6
    assert grown.schedule.models == ("ollama/a", "ollama/b", "ollama/c", "ollama/d")
    assert [run["tasks"] for run in grown.runs] == [3, 6]
    # The old pairs keep their identifiers: their logs would be found and reused.
    old = {t.name: t.identifier for t in manifest.plan.tasks}
    assert all(old[t.name] == t.identifier for t in grown.plan.tasks if t.name in old)


def test_a_folder_written_before_plans_reads_without_one(tmp_path: Path) -> None:
    log_dir = str(tmp_path / "logs")
    plan(log_dir, schedule("a,b"), None)
    path = tmp_path / "logs" / mf.MANIFEST
    data = json.loads(path.read_text())
    del data["plan"]
    data["shards"] = 2  # what a folder of an earlier version holds
    path.write_text(json.dumps(data))
    manifest = mf.read_manifest(log_dir)
    assert manifest is not None and manifest.plan is None
    assert manifest.schedule.models == ("ollama/a", "ollama/b")


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
    ).settings.task_args == {key: 900}  # fmt: skip


def _requested(*items: str) -> Schedule:
    return requested_schedule(
        models="ollama/a,ollama/b", judges="ollama/j", motions="default", limit=2,
        format=None, seed=7, allow_self_judging=False, task_items=list(items),
    )  # fmt: skip


def test_the_seed_and_timeout_are_inspects_settings_of_every_pairs_task() -> None:
    """The tournament's --seed and --timeout go in each debate's generate settings (as
    Inspect's --seed and --timeout would), the run settings flat among its options."""
    schedule = requested_schedule(
        models="ollama/a,ollama/b", judges="ollama/j", motions="default", limit=2,
        format=None, seed=7, allow_self_judging=False, task_items=["probe=false"], timeout=30,
    )  # fmt: skip
    args = DebateKind().task_args(schedule.settings)
    assert args["probe"] is False
    assert not {"seed", "timeout", "run", "judging"} & set(args)
    assert schedule.settings.generate_settings() == {"seed": 7, "timeout": 30}
    assert schedule.settings.as_dict()["timeout"] == 30
    # Without --timeout the identity is the one it had before the option existed.
    assert "timeout" not in _requested().settings.as_dict()


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("seed=3", "-T seed: set by the tournament itself; expected --seed N."),
        ("timeout=30", "-T timeout: set by the tournament itself; expected --timeout SECONDS."),
        ("run={probe: false}", "-T run: a form this package no longer takes; expected each"),
        ("judging={judge_budget: 900}", "-T judging: a form this package no longer takes"),
        ("probe=maybe", "-T probe: got 'maybe'; expected true or false."),
    ],
)
def test_a_bad_or_old_task_option_is_one_message_naming_it(item: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _requested(item)
    assert str(caught.value).startswith(message)
