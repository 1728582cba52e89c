"""What Inspect's terminal table prints of metric names (it renders them as rich markup)."""

from __future__ import annotations

import io
from collections.abc import Iterable

from inspect_ai._display.core.results import task_scores
from inspect_ai.log import EvalMetric, EvalScore
from rich.console import Console


def printed(names: Iterable[str]) -> str:
    """The end-of-run score table, as text, of one scorer with these metric names."""
    metrics = {name: EvalMetric(name=name, value=0.5) for name in names}
    console = Console(width=2000, file=io.StringIO(), record=True)
    for table in task_scores([EvalScore(name="scorer", scorer="scorer", metrics=metrics)]):
        console.print(table)
    return console.export_text()


def assert_printed_whole(names: Iterable[str]) -> None:
    """Every name is printed as it is: no text lost to markup (`x[y]` prints as `x`)."""
    names = list(names)
    text = printed(names)
    lost = [name for name in names if name not in text]
    assert not lost, f"the terminal would not print these metric names whole: {lost}"
