"""How `inspect view` lays out a debate log: the columns a reader scans, labelled.

The sample list shows, per debate: its id (whole), the motion, the winning
model with its side and tier (the score's answer), both totals, the margin,
whether the order-swapped readings disagreed, stance violations, each side's
contradicted claims, the share of citations that could not be verified (in
percent), the share of turns that hit their budget, and any error: at most
13 columns at 1600 px.

Inspect's viewer (0.3.285) draws every key of every score value whatever
`visible` says of a score column, so those keys are all a score's value holds
(the other numbers are figures in its metadata, see `judging.figures`).
`visible: false` is honoured for the viewer's own columns, which it adds
unless told: status, target, tokens, duration and the rest are hidden (the
Columns menu shows them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inspect_ai.viewer import (
    SampleScoreView,
    ScoreColorScale,
    TaskSamplesColumn,
    TaskSamplesSort,
    TaskSamplesView,
    ViewerConfig,
)

_TOTAL = ScoreColorScale(palette="good-high", min=0, max=100)
_SHARE = ScoreColorScale(palette="good-low", min=0, max=1)
# (scorer, key, header): the visible score columns, in order.
_SHOWN = (
    ("rubric", "pro_total", "PRO"),
    ("rubric", "con_total", "CON"),
    ("rubric", "margin", "Margin"),
    ("rubric", "swap_flipped", "Flip"),
    ("rubric", "stance_violations", "Stance ✗"),
    ("fact_check", "pro_contradicted", "PRO contra"),
    ("fact_check", "con_contradicted", "CON contra"),
    ("fact_check", "unverifiable_citation_pct", "Bad cites %"),
    ("turn_stats", "hit_budget_rate", "Budget hit"),
)
_SCALES = {
    "pro_total": _TOTAL,
    "con_total": _TOTAL,
    "margin": ScoreColorScale(palette="neutral", min=0, max=100),
    "swap_flipped": _SHARE,
    "stance_violations": ScoreColorScale(palette="good-low", min=0, max=2),
    "unverifiable_citation_pct": ScoreColorScale(palette="good-low", min=0, max=100),
    "hit_budget_rate": _SHARE,
}


# The viewer's own columns a debate list does without.
_HIDDEN = (
    "sampleStatus",
    "target",
    "tokens",
    "duration",
    "epoch",
    "retries",
    "limit",
    "sampleUuid",
)


def debate_viewer(score_keys: Mapping[str, Sequence[str]]) -> ViewerConfig:
    """The viewer layout for debates scored by `score_keys` (scorer -> its value's keys)."""
    shown = [(scorer, key) for scorer, key, _ in _SHOWN if scorer in score_keys]
    hidden = [
        TaskSamplesColumn.score(scorer, key, visible=False)
        for scorer, keys in score_keys.items()
        for key in keys
        if (scorer, key) not in shown
    ]
    columns = [
        TaskSamplesColumn(id="sampleId"),
        TaskSamplesColumn(id="input"),
        TaskSamplesColumn(id="answer"),
        *(TaskSamplesColumn.score(scorer, key) for scorer, key in shown),
        TaskSamplesColumn(id="error"),
        # The viewer adds its other columns unless told: a debate has no target, its
        # status is the error column, its tokens and time are in the sample's header.
        *(TaskSamplesColumn(id=column, visible=False) for column in _HIDDEN),
        *hidden,
    ]
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name="debates",
            columns=columns,
            sort=[TaskSamplesSort(column="sampleId")],
            multiline=True,
            score_labels={key: label for scorer, key, label in _SHOWN if scorer in score_keys},
            score_color_scales={k: v for k, v in _SCALES.items() if any(k == s[1] for s in shown)},
        ),
        sample_score_view=SampleScoreView(default="grid"),
    )
