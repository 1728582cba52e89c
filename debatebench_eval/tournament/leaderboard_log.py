"""The leaderboard as an Inspect log, so `inspect view` shows the ranking.

A tournament's pair logs each hold one pair's debates; nothing in them ranks
the models. `tournament rate` therefore also writes `leaderboard.eval` beside
them: a log whose samples are the models, in rank order, each scored with its
rating, interval, win rate and debates, and whose metadata carries the whole
leaderboard. It is a record of the rating, not a run: it has no model calls,
and the tournament reader skips it by its metadata.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from inspect_ai.log import (
    EvalConfig,
    EvalDataset,
    EvalLog,
    EvalMetric,
    EvalResults,
    EvalSample,
    EvalScore,
    EvalSpec,
    EvalStats,
    HeadlineMetric,
    write_eval_log,
)
from inspect_ai.scorer import Score
from inspect_ai.viewer import (
    TaskSamplesColumn,
    TaskSamplesSort,
    TaskSamplesView,
    ViewerConfig,
)

from debatebench_eval.matches.figure_text import interval_text
from debatebench_eval.tournament.kind import Column
from debatebench_eval.tournament.robustness_text import holds_text

LEADERBOARD_TASK = "debatebench/leaderboard"
LEADERBOARD_FILE = "leaderboard.eval"
# Marks the log for the tournament reader: a rating of this tournament, not debates.
LEADERBOARD_KEY = "leaderboard_of"
_SCORER = "leaderboard"
_HIDDEN = ("sampleStatus", "target", "tokens", "duration")


def write_leaderboard_log(
    board: dict[str, Any], root: str, columns: Sequence[Column], rating: str
) -> str:
    """Write `root/leaderboard.eval` (replacing an older one) and return its path:
    each model's row shows the task kind's `columns`, and says what its `rating` means."""
    path = f"{root}/{LEADERBOARD_FILE}"
    write_eval_log(leaderboard_log(board, tuple(columns), rating), path, format="eval")
    return path


def leaderboard_log(board: dict[str, Any], columns: tuple[Column, ...], rating: str) -> EvalLog:
    now = datetime.now(UTC).isoformat()
    samples = [
        _model_sample(
            position, row, columns, rating, holds_text(board.get("robustness"), row["model"])
        )
        for position, row in enumerate(board["models"], 1)
    ]
    counts = board["counts"]
    return EvalLog(
        status="success",
        eval=_spec(board, now, len(samples), columns),
        results=EvalResults(
            total_samples=len(samples),
            completed_samples=len(samples),
            scores=[
                EvalScore(
                    name=_SCORER,
                    scorer=_SCORER,
                    scored_samples=sum(s.scores is not None for s in samples),
                    metrics={
                        "eligible_debates": EvalMetric(
                            name="eligible_debates", value=counts["eligible_debates"]
                        ),
                        "models_rated": EvalMetric(
                            name="models_rated",
                            value=sum(row.get("rating") is not None for row in board["models"]),
                        ),
                    },
                )
            ],
            headline=HeadlineMetric(scorer=_SCORER, metric="eligible_debates"),
        ),
        stats=EvalStats(started_at=now, completed_at=now),
        samples=samples,
    )


def _spec(board: dict[str, Any], now: str, samples: int, columns: tuple[Column, ...]) -> EvalSpec:
    tournament = board["tournament"]
    # A tournament's identity hash; debates judged elsewhere have their source instead.
    name = str(tournament.get("id") or tournament.get("source") or "ratings")
    return EvalSpec(
        created=now,
        task=LEADERBOARD_TASK,
        task_display_name=f"leaderboard {name}",
        task_id=f"leaderboard-{name}",
        dataset=EvalDataset(name="tournament models", samples=samples),
        model="none/none",
        config=EvalConfig(),
        metadata={LEADERBOARD_KEY: name, "leaderboard": board},
        viewer=_viewer(columns),
    )


def _viewer(columns: tuple[Column, ...]) -> ViewerConfig:
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name="ranking",
            columns=[
                TaskSamplesColumn(id="sampleId"),
                TaskSamplesColumn(id="input"),
                TaskSamplesColumn(id="answer"),
                *(TaskSamplesColumn.score(_SCORER, column.key) for column in columns),
                *(TaskSamplesColumn(id=column, visible=False) for column in _HIDDEN),
            ],
            sort=[TaskSamplesSort(column="sampleId")],
            multiline=True,
            score_labels={column.key: column.header for column in columns},
        )
    )


def _model_sample(
    position: int, row: dict[str, Any], columns: tuple[Column, ...], rating: str, holds: str
) -> EvalSample:
    """One model's row: id is its place in the ranking, so the list sorts by rank."""
    score = None
    if row.get("rating") is not None:
        score = {
            _SCORER: Score(
                value=_row_value(row, columns),
                answer=_answer(row),
                explanation=" ".join(filter(None, [_explanation(row, columns, rating), holds])),
                metadata={"dimensions": row.get("dimensions")},
            )
        }
    return EvalSample(
        id=position,
        epoch=1,
        input=str(row["model"]),
        target="",
        scores=score,
        metadata={"model": row["model"], "row": row},
    )


def _row_value(row: dict[str, Any], columns: tuple[Column, ...]) -> dict[str, float]:
    rating, win = row["rating"], row.get("win_rate") or {}
    whole = {
        "rating": rating["value"],
        "rating_low": rating.get("low"),
        "rating_high": rating.get("high"),
        "rating_width": _width(rating),
        "win_rate": win.get("value"),
        "debates": row.get("debates"),
        "mean_margin": row.get("mean_margin"),
    }
    places = {column.key: column.places for column in columns}
    return {
        key: float("nan") if v is None else round(float(v), places[key])
        for key, v in whole.items()
        if key in places
    }


def _width(rating: dict[str, Any]) -> float | None:
    low, high = rating.get("low"), rating.get("high")
    return None if low is None or high is None else float(high) - float(low)


def _answer(row: dict[str, Any]) -> str:
    low, high = row.get("rank_range") or (row["rank"], row["rank"])
    ranks = f"rank {row['rank']}" + (f" (95% range {low}-{high})" if low != high else "")
    return f"{ranks} · rating {interval_text(row['rating'])}"


SEPARATED = "Separated results: no finite rating fits them, so read rating gaps as lower bounds."


def _explanation(row: dict[str, Any], columns: tuple[Column, ...], rating: str) -> str:
    """The row in words: its rating and what a rating means here, its share of wins
    (or whatever the kind's win column counts), its margin where it has one."""
    caveat = [SEPARATED] if row.get("separated") else []
    share = next((c.header for c in columns if c.key == "win_rate"), "Win rate")
    lines = [
        f"Rating {interval_text(row['rating'])} ({rating}). {share}: "
        f"{interval_text(row.get('win_rate'), 2)} over {row.get('debates')} debates.",
    ]
    if any(c.key == "mean_margin" for c in columns):
        margin = row.get("mean_margin")
        shown = "n/a (the source gave none)" if margin is None else format(margin, "+.1f")
        lines.append(f"Mean margin {shown}.")
    if row.get("length_controlled"):
        lines.append(f"Length-controlled rating {interval_text(row['length_controlled'])}.")
    return " ".join([*lines, *caveat])
