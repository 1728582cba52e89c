"""The DebateRecord: the typed store of one sample.

Scorers, `inspect score` and the exporter read the debate from here, never by
re-parsing chat messages. The schema of passages is fixed now (empty until the
prep phase fills it) so later readers do not churn.
"""

from __future__ import annotations

import hashlib
from typing import Any

from inspect_ai.model import ModelOutput
from inspect_ai.util import StoreModel
from pydantic import BaseModel, Field, model_validator

RECORD_SCHEMA_VERSION = 1
# Where a run's reasoning budgets are shown: the task's and each sample's metadata.
REASONING_BUDGETS_KEY = "reasoning_budgets"

# Optional fields default to None: Inspect drops None values when it writes
# the store to the log, and a reader must still validate the record.


class TurnUsage(BaseModel):
    input_tokens: int = 0
    # Every completion token, thinking included (the providers' convention).
    output_tokens: int = 0
    reasoning_tokens: int = 0
    # The speech's own tokens (output less reasoning): what the sides are compared on,
    # and what `budget` caps when the turn has a reasoning budget of its own.
    answer_tokens: int = 0
    total_tokens: int = 0

    @model_validator(mode="before")
    @classmethod
    def _answer_from_output(cls, data: Any) -> Any:
        # Records written before answer_tokens existed still say what the speech cost.
        if isinstance(data, dict) and "answer_tokens" not in data:
            data = {**data, "answer_tokens": answer_tokens(data)}
        return data


def answer_tokens(usage: dict[str, Any]) -> int:
    """Completion tokens that are not reasoning (never below zero)."""
    output = int(usage.get("output_tokens") or 0)
    return max(output - int(usage.get("reasoning_tokens") or 0), 0)


def turn_usage(output: ModelOutput) -> TurnUsage:
    """A reply's token usage as recorded (zeros when the provider reported none)."""
    usage = output.usage
    if usage is None:
        return TurnUsage()
    return TurnUsage(
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        reasoning_tokens=usage.reasoning_tokens or 0,
        total_tokens=usage.total_tokens,
    )


class Turn(BaseModel):
    """One side's speech in one phase."""

    id: str
    phase_index: int
    phase: str
    length: str | None = None
    side: str
    order: int
    role: str
    team_id: str
    text: str
    model: str
    usage: TurnUsage
    budget: int
    # Thinking's own cap, sent beside `budget`; None: thinking shares `budget`.
    reasoning_budget: int | None = None
    hit_budget: bool
    finish_reason: str
    latency_ms: int
    started_at: str
    attempts: int = 1
    reasoning_chars: int = 0
    cited_ids: list[str] = Field(default_factory=list)
    # Cited ids that name no passage, or the opponent's: cite-or-lose, recorded.
    citation_problems: dict[str, str] = Field(default_factory=dict)


class Passage(BaseModel):
    """A retrieved evidence row, private to one side until judging."""

    id: str
    pool: str
    row_id: str
    side: str
    text: str


class SideSettings(BaseModel):
    side: str
    role: str
    model: str
    base_url: str | None = None
    budget: int
    prep_budget: int | None = None
    reasoning_budget: int | None = None
    team: dict[str, Any]
    team_file: str


class RunSettings(BaseModel):
    motion_id: str
    motion: str
    topic: str
    phases: list[str]
    initiative: list[str]
    seed: int
    seed_source: str
    paired: bool
    pair_id: str | None = None
    swapped: bool
    sides: list[SideSettings]


class DebateRecord(StoreModel):
    schema_version: int = RECORD_SCHEMA_VERSION
    run: RunSettings | None = None
    turns: list[Turn] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list)
    complete: bool = False

    def turn(self, phase_index: int, side: str) -> Turn | None:
        return next(
            (t for t in self.turns if t.phase_index == phase_index and t.side == side), None
        )


def turn_id(sample_id: str | int, epoch: int, phase_index: int, side: str) -> str:
    """A stable id that does not reveal the side (the judge sees turns by id)."""
    digest = hashlib.sha256(f"{sample_id}:{epoch}:{phase_index}:{side}".encode()).hexdigest()
    return f"t{digest[:8]}"
