"""`turn_stats`: what each debate cost and whether budgets held.

Not a quality judgment: token use per side (all of it, and the speeches'
own, without reasoning), how often a side hit its budget, and latency. It
reads only the DebateRecord, so `inspect score` can rerun it on any debate
log. The share of turns that hit their budget is the score's value (the
sample list shows it); the other numbers are its figures (see
`judging.figures`).
"""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from debatebench_eval.judging.figures import FIGURES_KEY, split_figures
from debatebench_eval.judging.metrics import figure_stats, value_stats
from debatebench_eval.record.protocol import SIDES
from debatebench_eval.record.store import DebateRecord

STAT_KEYS = (
    "turns",
    "pro_output_tokens",
    "con_output_tokens",
    # The speeches' own tokens (output less reasoning): the sides' budgets compared.
    "pro_answer_tokens",
    "con_answer_tokens",
    "reasoning_tokens",
    "hit_budget_rate",
    "mean_latency_s",
)
STAT_LISTED = ("hit_budget_rate",)


# The terminal's headline (the budget-hit rate); every figure is the report's.
STAT_HEADLINE = [value_stats(STAT_LISTED, with_stderr=False)]
STAT_FIGURES = [value_stats(STAT_LISTED, with_stderr=False), figure_stats(with_stderr=False)]


@scorer(metrics=STAT_HEADLINE)
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
            own = [t.usage for t in turns if t.side == side]
            value[f"{side}_output_tokens"] = float(sum(u.output_tokens for u in own))
            value[f"{side}_answer_tokens"] = float(sum(u.answer_tokens for u in own))
        hits = [f"{t.phase_index}:{t.side}" for t in turns if t.hit_budget]
        listed, figures = split_figures({k: value[k] for k in STAT_KEYS}, STAT_LISTED)
        return Score(value=listed, metadata={"hit_budget_turns": hits, FIGURES_KEY: figures})

    return score
