"""How `inspect view` lays out a debate log: the score columns that matter, labelled."""

from __future__ import annotations

from inspect_ai.viewer import (
    ScoreColorScale,
    TaskSamplesColumn,
    TaskSamplesSort,
    TaskSamplesView,
    ViewerConfig,
)

_TOTAL = ScoreColorScale(palette="good-high", min=0, max=100)
_RATE = ScoreColorScale(palette="good-low", min=0, max=1)
_COLUMNS = (
    ("rubric", "pro_total", "PRO total"),
    ("rubric", "con_total", "CON total"),
    ("rubric", "margin", "Margin"),
    ("rubric", "swap_flipped", "Swap flip"),
    ("fact_check", "pro_contradicted", "PRO contradicted"),
    ("fact_check", "con_contradicted", "CON contradicted"),
    ("fact_check", "unverifiable_citation_rate", "Unverifiable cites"),
)


def debate_viewer(fact_check: bool) -> ViewerConfig:
    columns = [
        TaskSamplesColumn(id="sampleId"),
        TaskSamplesColumn(id="input"),
        *(
            TaskSamplesColumn.score(scorer, key)
            for scorer, key, _ in _COLUMNS
            if fact_check or scorer != "fact_check"
        ),
        TaskSamplesColumn(id="tokens"),
        TaskSamplesColumn(id="error"),
    ]
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name="debates",
            columns=columns,
            sort=[TaskSamplesSort.score("rubric", "margin", dir="desc")],
            score_labels={key: label for _, key, label in _COLUMNS},
            score_color_scales={
                "pro_total": _TOTAL,
                "con_total": _TOTAL,
                "margin": ScoreColorScale(palette="neutral", min=0, max=100),
                "swap_flipped": _RATE,
                "unverifiable_citation_rate": _RATE,
            },
        )
    )
