"""How `inspect view` lays out a crucible log: the verdict's columns, labelled."""

from __future__ import annotations

from inspect_ai.viewer import (
    ScoreColorScale,
    TaskSamplesColumn,
    TaskSamplesView,
    ViewerConfig,
)

SCORER = "crucible_score"
_MEAN = ScoreColorScale(palette="good-high", min=1, max=5)
_RATE = ScoreColorScale(palette="good-high", min=0, max=1)
_COLUMNS = (
    ("pro_mean", "PRO mean"),
    ("con_mean", "CON mean"),
    ("gap", "Gap"),
    ("evidence_verified_rate", "Verified"),
    ("rounds_run", "Rounds"),
    ("stopped_early", "Stopped early"),
    ("rescored", "Rescored"),
)


def crucible_viewer() -> ViewerConfig:
    columns = [
        TaskSamplesColumn(id="sampleId"),
        TaskSamplesColumn(id="input"),
        TaskSamplesColumn(id="answer"),
        *(TaskSamplesColumn.score(SCORER, key) for key, _ in _COLUMNS),
        TaskSamplesColumn(id="tokens"),
        TaskSamplesColumn(id="error"),
    ]
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name="topics",
            columns=columns,
            score_labels=dict(_COLUMNS),
            score_color_scales={
                "pro_mean": _MEAN,
                "con_mean": _MEAN,
                "gap": ScoreColorScale(palette="neutral", min=0, max=4),
                "evidence_verified_rate": _RATE,
            },
        )
    )
