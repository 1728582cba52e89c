"""The `outcome` scorer: how a deliberation ended, as numbers a metric can average.

Every scored sample of a protocol has the same numeric keys, and only those
that can apply to it. Both kinds: `decided` (1, or 0 for an undecided
judge), `rounds`, `repairs`, `turns`, `over_word_limit` (turns past their
limit) and `tokens`. A panel (a synthesis) adds `converged` (it settled) and
`stalemate` (it stopped on a stalemate). An adjudication (a decision) adds one
key per decision (`accept`, `revise`, `escalate`: 1 for the one reached, else
0, so their means are the share of samples reaching each), `forced_escalate`
and `confidence` (the judge's; NaN without one, and for a forced escalate,
whose decision is not the judge's). The answer starts with the outcome in
capitals (CONVERGED, STALEMATE, MAX ROUNDS, UNDECIDED, or the decision), so
the sample list shows it; the explanation holds the decision record as a
table; the text and the reasons are metadata. A deliberation that did not
complete is not scored.
"""

from __future__ import annotations

import math
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from debatebench_eval.judging.metrics import value_stats
from debatebench_eval.protocols.display import outcome_heading
from debatebench_eval.protocols.record import DeliberationRecord, Outcome

DECISIONS = ("accept", "revise", "escalate")
# Every deliberation's keys; a panel's or an adjudication's own follow `rounds`.
OUTCOME_KEYS = ("decided", "rounds", "repairs", "turns", "over_word_limit", "tokens")
PANEL_KEYS = ("converged", "stalemate")
DECISION_KEYS = (*DECISIONS, "forced_escalate", "confidence")
_ENDINGS = {"settled": "CONVERGED", "stalemate": "STALEMATE", "max": "MAX ROUNDS",
            "judge_request": "AFTER AN EXTRA ROUND"}  # fmt: skip
_ESCAPED_BAR = "\\|"  # a bar inside a cell would end it
_ANSWER_CHARS = 160  # the list shows the start; the whole answer is the output


@scorer(metrics=[value_stats()])
def outcome() -> Scorer:
    """How each deliberation ended: decided, rounds, convergence, the decision reached."""

    async def score(state: TaskState, target: Target) -> Score | None:
        record = state.store_as(DeliberationRecord)
        result = record.outcome
        if record.run is None or result is None or not record.complete:
            return None  # a partial deliberation is never scored
        value = {
            "decided": float(result.status == "decided"),
            "rounds": float(result.rounds),
            **(_decision_value(result) if result.kind == "decision" else _panel_value(result)),
            "repairs": float(sum(e.get("repairs", 0) for e in result.exchanges)),
            "turns": float(len(record.turns)),
            "over_word_limit": float(sum(t.over_word_limit for t in record.turns)),
            "tokens": float(sum(t.usage.total_tokens for t in record.turns)),
        }
        return Score(
            value={key: value[key] for key in outcome_keys(result.kind)},
            answer=outcome_answer(result),
            explanation="\n\n".join(filter(None, [outcome_heading(result),
                                                    decision_table(result.decision)])),
            metadata={
                "protocol": record.run.protocol,
                "kind": result.kind,
                "status": result.status,
                "stop_reason": result.stop_reason,
                "decision": result.decision,
                "undecided_reason": result.undecided_reason,
                "exchanges": result.exchanges,
            },
        )  # fmt: skip

    return score


def outcome_keys(kind: str) -> tuple[str, ...]:
    """The score value's keys for a deliberation of this kind (`synthesis`, `decision`),
    in the value's order."""
    own = DECISION_KEYS if kind == "decision" else PANEL_KEYS
    return (*OUTCOME_KEYS[:2], *own, *OUTCOME_KEYS[2:])


def _panel_value(result: Outcome) -> dict[str, float]:
    # An undecided panel stopped without a readable signal: that it "stalled" is
    # the stop rule's guess, not a finding, so it counts as neither.
    decided = result.status == "decided"
    return {
        "converged": float(decided and result.stop_reason == "settled"),
        "stalemate": float(decided and result.stop_reason == "stalemate"),
    }


def _decision_value(result: Outcome) -> dict[str, float]:
    decision = result.answer if result.status == "decided" else None
    # A forced escalate is the protocol's decision, not the judge's: the
    # judge's confidence belonged to the decision it gave, so none is scored.
    confidence = None if result.forced_escalate else (result.decision or {}).get("confidence")
    return {
        **{key: float(decision == key) for key in DECISIONS},
        "forced_escalate": float(result.forced_escalate),
        "confidence": float(confidence) if confidence is not None else math.nan,
    }


def outcome_answer(result: Outcome) -> str:
    """The outcome first, in capitals, then the start of the answer."""
    if result.status == "undecided":
        return _clip(f"UNDECIDED: {result.undecided_reason}")
    if result.kind == "decision":
        decision = (result.decision or {}).get("confidence")
        how = (
            " (forced)"
            if result.forced_escalate
            else (f" (confidence {decision:g})" if isinstance(decision, int | float) else "")
        )
        return f"{str(result.answer).upper()}{how} · {result.rounds} round(s)"
    ending = _ENDINGS.get(result.stop_reason, result.stop_reason.upper())
    return _clip(f"{ending} after {result.rounds} round(s) · {result.answer or ''}")


def decision_table(decision: dict[str, Any] | None) -> str:
    """The judge's decision record as a Markdown table (lists one item a line)."""
    if not decision:
        return ""
    rows = ["| field | value |", "|---|---|"]
    for key, item in decision.items():
        shown = "<br>".join(map(str, item)) if isinstance(item, list) else str(item)
        cell = shown.replace("|", _ESCAPED_BAR) or "—"
        rows.append(f"| {key} | {cell} |")
    return "\n".join(rows)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _ANSWER_CHARS else text[: _ANSWER_CHARS - 1] + "…"
