"""The shortcuts the suite takes past two per-`eval()` costs of Inspect's answer
what Inspect would (tests/support/eval_overhead.py), and the session has them."""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import Distribution
from typing import Any

import pytest
import rich
from inspect_ai._display.rich import display as rich_display
from inspect_ai._eval.task import log as task_log
from inspect_ai._util.package import get_distribution_for_object
from pydantic import BaseModel
from rich.console import RenderableType
from rich.text import Text

from debatebench_eval.debating import task as debate_task

from support.eval_overhead import distribution_per_module, results_unless_quiet


def name(distribution: Distribution | None) -> str | None:
    return distribution.name if distribution else None


def test_the_distribution_is_inspects_answer_asked_once_per_module() -> None:
    asked: list[str | None] = []

    def lookup(obj: Any) -> Distribution | None:
        asked.append(getattr(obj, "__module__", None))
        return get_distribution_for_object(obj)

    cached = distribution_per_module(lookup)
    for obj in (Text, Text.from_markup, BaseModel, debate_task.debate, debate_task.debate):
        assert name(cached(obj)) == name(get_distribution_for_object(obj))
    assert name(cached(Text)) == "rich" and name(cached(BaseModel)) == "pydantic"
    assert asked == ["rich.text", "pydantic.main", debate_task.debate.__module__]
    assert cached(object()) is None  # a builtin's module ships in no distribution


def test_only_a_console_that_prints_gets_the_results_table(monkeypatch: pytest.MonkeyPatch) -> None:
    laid_out: list[Sequence[Any]] = []

    def layout(tasks: Sequence[Any]) -> RenderableType:
        laid_out.append(tasks)
        return "the table"

    results = results_unless_quiet(layout)
    monkeypatch.setattr(rich.get_console(), "quiet", True)
    assert results([]) == Text() and laid_out == []
    monkeypatch.setattr(rich.get_console(), "quiet", False)
    assert results([]) == "the table" and laid_out == [[]]


def test_the_session_takes_both_shortcuts() -> None:
    assert task_log.get_distribution_for_object is not get_distribution_for_object
    assert rich_display.tasks_results.__qualname__.startswith("results_unless_quiet.")
