"""The `rubric` scorer: blind, order-swapped, optionally panel judging of a debate.

Inspect glue only. The rules live in plain modules: the rubric and reply
checks in `rubric`, the judge's view in `blind`, the repair loop in
`structured`, aggregation and the winner in `verdict`, the score's fixed keys
in `score_schema`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspect_ai.log import transcript
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import span

from debatebench_eval.core.options import scorer_taker
from debatebench_eval.core.seeds import repeat_seed
from debatebench_eval.judging import score_schema as schema
from debatebench_eval.judging.blind import Orientation, blind_orientation, view_fields
from debatebench_eval.judging.explain import rubric_explanation
from debatebench_eval.judging.figures import FIGURES_KEY, split_figures
from debatebench_eval.judging.gate import (
    check_quorum,
    debaters,
    family_clashes,
    guard,
    judge_trust,
)
from debatebench_eval.judging.metrics import (
    figure_stats,
    headline_shares,
    judge_reliability,
    model_win_rate,
    panel_alpha,
    value_stats,
)
from debatebench_eval.judging.options import JudgingOptions, judge_models
from debatebench_eval.judging.repeats import REPEAT_KEY, combine_repeats, repeat_figures
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
    Verdict,
    decide,
    mean_scores,
    median_scores,
    stance_violations,
    survive,
)
from debatebench_eval.record.protocol import Side
from debatebench_eval.record.store import DebateRecord

Reading = Exchange[dict[str, SideJudgment]]


# The win rates first: the first metric of the first scorer is the log's headline. The
# terminal shows the headline figures; `RUBRIC_FIGURES` (every one) is the report's.
RUBRIC_HEADLINE = [
    model_win_rate(),
    value_stats(("margin",)),
    headline_shares(schema.RUBRIC_HEADLINE_SHARES),
]
RUBRIC_FIGURES = [
    model_win_rate(),
    value_stats(schema.RUBRIC_LISTED),
    panel_alpha(),
    judge_reliability(),
    figure_stats(),
]


@scorer(metrics=RUBRIC_HEADLINE)
def rubric(**judging: Any) -> Scorer:
    """Five-dimension rubric judging by the `judge` role (a panel when it lists several models).

    Takes the judge's settings as options of their own, e.g. -S judge_budget=900
    -S swap_judging=false (keys: `debatebench-eval list`).
    """
    options = JudgingOptions.parse(judging, scorer_taker("rubric"))

    async def score(state: TaskState, target: Target) -> Score | None:
        record = state.store_as(DebateRecord)
        if record.run is None or not record.complete:
            return None  # a partial debate is never scored
        judges = judge_models()
        check_quorum(judges, options.judge_quorum)
        warnings = guard(judges, record, options.strict_judge)
        trust = await judge_trust(
            judges, options.require_validated_judge, options.require_human_kappa
        )
        first = blind_orientation(record.run.seed)
        orientations = [first, first.swapped()] if options.swap_judging else [first]
        slots = judge_slots(judges, record.run.seed, options.judge_repeats)
        readings = await asyncio.gather(
            *(
                _judge_once(slot, record, orientation, options, number)
                for slot in slots
                for number, orientation in enumerate(orientations, 1)
            )
        )
        per_slot = [
            list(readings[i : i + len(orientations)])
            for i in range(0, len(readings), len(orientations))
        ]
        return _score(record, judges, slots, orientations, per_slot, options, warnings, trust)

    return score


@dataclass(frozen=True)
class Slot:
    """One judge's repeat: its number (1 to k; 0 when judging is not repeated) and seed."""

    judge: Model
    repeat: int
    seed: int

    @property
    def label(self) -> str:
        return f"{self.judge}, repeat {self.repeat}" if self.repeat else str(self.judge)


def judge_slots(judges: list[Model], seed: int, repeats: int) -> list[Slot]:
    """Every judge's repeats, judge by judge; one repeat is the debate's seed, unnumbered."""
    if repeats == 1:
        return [Slot(judge, 0, seed) for judge in judges]
    return [
        Slot(judge, repeat, repeat_seed(seed, repeat))
        for judge in judges
        for repeat in range(1, repeats + 1)
    ]


async def _judge_once(
    slot: Slot,
    record: DebateRecord,
    orientation: Orientation,
    options: JudgingOptions,
    number: int,
) -> Reading:
    """One reading, in a span the transcript names (the judge, the reading, its mapping)."""
    name = f"rubric: {slot.label}, reading {number} (Side A = {orientation.a.upper()})"
    async with span(name, type="judge"):
        # Said in the transcript, where the judge's own prompt speaks only of A and B.
        transcript().info(
            f"Rubric reading {number} by {slot.label}: Side A is {orientation.a.upper()}, "
            f"Side B is {orientation.b.upper()}.",
            source="debatebench",
        )
        return await _ask_rubric(slot, record, orientation, options)


async def _ask_rubric(
    slot: Slot, record: DebateRecord, orientation: Orientation, options: JudgingOptions
) -> Reading:
    rubric = options.rubric
    return await ask_judge(
        slot.judge,
        rubric_messages(record, orientation, rubric),
        budget=options.judge_budget,
        seed=slot.seed,
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
    slots: list[Slot],
    orientations: list[Orientation],
    per_slot: list[list[Reading]],
    options: JudgingOptions,
    warnings: list[str],
    trust: dict[str, Any],
) -> Score:
    assert record.run is not None
    seed = record.run.seed
    quorum = options.judge_quorum or len(judges)
    records = [
        _slot_record(slot, orientations, readings, options, seed)
        for slot, readings in zip(slots, per_slot, strict=True)
    ]
    context = schema.context(record, judges, options, warnings, records, orientations[0])
    if kin := family_clashes(judges, debaters(record)):
        # Its own key, only when there is one: `judge_warnings` says "self-judged".
        context["judge_family_warnings"] = kin
    if options.swap_rule != "mean":
        context["swap_rule"] = options.swap_rule
    per_judge = _per_judge(slots, per_slot, records)
    valid = [i for i, judge in enumerate(per_judge) if all(r["valid"] for r, _ in judge)]
    if len(valid) < quorum:
        failures = schema.reading_failures(orientations, per_slot)
        reason = f"{len(valid)} of {len(judges)} judges gave a valid score, {quorum} needed: " + (
            " | ".join(failures) or "none failed outright"
        )
        return Score.unscored(
            reason=reason,
            answer=schema.unscored_answer(reason),
            metadata={**context, "trust": trust},
        )
    used = [(r, readings) for i in valid for r, readings in per_judge[i]]
    combined = _panel(per_judge, valid, lambda readings: _judge_mean(readings, orientations))
    stances = [
        schema.unblind_stances(reading.result, orientation)
        for _, readings in used
        for reading, orientation in zip(readings, orientations, strict=True)
        if reading.result is not None
    ]
    violations = stance_violations(stances)
    switched = frozenset(side for side, switched in violations.items() if switched)
    verdict = _decide(combined, options, seed, switched)
    extra: dict[str, Any] = {}
    if options.swap_rule == "survive":
        verdict, extra["swap_survival"] = _survive(verdict, per_judge, valid, orientations,
                                                   options, seed, switched)  # fmt: skip
    flips = [bool(r["swap_flipped"]) for r, _ in used] if options.swap_judging else None
    every = schema.rubric_value(
        options.rubric,
        combined,
        verdict,
        record,
        flips,
        violations,
        judges=len(valid),
        repairs=sum(r.repairs for readings in per_slot for r in readings),
    )
    if options.judge_repeats > 1:
        every.update(_repeat_figures(per_judge, valid, orientations, options))
        extra["judge_repeats"] = {"k": options.judge_repeats, "seeds": [s.seed for s in slots[
            : options.judge_repeats]]}  # fmt: skip
    value, figures = split_figures(every, schema.RUBRIC_LISTED)
    figures.update(schema.speech_figures(record))
    details = schema.side_details(record, options.rubric, combined, records, per_slot, orientations)
    metadata = {
        **context,
        **extra,
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


def _slot_record(
    slot: Slot,
    orientations: list[Orientation],
    readings: list[Reading],
    options: JudgingOptions,
    seed: int,
) -> dict[str, Any]:
    """The judge record of one repeat, numbered and with its seed when repeated."""
    record = schema.judge_record(slot.judge, orientations, readings, options.rubric, seed)
    return {**record, REPEAT_KEY: slot.repeat, "seed": slot.seed} if slot.repeat else record


JudgeReadings = list[tuple[dict[str, Any], list[Reading]]]


def _per_judge(
    slots: list[Slot], per_slot: list[list[Reading]], records: list[dict[str, Any]]
) -> list[JudgeReadings]:
    """Each judge's repeats (record and readings), in the panel's order."""
    grouped: list[JudgeReadings] = []
    for slot, readings, record in zip(slots, per_slot, records, strict=True):
        if slot.repeat <= 1:
            grouped.append([])
        grouped[-1].append((record, readings))
    return grouped


def _panel(
    per_judge: list[JudgeReadings], valid: list[int], reading: Callable[[list[Reading]], SideScores]
) -> SideScores:
    """The panel median across valid judges of each judge's median across its repeats."""
    return median_scores(
        [combine_repeats([reading(readings) for _, readings in per_judge[i]]) for i in valid]
    )


def _decide(
    scores: SideScores, options: JudgingOptions, seed: int, switched: frozenset[Side]
) -> Verdict:
    return decide(
        scores, options.rubric.tiebreak, seed, options.resolved_margin, options.leaning_margin,
        switched=switched,
    )  # fmt: skip


def _survive(
    verdict: Verdict,
    per_judge: list[JudgeReadings],
    valid: list[int],
    orientations: list[Orientation],
    options: JudgingOptions,
    seed: int,
    switched: frozenset[Side],
) -> tuple[Verdict, dict[str, Any]]:
    """swap_rule=survive over the panel's reading of each orientation on its own."""
    oriented = [
        _decide(_panel(per_judge, valid, _oriented(index, orientation)), options, seed, frozenset())
        for index, orientation in enumerate(orientations)
    ]
    decided = survive(verdict, oriented)
    return decided, {
        "rule": "survive",
        "orientation_winners": [
            {"blind": o.as_dict(), "winner": v.winner} for o, v in zip(orientations, oriented,
                                                                        strict=True)
        ],
        "survived": decided.winner is not None,
    }  # fmt: skip


def _oriented(index: int, orientation: Orientation) -> Callable[[list[Reading]], SideScores]:
    """A judge's reading of one orientation alone, unblinded."""

    def reading(readings: list[Reading]) -> SideScores:
        found = readings[index].result
        assert found is not None
        return schema.unblind(found, orientation)

    return reading


def _repeat_figures(
    per_judge: list[JudgeReadings],
    valid: list[int],
    orientations: list[Orientation],
    options: JudgingOptions,
) -> dict[str, float]:
    """The panel's scores repeat by repeat, then the repeat figures (judging.repeats)."""
    by_repeat = [
        median_scores([_judge_mean(per_judge[i][r][1], orientations) for i in valid])
        for r in range(options.judge_repeats)
    ]
    return repeat_figures(by_repeat, options.rubric.names)


def _judge_mean(readings: list[Reading], orientations: list[Orientation]) -> SideScores:
    """One judge's orientations averaged (the first step of aggregation)."""
    return mean_scores(
        [
            schema.unblind(reading.result, orientation)
            for reading, orientation in zip(readings, orientations, strict=True)
            if reading.result is not None
        ]
    )
