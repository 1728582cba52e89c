"""`turn_stats`: what each debate cost and whether budgets held.

Not a quality judgment: token use per side, how often a side hit its budget,
and latency. It reads only the DebateRecord, so `inspect score` can rerun it
on any debate log.
"""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from debatebench_eval.record.protocol import SIDES
from debatebench_eval.record.store import DebateRecord

STAT_KEYS = (
    "turns",
    "pro_output_tokens",
    "con_output_tokens",
    "reasoning_tokens",
    "hit_budget_rate",
    "mean_latency_s",
)


@scorer(metrics={"*": [mean()]})
def turn_stats() -> Scorer:
    """Per-debate token use, budget hits and latency from the recorded turns."""

    async def score(state: TaskState, target: Target) -> Score | None:
        record = state.store_as(DebateRecord)
        if not record.complete or not record.turns:
            # A partial debate is never scored.
            return None
        turns = record.turns
        value: dict[str, float] = {
            "turns": float(len(turns)),
            "reasoning_tokens": float(sum(t.usage.reasoning_tokens for t in turns)),
            # Rounded as a reader reads them: 0.333, not 0.3333333333333333.
            "hit_budget_rate": round(sum(t.hit_budget for t in turns) / len(turns), 3),
            "mean_latency_s": round(sum(t.latency_ms for t in turns) / len(turns) / 1000, 3),
        }
        for side in SIDES:
            value[f"{side}_output_tokens"] = float(
                sum(t.usage.output_tokens for t in turns if t.side == side)
            )
        hits = [f"{t.phase_index}:{t.side}" for t in turns if t.hit_budget]
        return Score(value={k: value[k] for k in STAT_KEYS}, metadata={"hit_budget_turns": hits})

    return score
