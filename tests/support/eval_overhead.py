"""Two costs Inspect pays on every `eval()` that change nothing a test can see.

A scripted debate's `eval()` cost about 0.92 CPU seconds here (0.33 s with both
shortcuts), of which:

- about 0.33 s finding which installed distribution ships the task:
  `get_distribution_for_object` scans every installed distribution's file list
  (`importlib.metadata.packages_distributions`) on each call. Its answer
  depends only on the object's module and the installed packages, which do not
  change during a test session, so it is computed once per module;
- about 0.26 s laying out the results table that `display="none"` then prints
  to a quiet console, which discards it. Nothing is laid out for a quiet
  console; a console that prints gets the table as before.

`skip(patch)` installs both for a session (tests/conftest.py); a subprocess
(a whole command) pays both as a user does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from importlib.metadata import Distribution
from typing import Any

import pytest
import rich
from inspect_ai._display.core.results import TaskWithResult
from inspect_ai._display.rich import display as rich_display
from inspect_ai._eval.task import log as task_log
from rich.console import RenderableType
from rich.text import Text

Lookup = Callable[[Any], Distribution | None]
Layout = Callable[[Sequence[TaskWithResult]], RenderableType]


def distribution_per_module(lookup: Lookup) -> Lookup:
    """`lookup` (Inspect's `get_distribution_for_object`) asked once per module."""
    by_module = functools.cache(lambda module: lookup(_Named(module)))

    def cached(obj: Any) -> Distribution | None:
        module = getattr(obj, "__module__", None)
        return by_module(module) if module else lookup(obj)

    return cached


class _Named:
    """What `get_distribution_for_object` reads of an object: its module."""

    def __init__(self, module: str) -> None:
        self.__module__ = module


def results_unless_quiet(layout: Layout) -> Layout:
    """`layout` (Inspect's results table) only for a console that prints it."""

    def results(tasks: Sequence[TaskWithResult]) -> RenderableType:
        return Text() if rich.get_console().quiet else layout(tasks)

    return results


def skip(patch: pytest.MonkeyPatch) -> None:
    """Install both shortcuts for as long as `patch` lasts."""
    patch.setattr(
        task_log,
        "get_distribution_for_object",
        distribution_per_module(task_log.get_distribution_for_object),
    )
    patch.setattr(rich_display, "tasks_results", results_unless_quiet(rich_display.tasks_results))
