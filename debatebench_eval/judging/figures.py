"""The numbers of a score the sample list does not show, kept beside it in metadata.

Inspect's viewer (0.3.285) draws a column for every key of every scorer's
`Score.value` and ignores `visible: false` on score columns, so a debate with
every rubric, fact-check and turn key in its value is a table of some forty
columns. The value therefore holds only the keys a reader scans (listed by
each scorer); every other number goes into `Score.metadata["figures"]`, with
the same names, and the scorers' metrics compute their means from there
(`judging.metrics.figure_stats`), so the log's results keep every figure.

Logs written before this split hold every key in the value; `figures_of`
reads both shapes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.scorer import Score

FIGURES_KEY = "figures"


def split_figures(
    values: Mapping[str, float], listed: Sequence[str]
) -> tuple[dict[str, float], dict[str, float]]:
    """The listed keys (the score's value, in `listed` order) and every other key."""
    shown = {key: values[key] for key in listed}
    rest = {key: value for key, value in values.items() if key not in shown}
    return shown, rest


def figures_of(score: Score) -> dict[str, float]:
    """Every number of a scored sample, value and metadata together ({} when unscored)."""
    if not isinstance(score.value, dict):
        return {}
    kept: Any = (score.metadata or {}).get(FIGURES_KEY) or {}
    return {**kept, **score.value}
