"""The `outcome` scorer: how a deliberation ended, as numbers a metric can average.

Every scored sample has the same numeric keys: `decided` (1, or 0 for an
undecided judge), `rounds`, `converged` (a panel that settled), one key per
decision of the adjudication protocol (`accept`, `revise`, `escalate`: 1
for the one reached, else 0, so their means are the share of samples
reaching each), `forced_escalate`, `confidence` (the judge's; NaN without
one, and for a forced escalate, whose decision is not the judge's),
`repairs`, `turns`, `over_word_limit` (turns past their limit) and
`tokens`. The synthesis or decision is the score's answer; its text and the
reasons are metadata. A deliberation that did not complete is not scored.
"""

from __future__ import annotations

import math

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState

from debatebench_eval.protocols.display import outcome_heading
from debatebench_eval.protocols.record import DeliberationRecord

DECISIONS = ("accept", "revise", "escalate")


@scorer(metrics=[{"*": [mean(), stderr()]}])
def outcome() -> Scorer:
    """How each deliberation ended: decided, rounds, convergence, the decision reached."""

    async def score(state: TaskState, target: Target) -> Score | None:
        record = state.store_as(DeliberationRecord)
        result = record.outcome
        if record.run is None or result is None or not record.complete:
            return None  # a partial deliberation is never scored
        decision = (
            result.answer if result.kind == "decision" and result.status == "decided" else None
        )
        # A forced escalate is the protocol's decision, not the judge's: the
        # judge's confidence belonged to the decision it gave, so none is scored.
        confidence = None if result.forced_escalate else (result.decision or {}).get("confidence")
        value: dict[str, float] = {
            "decided": float(result.status == "decided"),
            "rounds": float(result.rounds),
            "converged": float(result.stop_reason == "settled"),
            **{key: float(decision == key) for key in DECISIONS},
            "forced_escalate": float(result.forced_escalate),
            "confidence": float(confidence) if confidence is not None else math.nan,
            "repairs": float(sum(e.get("repairs", 0) for e in result.exchanges)),
            "turns": float(len(record.turns)),
            "over_word_limit": float(sum(t.over_word_limit for t in record.turns)),
            "tokens": float(sum(t.usage.total_tokens for t in record.turns)),
        }
        return Score(
            value=value,
            answer=result.answer or "",
            explanation=outcome_heading(result),
            metadata={
                "protocol": record.run.protocol,
                "kind": result.kind,
                "status": result.status,
                "stop_reason": result.stop_reason,
                "decision": result.decision,
                "undecided_reason": result.undecided_reason,
                "exchanges": result.exchanges,
            },
        )

    return score
