"""A scored speech of the judge validation as its statistics read it.

The speech scorer's score (a rating beside the speech's human ratings in its
metadata) becomes a `stats.Row`, in the scorer's metric, in the end-of-run
summary and when a saved log is read into a trust record.
"""

from __future__ import annotations

import math

from inspect_ai.scorer import Score

from debatebench_eval.trust.stats import Row

# The speech score's value keys (the scorer writes them, this reads them back).
RATING_KEY, HUMAN_MEAN_KEY = "rating", "human_mean"


def row_of(score: Score, speech_id: str | int | None) -> Row:
    """A scored speech (the sample's id is the speech's) as the statistics read it
    (also used on saved logs)."""
    meta = score.metadata or {}
    value = score.value if isinstance(score.value, dict) else {}
    rating = value.get(RATING_KEY, math.nan)
    return Row(
        id=str(speech_id),
        score=None if isinstance(rating, float) and math.isnan(rating) else float(rating),
        human_mean=float(meta["human_mean"]),
        source=str(meta["source"]),
        topic_id=int(meta["topic_id"]),
        ratings=tuple(meta["ratings"]),
        labelers=tuple(meta["labelers"]),
    )
