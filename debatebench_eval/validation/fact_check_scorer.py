"""The `planted_claims` scorer: the `fact_check` scorer, unchanged, read against the answer key.

Each sample is one debate of the fact-check validation set, loaded into the
DebateRecord store as the `judge` task loads a transcript; the planted claims
travel in the sample's metadata. The fact-check scorer judges the debate as it
judges any debate; this scorer then matches its ledger to the planted claims
(claim_matching) and its metric computes the figures (claim_stats). A reply
the fact-check could not use is kept, with its reason, as an unparsed debate:
it lowers the parse rate and no other figure sees it.
"""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from debatebench_eval.core.options import scorer_taker
from debatebench_eval.judging.fact_check import fact_check
from debatebench_eval.judging.options import JudgingOptions, judge_models
from debatebench_eval.trust.records import judge_identity
from debatebench_eval.validation.claim_matching import ClaimOutcome, match_ledger
from debatebench_eval.validation.claim_stats import DebateOutcome, summarise_claims
from debatebench_eval.validation.planted_set import PlantedClaim

# The judging settings the planted-claims check reads (a strict judge is moot: no
# model debated the planted set).
PLANTED_JUDGING = ("judge_budget", "judge_schema", "require_validated_judge")

VALUE_KEYS = ("parsed", "planted", "found", "correct", "extras")


@metric
def planted_claim_stats() -> Metric:
    """The check's headline: macro-F1 with its CI beside the random baseline, claim
    recall, citation accuracy, parse rate and the claims planted. Per-verdict precision
    and recall, the confusion matrix and the other baselines are in
    `debatebench-eval report` and `trust` (the same summary, read from the samples)."""

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        if not scores:  # Inspect asks before the first sample is scored
            return {"macro_f1": math.nan}
        found = summarise_claims([debate_outcome(s.score, s.sample_id) for s in scores])
        return {key: value for key, value in found.as_metrics().items() if key in HEADLINE}

    return compute


def debate_outcome(score: Score, debate: str | int | None) -> DebateOutcome:
    """One scored debate as the statistics read it (also used on saved logs)."""
    value = score.value if isinstance(score.value, dict) else {}
    meta = score.metadata or {}
    if value.get("parsed") != 1:
        return DebateOutcome(str(debate), parsed=False)
    claims = [ClaimOutcome(**outcome) for outcome in meta.get("outcomes", [])]
    return DebateOutcome(str(debate), True, claims, int(value.get("extras", 0)))


# What the end of a run prints; every figure is the report's.
HEADLINE = (
    "macro_f1", "macro_f1_low", "macro_f1_high", "baseline.random", "claim_recall",
    "citation_accuracy", "parse_rate", "planted",
)  # fmt: skip


@scorer(metrics=[planted_claim_stats()])
def planted_claims(**judging: Any) -> Scorer:
    """The fact-check scorer's verdicts on a debate, against the verdicts planted in it.

    Takes the judge's settings as options of their own (-S judge_budget=4000): of them
    it reads judge_budget, judge_schema and require_validated_judge, as `fact_check`.
    """
    options = JudgingOptions.parse(judging, scorer_taker("planted_claims"))
    checker = fact_check(**options.given_values())

    async def score(state: TaskState, target: Target) -> Score | None:
        planted = [planted_claim(c) for c in state.metadata.get("planted", [])]
        judged = await checker(state, target)
        if judged is None:
            return None  # no recorded debate in the store
        meta = dict(judged.metadata or {})
        # Asked of the server during the run, so a trust record names the model that answered.
        meta["judge_identities"] = [asdict(await judge_identity(j)) for j in judge_models()]
        if "ledger" not in meta:
            value = dict.fromkeys(VALUE_KEYS, math.nan) | {"parsed": 0.0, "planted": len(planted)}
            return Score(value=value, explanation=judged.reason, metadata=meta)
        outcomes, extras = match_ledger(planted, meta["ledger"])
        correct = sum(o.predicted == o.gold for o in outcomes)
        found = sum(o.predicted is not None for o in outcomes)
        return Score(
            value={
                "parsed": 1.0,
                "planted": float(len(planted)),
                "found": float(found),
                "correct": float(correct),
                "extras": float(extras),
            },
            answer=f"{correct}/{len(planted)} verdicts right",
            explanation=outcome_table(outcomes, extras),
            metadata={**meta, "outcomes": [o.__dict__ for o in outcomes]},
        )

    return score


def planted_claim(data: dict[str, Any]) -> PlantedClaim:
    return PlantedClaim(**{**data, "evidence": tuple(data["evidence"])})


def outcome_table(outcomes: list[ClaimOutcome], extras: int) -> str:
    """Each planted claim beside the judge's verdict, for the viewer."""
    lines = [
        "| side | position | planted claim's kind | planted | judged | cited |",
        "|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        judged = o.predicted or "missed"
        mark = "✓" if o.predicted == o.gold else "✗"
        cited = {True: "✓", False: "✗", None: "—"}[o.cited]
        lines.append(
            f"| {o.side.upper()} | {o.position} | {o.kind} | {o.gold} | {judged} {mark} | {cited} |"
        )
    return "\n".join(lines) + f"\n\nClaims listed that were not planted: {extras}"
