"""The `rubric_sensitivity` scorer: the `rubric` scorer, unchanged, on the sensitivity set.

Each sample is one debate of the set (a reference or a variant), loaded into
the DebateRecord store as the `judge` task loads a transcript; the rubric
scorer judges it exactly as it judges any debate (blind, order-swapped,
panels allowed). Its score is kept whole, with the variant's place in its
pair added; the metric pairs each variant with its reference. A debate the
rubric could not score keeps its reason, lowers the parse rate, and leaves
its pairs out of the figures (counted in `pairs` but not `pairs_judged`).
"""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from debatebench_eval.core.options import scorer_taker
from debatebench_eval.judging.figures import figures_of
from debatebench_eval.judging.options import JudgingOptions, judge_models
from debatebench_eval.judging.rubric_scorer import rubric
from debatebench_eval.judging.score_schema import rubric_keys
from debatebench_eval.trust.records import judge_identity
from debatebench_eval.validation.degradations import describe
from debatebench_eval.validation.sensitivity_stats import (
    SensitivitySummary,
    pair_outcome,
    summarise_pairs,
)

# The rubric's settings on the sensitivity set: no model debated it, so a strict
# judge is moot, and the set is the rubric's, so no fact-check runs.
SENSITIVITY_JUDGING = (
    "rubric", "swap_judging", "judge_budget", "judge_quorum", "judge_schema",
    "resolved_margin", "leaning_margin", "require_validated_judge",
)  # fmt: skip


@metric
def sensitivity_stats() -> Metric:
    """The check's headline: the share of pairs where the degraded side fell on every
    stated dimension and lost, with its Wilson CI beside chance; the loss rate, the
    unchanged side's movement, the swap-flip rate, parse rate and pairs judged. Each
    degradation's figures are in `debatebench-eval report` and `trust` (the same
    summary, read from the samples)."""

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        found = summarise_scores([s.score for s in scores]).as_metrics()
        return {key: value for key, value in found.items() if key in HEADLINE}

    return compute


def summarise_scores(scores: list[Score]) -> SensitivitySummary:
    """The figures from the scores of one run (also used on saved logs)."""
    judged: dict[str, dict[str, float]] = {}
    variants = []
    for score in scores:
        meta = score.metadata or {}
        variant = meta.get("variant") or {}
        value = score.value if isinstance(score.value, dict) else {}
        if value.get("parsed") == 1:
            judged[variant["sample_id"]] = value
        if variant.get("reference"):
            variants.append(variant)
    designs = [(s.metadata or {}).get("design") for s in scores]
    design: dict[str, Any] = next((d for d in designs if d), {})
    outcomes = [
        pair_outcome(
            v["sample_id"],
            v["kind"],
            v["side"],
            v["must_fall"],
            design["dimensions"],
            judged[v["reference"]],
            judged[v["sample_id"]],
        )
        for v in variants
        if v["sample_id"] in judged and v["reference"] in judged
    ]
    return summarise_pairs(
        outcomes,
        samples=len(scores),
        parsed=len(judged),
        pairs=len(variants),
        flips=[v["swap_flipped"] for v in judged.values()],
        must_fall={v["kind"]: v["must_fall"] for v in variants},
        maxima=design.get("maxima", {}),
        tiebreak=design.get("tiebreak", "steelman_fidelity"),
        readings=2 if design.get("swap_judging", True) else 1,
    )


# What the end of a run prints; every figure is the report's.
HEADLINE = (
    "sensitivity", "sensitivity_low", "sensitivity_high", "chance.all", "loss_rate",
    "unchanged_moved", "swap_flip_rate", "parse_rate", "pairs_judged",
)  # fmt: skip


@scorer(metrics=[sensitivity_stats()])
def rubric_sensitivity(**judging: Any) -> Scorer:
    """The rubric scorer's scores of each debate of the sensitivity set, paired by the metric.

    Takes the judge's settings as options of their own (-S judge_budget=4000), as
    `rubric`, without strict_judge: no model debated the set.
    """
    options = JudgingOptions.parse(judging, scorer_taker("rubric_sensitivity"))
    judge = rubric(**options.given_values())
    keys = rubric_keys(options.rubric)
    design = {
        "dimensions": list(options.rubric.names),
        "maxima": {d.name: d.max for d in options.rubric.dimensions},
        "tiebreak": options.rubric.tiebreak,
        "swap_judging": options.swap_judging,
    }

    async def score(state: TaskState, target: Target) -> Score | None:
        judged = await judge(state, target)
        if judged is None:
            return None
        variant = {"sample_id": str(state.sample_id), **state.metadata.get("variant", {})}
        meta = {**(judged.metadata or {}), "variant": variant, "design": design}
        # Asked of the server during the run, so a trust record names the model that answered.
        meta["judge_identities"] = [asdict(await judge_identity(j)) for j in judge_models()]
        if not isinstance(judged.value, dict):
            value = dict.fromkeys(keys, math.nan) | {"parsed": 0.0}
            return Score(value=value, explanation=judged.reason, metadata=meta)
        # Every rubric figure in the value: the pair statistics compare dimensions,
        # and this task's log keeps the shape it had before the rubric split its score.
        every = figures_of(judged)
        return Score(
            value={**{key: every[key] for key in keys}, "parsed": 1.0},
            answer=judged.answer,
            explanation=f"*{describe(variant)}*\n\n{judged.explanation}",
            metadata=meta,
        )

    return score
