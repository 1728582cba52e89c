"""The `speech_rating` scorer and its metric: a judge's 1-5 rating of one speech.

The reply's score is read from its last `<score>` element; a reply without
one is unparsed: counted against the parse rate and left out of every
statistic, never a 0 or a -1.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict

from inspect_ai.model import get_model
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from debatebench_eval.servers.calls import without_reasoning
from debatebench_eval.trust.records import judge_identity
from debatebench_eval.trust.speech_rows import HUMAN_MEAN_KEY, RATING_KEY, row_of
from debatebench_eval.trust.stats import NO_SPEECHES, summarise

# The score value's keys: the judge's rating (NaN when unparsed) and the humans' mean.
SPEECH_RATING_KEYS = (RATING_KEY, HUMAN_MEAN_KEY)
_SCORE = re.compile(r"<score>\s*\[?\s*([1-5])\s*\]?\s*</score>", re.IGNORECASE)


def parse_rating(reply: str) -> int | None:
    """The last `<score>` of the reply, outside any reasoning; None when there is none."""
    found = _SCORE.findall(without_reasoning(reply))
    return int(found[-1]) if found else None


@metric
def validation_stats() -> Metric:
    """The headline: tau-c with its CI, the source baseline, the annotators' ceiling,
    parse rate, speeches scored and bias, over whatever speeches were rated; a figure
    they leave undefined is left out. Every other figure (tau-b, within-source and
    within-topic tau, means, per-source bias, the position ceiling) is in
    `debatebench-eval report LOG`, computed from the samples by the same summary.

    Inspect computes a run's metrics once before any speech is scored, for its
    progress display: with none, only the headline is reported (undefined), so
    the metric neither raises nor leaves the headline missing."""

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        if not scores:
            return dict(NO_SPEECHES)
        return summarise([row_of(s.score, s.sample_id) for s in scores]).headline_metrics()

    return compute


UNPARSED = "no <score> element with a number from 1 to 5 in the reply"


@scorer(metrics=[validation_stats()])
def speech_rating() -> Scorer:
    """The judge's 1-5 rating of the speech, beside the 15 human ratings.

    An unparsable reply scores NaN (and the reason says why): the parse rate
    counts it, and no statistic sees it as a rating.
    """

    async def score(state: TaskState, target: Target) -> Score:
        rating = parse_rating(state.output.completion)
        meta = {
            k: state.metadata[k]
            for k in ("source", "topic_id", "human_mean", "ratings", "labelers")
        }
        # Asked of the server during the run, so a trust record names the model that answered.
        meta["judge_identity"] = asdict(await judge_identity(get_model()))
        human = round(float(meta["human_mean"]), 2)  # shown; the statistics read the metadata
        ratings = " ".join(str(r) for r in meta["ratings"])
        if rating is None:
            ending = " ".join(state.output.completion[-160:].split())
            return Score(
                value={RATING_KEY: math.nan, HUMAN_MEAN_KEY: human},
                answer=f"UNPARSED: no <score> · human {human:.2f}",
                reason=UNPARSED,
                explanation=f"Unparsed: {UNPARSED}. The reply ends: '{ending}'. "
                f"Human mean {human:.2f} ({ratings}).",
                metadata=meta,
            )
        return Score(
            value={RATING_KEY: float(rating), HUMAN_MEAN_KEY: human},
            # The list shows the judge's score in its own column: the answer says how
            # it stands against the humans', which is what a user reads the row for.
            answer=f"judge {rating} vs human {human:.2f} ({rating - human:+.2f})",
            explanation=f"Judge {rating}; human mean {human:.2f} ({ratings}); judge minus human "
            f"{rating - human:+.2f}.",
            metadata=meta,
        )

    return score
