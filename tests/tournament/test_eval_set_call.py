"""The tournament's one eval_set call: the arguments it gives Inspect."""

from __future__ import annotations

from typing import Any

import pytest

from debatebench_eval.tournament import runner
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
