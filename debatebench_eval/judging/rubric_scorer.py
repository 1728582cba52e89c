"""The `rubric` scorer: blind, order-swapped, optionally panel judging of a debate.

Inspect glue only. The rules live in plain modules: the rubric and reply
checks in `rubric`, the judge's view in `blind`, the repair loop in
`structured`, aggregation and the winner in `verdict`, the score's fixed keys
in `score_schema`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from inspect_ai.log import transcript
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import span

from debatebench_eval.core.options import scorer_taker
from debatebench_eval.judging import score_schema as schema
from debatebench_eval.judging.blind import Orientation, blind_orientation, view_fields
from debatebench_eval.judging.explain import rubric_explanation
from debatebench_eval.judging.figures import FIGURES_KEY, split_figures
from debatebench_eval.judging.gate import check_quorum, guard, judge_trust
from debatebench_eval.judging.metrics import (
    figure_stats,
    listed_metrics,
    model_win_rate,
    panel_alpha,
)
from debatebench_eval.judging.options import JudgingOptions, judge_models
from debatebench_eval.judging.rubric import (
    Rubric,
    SideJudgment,
    check_judgment,
    reply_schema,
    reply_shape,
    rubric_text,
)
from debatebench_eval.judging.structured import Exchange, ask_judge
from debatebench_eval.judging.verdict import (
    SideScores,
    decide,
    mean_scores,
    median_scores,
    stance_violations,
)
from debatebench_eval.record.store import DebateRecord

Reading = Exchange[dict[str, SideJudgment]]


# The win rates first: the first metric of the first scorer is the log's headline.
@scorer(
    metrics=[
        model_win_rate(),
        panel_alpha(),
        figure_stats(),
        listed_metrics(schema.RUBRIC_LISTED),
    ]
)
def rubric(judging: JudgingOptions | dict[str, Any] | None = None, **unknown: Any) -> Scorer:
    """Five-dimension rubric judging by the `judge` role (a panel when it lists several models).

    Args:
        judging: The judge's settings as one mapping, e.g. judging="{judge_budget: 900,
            swap_judging: false}" (keys: `debatebench-eval list`); each key is also
            accepted as an option of its own (-S judge_budget=900).
    """
    options = JudgingOptions.parse(judging, unknown, scorer_taker("rubric"))

    async def score(state: TaskState, target: Target) -> Score | None:
        record = state.store_as(DebateRecord)
        if record.run is None or not record.complete:
            return None  # a partial debate is never scored
        judges = judge_models()
        check_quorum(judges, options.judge_quorum)
        warnings = guard(judges, record, options.strict_judge)
        trust = await judge_trust(judges, options.require_validated_judge)
        first = blind_orientation(record.run.seed)
        orientations = [first, first.swapped()] if options.swap_judging else [first]
        readings = await asyncio.gather(
            *(
                _judge_once(judge, record, orientation, options, number)
                for judge in judges
                for number, orientation in enumerate(orientations, 1)
            )
        )
        per_judge = [
            list(readings[i : i + len(orientations)])
            for i in range(0, len(readings), len(orientations))
        ]
        return _score(record, judges, orientations, per_judge, options, warnings, trust)

    return score


async def _judge_once(
    judge: Model,
    record: DebateRecord,
    orientation: Orientation,
    options: JudgingOptions,
    number: int,
) -> Reading:
    """One reading, in a span the transcript names (the judge, the reading, its mapping)."""
    name = f"rubric: {judge}, reading {number} (Side A = {orientation.a.upper()})"
    async with span(name, type="judge"):
        # Said in the transcript, where the judge's own prompt speaks only of A and B.
        transcript().info(
            f"Rubric reading {number} by {judge}: Side A is {orientation.a.upper()}, "
            f"Side B is {orientation.b.upper()}.",
            source="debatebench",
        )
        return await _ask_rubric(judge, record, orientation, options)


async def _ask_rubric(
    judge: Model, record: DebateRecord, orientation: Orientation, options: JudgingOptions
) -> Reading:
    assert record.run is not None
    rubric = options.rubric
    return await ask_judge(
        judge,
        rubric_messages(record, orientation, rubric),
        budget=options.judge_budget,
        seed=record.run.seed,
        schema=reply_schema(rubric, options.judge_budget),
        name="judgment",
        mode=options.judge_schema,
        check=lambda reply: _checked(reply, options),
        repair_template=rubric.repair,
    )


def rubric_messages(
    record: DebateRecord, orientation: Orientation, rubric: Rubric
) -> list[ChatMessage]:
    """What one rubric reading sends the judge (the debate's context check plans it too)."""
    prompt = rubric.prompt.format(
        **view_fields(record, orientation), rubric=rubric_text(rubric), shape=reply_shape(rubric)
    )
    return [ChatMessageSystem(content=rubric.system), ChatMessageUser(content=prompt)]


def _checked(
    reply: Any, options: JudgingOptions
) -> tuple[dict[str, SideJudgment] | None, list[str]]:
    judgments, problems = check_judgment(reply, options.rubric, options.judge_budget)
    return (judgments or None), problems


def _score(
    record: DebateRecord,
    judges: list[Model],
    orientations: list[Orientation],
    per_judge: list[list[Reading]],
    options: JudgingOptions,
    warnings: list[str],
    trust: dict[str, Any],
) -> Score:
    assert record.run is not None
    seed = record.run.seed
    quorum = options.judge_quorum or len(judges)
    records = [
        schema.judge_record(judge, orientations, readings, options.rubric, seed)
        for judge, readings in zip(judges, per_judge, strict=True)
    ]
    context = schema.context(record, judges, options, warnings, records, orientations[0])
    valid = [i for i, judge_record in enumerate(records) if judge_record["valid"]]
    if len(valid) < quorum:
        failures = schema.reading_failures(orientations, per_judge)
        reason = f"{len(valid)} of {len(judges)} judges gave a valid score, {quorum} needed: " + (
            " | ".join(failures) or "none failed outright"
        )
        return Score.unscored(
            reason=reason,
            answer=schema.unscored_answer(reason),
            metadata={**context, "trust": trust},
        )
    combined = median_scores([_judge_mean(per_judge[i], orientations) for i in valid])
    stances = [
        schema.unblind_stances(reading.result, orientation)
        for i in valid
        for reading, orientation in zip(per_judge[i], orientations, strict=True)
        if reading.result is not None
    ]
    violations = stance_violations(stances)
    verdict = decide(
        combined, options.rubric.tiebreak, seed, options.resolved_margin, options.leaning_margin,
        switched=frozenset(side for side, switched in violations.items() if switched),
    )  # fmt: skip
    flips = [bool(records[i]["swap_flipped"]) for i in valid] if options.swap_judging else None
    every = schema.rubric_value(
        options.rubric,
        combined,
        verdict,
        record,
        flips,
        violations,
        judges=len(valid),
        repairs=sum(r.repairs for readings in per_judge for r in readings),
    )
    value, figures = split_figures(every, schema.RUBRIC_LISTED)
    details = schema.side_details(
        record, options.rubric, combined, records, per_judge, orientations
    )
    metadata = {
        **context,
        **schema.verdict_metadata(record, verdict),
        "stance": schema.stance_summary(stances, violations),
        "sides": details,
        "trust": trust,
        FIGURES_KEY: figures,
    }
    return Score(
        value=value,
        answer=schema.answer(verdict, record),
        explanation=rubric_explanation(metadata, options.rubric, verdict),
        metadata=metadata,
    )


def _judge_mean(readings: list[Reading], orientations: list[Orientation]) -> SideScores:
    """One judge's orientations averaged (the first step of aggregation)."""
    return mean_scores(
        [
            schema.unblind(reading.result, orientation)
            for reading, orientation in zip(readings, orientations, strict=True)
            if reading.result is not None
        ]
    )
