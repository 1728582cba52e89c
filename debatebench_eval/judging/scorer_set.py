"""The judging scorers a task runs, assembled from its options.

Above the scorers in the layering: the debate and judge tasks call this, and
the scorers themselves import only the options below them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspect_ai.log import HeadlineMetric
from inspect_ai.scorer import Scorer

from debatebench_eval.core import arguments as arg
from debatebench_eval.judging.fact_check import FACT_CHECK_LISTED, fact_check
from debatebench_eval.judging.options import JudgeOptions, judge_options
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
    options: JudgeOptions
    fact_check: bool


def judging_scorers(
    given: dict[str, Any], default_budget: int | None = None, default_fact_check: bool = True
) -> Judging:
    """The rubric scorer, and the fact-check unless turned off, from task options."""
    options = {k: v for k, v in given.items() if k != "fact_check"}
    if options.get("judge_budget") is None:
        options["judge_budget"] = default_budget
    # Checked here, so a bad value is named as the task's -T.
    checked_options = judge_options(**options)
    keys: dict[str, tuple[str, ...]] = {"rubric": RUBRIC_LISTED}
    checked = given.get("fact_check")
    run_fact_check = default_fact_check if checked is None else arg.as_bool("fact_check", checked)
    scorers = [rubric(**options)]
    if run_fact_check:
        keys["fact_check"] = FACT_CHECK_LISTED
        scorers.append(
            fact_check(
                judge_budget=options["judge_budget"],
                judge_schema=options.get("judge_schema", "auto"),
                strict_judge=options.get("strict_judge", False),
                require_validated_judge=options.get("require_validated_judge", False),
            )
        )
    return Judging(scorers, keys, checked_options, run_fact_check)
