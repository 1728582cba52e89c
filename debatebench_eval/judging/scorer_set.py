"""The judging scorers a task runs, assembled from its options.

Above the scorers in the layering: the debate and judge tasks call this, and
the scorers themselves import only the options below them.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspect_ai.log import HeadlineMetric
from inspect_ai.scorer import Scorer

from debatebench_eval.judging.fact_check import FACT_CHECK_LISTED, fact_check
from debatebench_eval.judging.options import JudgingOptions
from debatebench_eval.judging.rubric_scorer import rubric
from debatebench_eval.judging.score_schema import RUBRIC_LISTED

# What a debate log's listing shows first: the rubric's first metric, the `pro`
# role's model's win rate, named for it (`win_rate.MODEL`; both sides pooled in
# a paired run: the head-to-head result), or with one model on both sides the
# pro side's share of wins (`pro_side_win_rate`). See `metrics.model_win_rate`.
HEADLINE_METRIC = HeadlineMetric(scorer="rubric", score="rubric")


@dataclass(frozen=True)
class Judging:
    """A task's judging scorers, and the keys of each one's score value (for the viewer);
    with the checked options and whether the fact-check runs (for the context check)."""

    scorers: list[Scorer]
    score_keys: dict[str, tuple[str, ...]]
    options: JudgingOptions
    fact_check: bool


def judging_scorers(options: JudgingOptions) -> Judging:
    """The rubric scorer, and the fact-check unless turned off, from the checked options."""
    keys: dict[str, tuple[str, ...]] = {"rubric": RUBRIC_LISTED}
    run_fact_check = options.fact_check is not False
    # Given as options, so the log records them and `inspect score` builds them again.
    given = options.given_values()
    scorers = [rubric(**given)]
    if run_fact_check:
        keys["fact_check"] = FACT_CHECK_LISTED
        scorers.append(fact_check(**given))
    return Judging(scorers, keys, options, run_fact_check)
