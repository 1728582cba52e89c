"""The `fact_check` scorer: each side's claims audited against the debate's own record.

One call to the judge role's first model, over the same blind view as the
rubric. Claims are attributed to a side through the turn they name, never
through anything the judge says about sides. Counts and rates are numbers:
each side's contradicted claims and the share of unverifiable citations in
the score's value (the sample list shows them), the rest in its figures (see
`judging.figures`); the ledger itself is metadata.
"""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

from inspect_ai.log import transcript
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import span

from debatebench_eval.core.options import scorer_taker
from debatebench_eval.judging.blind import Orientation, blind_orientation, view_fields
from debatebench_eval.judging.explain import ledger_explanation
from debatebench_eval.judging.figures import FIGURES_KEY, split_figures
from debatebench_eval.judging.gate import guard, judge_trust
from debatebench_eval.judging.ledger import (
    REPLY_SHAPE,
    VERDICTS,
    Claim,
    Ledger,
    check_fact_check,
    fact_check_prompts,
    reply_schema,
)
from debatebench_eval.judging.metrics import claims_supported, figure_stats, value_stats
from debatebench_eval.judging.options import JudgingOptions, judge_models
from debatebench_eval.judging.score_schema import unscored_answer
from debatebench_eval.judging.structured import Exchange, ask_judge
from debatebench_eval.record.protocol import SIDES
from debatebench_eval.record.store import DebateRecord

FACT_CHECK_KEYS = (
    *(f"{side}_{name}" for side in SIDES for name in ("claims", *VERDICTS)),
    *(f"{side}_{verdict}_rate" for side in SIDES for verdict in VERDICTS),
    "citations", "unverifiable_citations", "unverifiable_citation_pct", "repairs",
)  # fmt: skip
# The keys of the score's value, in the sample list's order; the rest are figures.
FACT_CHECK_LISTED = ("pro_contradicted", "con_contradicted", "unverifiable_citation_pct")


# The terminal's headline (claims supported, unverifiable citations); every figure is
# the report's (`FACT_CHECK_FIGURES`).
FACT_CHECK_HEADLINE = [claims_supported(), value_stats(("unverifiable_citation_pct",), False)]
FACT_CHECK_FIGURES = [value_stats(FACT_CHECK_LISTED), figure_stats()]


@scorer(metrics=FACT_CHECK_HEADLINE)
def fact_check(**judging: Any) -> Scorer:
    """Audit every claim against the debate's record (passages and turns) with the judge role.

    Takes the judge's settings as options of their own (-S judge_budget=900; keys:
    `debatebench-eval list`); it reads judge_budget, judge_schema, strict_judge and
    require_validated_judge.
    """
    options = JudgingOptions.parse(judging, scorer_taker("fact_check"))
    budget, mode = options.judge_budget, options.judge_schema
    strict, required = options.strict_judge, options.require_validated_judge
    prompts = fact_check_prompts()

    async def ask(judge: Model, record: DebateRecord, orientation: Orientation) -> Exchange[Ledger]:
        assert record.run is not None
        return await ask_judge(
            judge,
            fact_check_messages(record, orientation),
            budget=budget,
            seed=record.run.seed,
            schema=reply_schema(record, orientation, budget),
            name="ledger",
            mode=mode,
            check=lambda reply: check_fact_check(reply, record, orientation, budget),
            repair_template=prompts.repair,
        )

    async def score(state: TaskState, target: Target) -> Score | None:
        record = state.store_as(DebateRecord)
        if record.run is None or not record.complete:
            return None
        judge = judge_models()[0]
        warnings = guard([judge], record, strict)
        trust = await judge_trust([judge], required, options.require_human_kappa)
        orientation = blind_orientation(record.run.seed)
        async with span(f"fact-check: {judge}", type="judge"):
            transcript().info(
                f"Fact-check by {judge}: Side A is {orientation.a.upper()}, "
                f"Side B is {orientation.b.upper()}.",
                source="debatebench",
            )
            exchange = await ask(judge, record, orientation)
        meta = {
            "judge": str(judge),
            "judge_warnings": warnings,
            "trust": trust,
            "blind": orientation.as_dict(),
            "exchange": exchange.record(),
        }
        if exchange.result is None:
            return Score.unscored(
                reason=exchange.failure,
                answer=unscored_answer(f"fact-check: {exchange.failure}"),
                metadata=meta,
            )
        ledger = exchange.result
        value, figures = split_figures(
            ledger_value(ledger.claims, exchange.repairs), FACT_CHECK_LISTED
        )
        return Score(
            value=value,
            explanation=ledger_explanation(ledger, record),
            metadata={
                **meta,
                "ledger": [_claim_record(c) for c in ledger.claims],
                "no_claims": ledger.no_claims,
                FIGURES_KEY: figures,
            },
        )

    return score


def fact_check_messages(record: DebateRecord, orientation: Orientation) -> list[ChatMessage]:
    """What the fact-check sends the judge (the debate's context check plans it too)."""
    prompts = fact_check_prompts()
    prompt = prompts.prompt.format(**view_fields(record, orientation), shape=REPLY_SHAPE)
    return [ChatMessageSystem(content=prompts.system), ChatMessageUser(content=prompt)]


def ledger_value(claims: list[Claim], repairs: int) -> dict[str, float]:
    value: dict[str, float] = {}
    for side in SIDES:
        own = [c for c in claims if c.side == side]
        value[f"{side}_claims"] = float(len(own))
        for verdict in VERDICTS:
            count = sum(c.verdict == verdict for c in own)
            value[f"{side}_{verdict}"] = float(count)
            value[f"{side}_{verdict}_rate"] = count / len(own) if own else math.nan
    citations = [cite for c in claims for cite in c.citations]
    unverifiable = sum(not cite.verified for cite in citations)
    value.update(
        citations=float(len(citations)),
        unverifiable_citations=float(unverifiable),
        unverifiable_citation_pct=(
            round(100 * unverifiable / len(citations), 1) if citations else math.nan
        ),
        repairs=float(repairs),
    )
    return {key: value[key] for key in FACT_CHECK_KEYS}


def _claim_record(claim: Claim) -> dict[str, Any]:
    data = asdict(claim)
    for cite, original in zip(data["citations"], claim.citations, strict=True):
        cite["verified"] = original.verified
    return data
