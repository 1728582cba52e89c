"""The `crucible_score` scorer: blind per-claim panel scoring, the audit, the verdict.

Inspect glue over the rule modules: `panel` (views, reply checks, medians),
`audit` (spread flags, the meta-judge's reply), `outcome` (means, tier, keys).
It reads the CrucibleRecord store, so `inspect score` can judge a saved run
again with other judges. Options not given fall back to those the run was
made with (its record), then to the defaults.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model
from inspect_ai.scorer import SampleScore, Score, Scorer, Target, krippendorff_alpha, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import span

from debatebench_eval.core.options import scorer_taker
from debatebench_eval.judging.gate import guard_debaters, judge_trust
from debatebench_eval.judging.metrics import headline_shares, value_stats
from debatebench_eval.judging.options import judge_models
from debatebench_eval.judging.structured import Exchange
from debatebench_eval.truth_crucible import audit as audit_rules
from debatebench_eval.truth_crucible import outcome as outcomes
from debatebench_eval.truth_crucible import panel
from debatebench_eval.truth_crucible.blindview import BlindView, reading_seed
from debatebench_eval.truth_crucible.calls import Caller, Request
from debatebench_eval.truth_crucible.options import ScoringOptions, scoring_options
from debatebench_eval.truth_crucible.prompts import judge_prompts
from debatebench_eval.truth_crucible.record import SIDES, CrucibleRecord
from debatebench_eval.truth_crucible.report_text import explanation
from debatebench_eval.truth_crucible.solver import meta_judge_model, scoring_models

Reading = Exchange[panel.ClaimScores]


@dataclass
class PanelReading:
    number: int
    model: Model
    seed: int
    view: BlindView
    exchange: Reading
    rescore: dict[str, Any] | None = None
    scores: panel.ClaimScores = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return self.exchange.result is not None

    def record(self) -> dict[str, Any]:
        return {
            "reading": self.number,
            "model": str(self.model),
            "seed": self.seed,
            "orientation": self.view.orientation.as_dict(),
            "labels": self.view.labels,
            "valid": self.valid,
            "scores": {
                c: {d: {"score": s, "comment": t} for d, (s, t) in dims.items()}
                for c, dims in self.scores.items()
            },
            "exchange": self.exchange.record(),
            "failure": self.exchange.failure,
            **({"rescore": self.rescore} if self.rescore else {}),
        }


# What the end of a run prints: each side's mean score and the gap, the verdict tiers,
# the share of evidence verified and the panel's agreement. Every key's mean is in the
# sample list and the crucible's report (a row per key and its stderr was up to 68).
CRUCIBLE_MEANS = ("pro_mean", "con_mean", "gap")
CRUCIBLE_SHARES = (
    "tier_resolved", "tier_contested", "tier_unresolved", "evidence_verified_rate",
    "judge_alpha",
)  # fmt: skip


@scorer(metrics=[value_stats(CRUCIBLE_MEANS), headline_shares(CRUCIBLE_SHARES)])
def crucible_score(**judging: Any) -> Scorer:
    """Blind six-dimension scoring of every verified claim by a panel, with a meta-judge audit.

    Takes the judging settings as options of their own, e.g. -S judges=2 (keys:
    `debatebench-eval list`, the crucible's); a key not given is the run's.
    """
    given = ScoringOptions.gather(judging, scorer_taker("crucible_score"))
    if given.values:
        scoring_options(given)  # a bad -S value is one message here, before any sample

    async def score(state: TaskState, target: Target) -> Score | None:
        record = state.store_as(CrucibleRecord)
        if record.run is None or not record.complete:
            return None  # a partial debate is never scored
        options = scoring_options(given, record.run.options.get("scoring"))
        return await score_record(record, options)

    return score


async def score_record(record: CrucibleRecord, options: ScoringOptions) -> Score:
    assert record.run is not None
    judges = judge_models()
    quorum = options.judge_quorum or options.judges
    rows = [
        (s, str(record.run.models[s]["model"]), record.run.models[s]["base_url"]) for s in SIDES
    ]
    # The meta-judge's audit can change scores: it is gated and stamped like the judges.
    gated = scoring_models(judges, options.meta_judge)
    warnings = guard_debaters(gated, rows, options.strict_judge)
    trust = await judge_trust(gated, options.require_validated_judge, options.require_human_kappa)
    context: dict[str, Any] = {
        "question": record.run.question,
        "question_original": record.run.question_original,
        "options": options.as_dict(),
        "warnings": warnings,
        "trust": trust,
    }
    empty = [s for s in SIDES if not record.verified(s)]
    if empty:
        reason = (
            f"the {' and '.join(s.upper() for s in empty)} side has no claim with "
            "verified evidence: there is nothing of it to score"
        )
        return Score.unscored(reason=reason, metadata=context)
    caller = Caller(options.judge_schema)
    readings = await asyncio.gather(
        *(
            _read(record, judges[i % len(judges)], i + 1, options, caller)
            for i in range(options.judges)
        )
    )
    valid = [r for r in readings if r.valid]
    context["readings"] = [r.record() for r in readings]
    if len(valid) < quorum:
        failures = " | ".join(r.exchange.failure or "" for r in readings if not r.valid)
        return Score.unscored(
            reason=f"{len(valid)} of {options.judges} readings were valid, {quorum} needed: "
            + failures,
            metadata=context,
        )
    audit = await _audit(record, valid, options, judges, caller)
    context["readings"] = [r.record() for r in readings]
    return _scored(record, options, valid, readings, audit, context)


async def _read(
    record: CrucibleRecord,
    judge: Model,
    number: int,
    options: ScoringOptions,
    caller: Caller,
    only: list[str] | None = None,
    purpose: str = "judge",
) -> PanelReading:
    assert record.run is not None
    seed = reading_seed(record.run.seed, number, purpose)
    view = BlindView.draw(record, seed, only)
    prompts = judge_prompts()
    dims = list(prompts.dimensions)
    side_a, side_b = view.side_lines(record)
    prompt = prompts.scores.format(
        question=record.run.question,
        side_a=side_a,
        side_b=side_b,
        dimensions=prompts.dimension_text(),
        claims=panel.render_for_scoring(record, view),
        labels=", ".join(view.labels.values()),
        shape=panel.scores_shape(view, dims),
    )
    messages: list[ChatMessage] = [
        ChatMessageSystem(content=prompts.system),
        ChatMessageUser(content=prompt),
    ]
    request = Request(
        "scoring",
        "judge",
        panel.scores_schema(view, dims),
        "crucible_scores",
        options.judge_budget,
        seed,
    )
    name = f"reading {number}" if purpose == "judge" else f"rescore of reading {number}"
    async with span(name, type="scoring"):
        exchange = await caller.exchange(
            judge, messages, request, lambda r: panel.check_scores(r, view, dims), prompts.repair
        )
    return PanelReading(number, judge, seed, view, exchange, scores=exchange.result or {})


async def _audit(
    record: CrucibleRecord,
    valid: list[PanelReading],
    options: ScoringOptions,
    judges: list[Model],
    caller: Caller,
) -> dict[str, Any]:
    """The meta-judge's audit and at most one rescore (MAX_RESCORES): the audit record."""
    assert record.run is not None
    weights = judge_prompts().weights
    spans = audit_rules.flagged([r.scores for r in valid], weights, options.audit_spread)
    audit: dict[str, Any] = {"flagged": spans, "ran": False, "rescored": 0}
    if not options.meta_judge or len(valid) < 2 or not spans:
        audit["why_not"] = (
            "meta_judge is off"
            if not options.meta_judge
            else "fewer than two valid readings"
            if len(valid) < 2
            else "no claim's totals spread by audit_spread or more"
        )
        return audit
    meta = meta_judge_model(judges)
    seed = reading_seed(record.run.seed, 0, "audit")
    view = BlindView.draw(record, seed, only=list(spans))
    prompts = judge_prompts()
    prompt = prompts.audit.format(
        flagged=audit_rules.render_flagged(record, view, spans, [r.scores for r in valid]),
        shape=audit_rules.audit_shape(),
    )
    request = Request(
        "audit",
        "meta_judge",
        audit_rules.audit_schema(view, spans, len(valid)),
        "crucible_audit",
        options.judge_budget,
        seed,
    )
    async with span("meta-judge audit", type="scoring"):
        exchange = await caller.exchange(
            meta,
            [ChatMessageSystem(content=prompts.system), ChatMessageUser(content=prompt)],
            request,
            lambda reply: audit_rules.check_audit(reply, view, spans, len(valid)),
            prompts.repair,
        )
    audit.update(ran=True, model=str(meta), exchange=exchange.record(), failure=exchange.failure)
    result = exchange.result
    if result is None:
        return audit
    audit.update(consistent=result.consistent, reason=result.reason)
    if result.rescore_reading is not None:
        target = valid[result.rescore_reading]
        audit["rescored"] = audit_rules.MAX_RESCORES
        await _rescore(record, target, result, options, caller)
    return audit


async def _rescore(
    record: CrucibleRecord,
    target: PanelReading,
    audit: audit_rules.Audit,
    options: ScoringOptions,
    caller: Caller,
) -> None:
    """One reading scores the named claims again, under a fresh seed; success replaces
    its scores of them, failure keeps the originals and records why."""
    again = await _read(
        record,
        target.model,
        target.number,
        options,
        caller,
        only=audit.rescore_claims,
        purpose="rescore",
    )
    kept = {c: target.scores[c] for c in audit.rescore_claims}
    target.rescore = {
        "claims": audit.rescore_claims,
        "reason": audit.rescore_reason,
        "seed": again.seed,
        "replaced": again.valid,
        "failure": again.exchange.failure,
        "exchange": again.exchange.record(),
        "before": {c: {d: s for d, (s, _) in dims.items()} for c, dims in kept.items()},
    }
    if again.valid:
        target.scores = {**target.scores, **again.scores}


def _scored(
    record: CrucibleRecord,
    options: ScoringOptions,
    valid: list[PanelReading],
    readings: list[PanelReading],
    audit: dict[str, Any],
    context: dict[str, Any],
) -> Score:
    prompts = judge_prompts()
    dims, weights = list(prompts.dimensions), prompts.weights
    medians = panel.medians([r.scores for r in valid])
    totals = {claim: panel.weighted_total(m, weights) for claim, m in medians.items()}
    sides = {c.id: c.side for c in record.claims}
    means = {s: panel.side_mean(totals, sides, s) for s in SIDES}
    outcome = outcomes.decide(
        {s: float(m) for s, m in means.items() if m is not None},
        options.resolved_margin,
        options.leaning_margin,
    )
    value = {
        **outcomes.outcome_value(outcome),
        **outcomes.side_dimensions(medians, sides, dims),
        **outcomes.record_value(record),
        "judges": float(len(valid)),
        "judge_alpha": _alpha(valid, dims),
        "repairs": float(sum(r.exchange.repairs for r in readings)),
        "rescored": float(audit["rescored"]),
    }
    value = {key: value[key] for key in outcomes.score_keys(dims)}
    claims = {
        c: {"medians": medians[c], "weighted_total": totals[c], "side": sides[c]} for c in medians
    }
    metadata = {
        **context,
        "tier": outcome.tier,
        "leading": outcome.leading,
        "verdict": outcome.line(),
        "claims": claims,
        "audit": audit,
        "weights": weights,
    }
    return Score(
        value=value,
        answer=outcome.answer(),
        explanation=explanation(record, metadata),
        metadata=metadata,
    )


def _alpha(valid: list[PanelReading], dims: list[str]) -> float:
    """Krippendorff's alpha (interval) among the readings over every (claim, dimension)."""
    if len(valid) < 2:
        return math.nan
    units = [[float(r.scores[c][d][0]) for r in valid] for c in valid[0].scores for d in dims]
    alpha = krippendorff_alpha(level="interval")
    result = alpha([SampleScore(score=Score(value=unit)) for unit in units])  # type: ignore[misc]
    return float(result)  # type: ignore[arg-type]
