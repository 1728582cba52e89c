"""The tournament's one eval_set call: the arguments it gives Inspect."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import inspect_ai._eval.registry as inspect_registry
import pytest
from inspect_ai._eval.task.util import task_file

from debatebench_eval import debate
from debatebench_eval.tournament import runner
from debatebench_eval.tournament.plan import capture
from debatebench_eval.tournament.runner import Concurrency, requested_schedule


def sent(monkeypatch: pytest.MonkeyPatch, display: str | None) -> dict[str, Any]:
    called: dict[str, Any] = {}

    def eval_set(tasks: list[Any], **kwargs: Any) -> tuple[bool, list[Any]]:
        called.update(kwargs)
        return True, []

    monkeypatch.setattr(runner, "eval_set", eval_set)
    schedule = requested_schedule(
        models="ollama/a,ollama/b", judges="ollama/j", motions="default", limit=1,
        format=None, seed=7, allow_self_judging=False, task_items=["probe=false"],
    )  # fmt: skip
    assert runner.run_eval_set(schedule, [], "logs", Concurrency(), display)
    return called


def test_display_none_runs_on_inspects_log_display(monkeypatch: pytest.MonkeyPatch) -> None:
    # Inspect's `none` still lays out every finished pair's results table, muted.
    assert sent(monkeypatch, "none")["display"] == "log"


@pytest.mark.parametrize("display", [None, "plain", "rich", "full", "log"])
def test_other_displays_pass_as_given(monkeypatch: pytest.MonkeyPatch, display: str) -> None:
    assert sent(monkeypatch, display)["display"] == display


def test_live_metrics_are_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert sent(monkeypatch, None)["score_display"] is False


def test_a_pair_tasks_identity_does_not_depend_on_where_the_package_was_imported_from(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A non-editable install run from inside its checkout imports the package from the
    checkout (`python -m`), where Inspect records the task's source file, a part of its
    identity; the plan, run by the console script, imported it from site-packages."""
    schedule = requested_schedule(
        models="ollama/a,ollama/b", judges="ollama/j", motions="default", limit=1,
        format=None, seed=7, allow_self_judging=False, task_items=["probe=false"],
    )  # fmt: skip
    installed = capture(schedule, runner.pair_tasks(schedule, schedule.pairs), str(tmp_path / "a"))
    # As Inspect sees a module imported from a plain folder.
    monkeypatch.setattr(inspect_registry, "get_installed_package_name", lambda _: None)
    assert task_file(debate()) is not None, "the source file is recorded for such a task"
    from_folder = runner.pair_tasks(schedule, schedule.pairs)
    assert [task_file(task) for task in from_folder] == [None]
    captured = capture(schedule, from_folder, str(tmp_path / "b"))
    assert [t.identifier for t in captured.tasks] == [t.identifier for t in installed.tasks]


def test_batch_and_prices_and_the_plans_cost_limit_reach_inspect(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    called: dict[str, Any] = {}
    monkeypatch.setattr(runner, "eval_set", lambda tasks, **kw: (called.update(kw), (True, []))[1])
    schedule = requested_schedule(
        models="ollama/a,ollama/b", judges="ollama/j", motions="default", limit=1,
        format=None, seed=7, allow_self_judging=False, task_items=["probe=false"],
        cost_limit=0.25,
    )  # fmt: skip
    prices = {"openai/gpt-4o": object()}
    runner.run_eval_set(schedule, [], "logs", Concurrency(batch=100), None, prices)  # type: ignore[arg-type]
    assert called["batch"] == 100 and called["cost_limit"] == 0.25
    assert called["model_cost_config"] == prices
    called.clear()
    runner.run_eval_set(schedule, [], "logs", Concurrency(), None)
    assert "batch" not in called and called["model_cost_config"] is None
    # A cost limit is part of the tournament: another limit is another tournament.
    assert schedule.identity()["settings"]["cost_limit"] == 0.25
    plain = requested_schedule(
        models="ollama/a,ollama/b", judges="ollama/j", motions="default", limit=1,
        format=None, seed=7, allow_self_judging=False, task_items=["probe=false"],
    )  # fmt: skip
    assert "cost_limit" not in plain.identity()["settings"]
