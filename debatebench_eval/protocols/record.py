"""The DeliberationRecord: the typed store of one deliberation.

The scorer, the exports and `inspect score` read the deliberation from here,
never from the chat messages. Store keys are `DeliberationRecord:<field>`,
so the class name is part of the log format.
"""

from __future__ import annotations

import hashlib
from typing import Any

from inspect_ai.util import StoreModel
from pydantic import BaseModel, Field

from debatebench_eval.record.store import TurnUsage

RECORD_SCHEMA_VERSION = 1

# Optional fields default to None: Inspect drops None values when it writes
# the store to the log, and a reader must still validate the record.


class Seat(BaseModel):
    """One participant as it sat in this run."""

    id: str
    persona_id: str
    persona_file: str
    persona_role: str
    inspect_role: str
    model: str
    base_url: str | None = None
    effort: str
    tags: list[str] = Field(default_factory=list)
    system: str
    final: bool = False


class DeliberationSettings(BaseModel):
    protocol: str
    protocol_file: str
    protocol_snapshot: dict[str, Any]
    task_text: str
    # inline (-T task), file (-T task_file / proposal), sample (a dataset's input)
    task_source: str
    debate_type: str | None = None
    workspace_roots: list[str] = Field(default_factory=list)
    shadowed: list[str] = Field(default_factory=list)
    seed: int
    seed_source: str
    max_rounds: int
    participants: list[Seat]


class Signal(BaseModel):
    """heurema's convergence signal, as the turn ended with it."""

    position: str = ""
    objections: list[str] = Field(default_factory=list)
    done: bool = False


class DeliberationTurn(BaseModel):
    id: str
    round: int
    round_name: str
    participant: str
    persona_id: str
    inspect_role: str
    model: str
    # The reply without reasoning (and with its signal block, as spoken).
    text: str
    final: bool = False
    signal: Signal | None = None
    words: int
    max_words: int | None = None
    over_word_limit: bool = False
    budget: int
    hit_budget: bool
    finish_reason: str
    usage: TurnUsage
    latency_ms: int
    started_at: str
    attempts: int = 1
    reasoning_chars: int = 0
    visibility: str
    # Ids of the turns this participant was shown.
    shown: list[str] = Field(default_factory=list)


class RoundResult(BaseModel):
    round: int
    name: str
    clean: bool
    progress: bool
    done: int
    objections: list[str] = Field(default_factory=list)


class Outcome(BaseModel):
    kind: str  # synthesis | decision
    status: str  # decided | undecided
    # settled | stalemate | max (heurema's), or judge_request (a judge's extra round)
    stop_reason: str
    rounds: int
    answer: str | None = None
    decision: dict[str, Any] | None = None
    forced_escalate: bool = False
    undecided_reason: str | None = None
    exchanges: list[dict[str, Any]] = Field(default_factory=list)
    final_turn_ids: list[str] = Field(default_factory=list)


class DeliberationRecord(StoreModel):
    schema_version: int = RECORD_SCHEMA_VERSION
    run: DeliberationSettings | None = None
    turns: list[DeliberationTurn] = Field(default_factory=list)
    rounds: list[RoundResult] = Field(default_factory=list)
    outcome: Outcome | None = None
    complete: bool = False


def turn_id(sample_id: str | int, epoch: int, round_number: int, participant: str) -> str:
    """A stable, opaque id for one participant's turn in one round."""
    text = f"{sample_id}:{epoch}:{round_number}:{participant}"
    return "d" + hashlib.sha256(text.encode()).hexdigest()[:8]
