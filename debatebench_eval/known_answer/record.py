"""What a known-answer sample records in Inspect's store: the speeches (each with
its quotes checked), the open debaters' choices, and every judge's reading."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from debatebench_eval.core.store_record import StoreRecord
from debatebench_eval.record.store import TurnUsage


class QuoteRecord(BaseModel):
    text: str
    verified: bool
    how: str


class Speech(BaseModel):
    """One speech of a debater or the consultant, or one question the judge asked."""

    round: int = Field(description="The round, from 1.")
    role: str = Field(description="pro, con, consultant, or judge (a question it asked).")
    defends: str | None = Field(default=None, description="The answer label it argues for.")
    text: str = Field(description="The speech as written (the evidence quotes unmarked).")
    shown: str = Field(description="The speech as the judge read it (quotes marked).")
    quotes: list[QuoteRecord] = Field(default_factory=list)
    model: str
    usage: TurnUsage = Field(default_factory=TurnUsage)
    budget: int
    hit_budget: bool = False

    @property
    def verified_quotes(self) -> int:
        return sum(q.verified for q in self.quotes)


class Reading(BaseModel):
    """One judge's answer (None where its reply could not be used)."""

    model: str
    answer: str | None = None
    confidence: int | None = None
    reason: str | None = None
    exchange: dict[str, Any] = Field(default_factory=dict)


class OversightRecord(StoreRecord):
    """A known-answer sample, kept in the store as the run goes. What the judge reads
    is here whole (the question, the answers in the order shown, the speeches as
    marked), so `inspect score` can judge it again; the evidence only for `expert`."""

    protocol: str | None = None
    question: str | None = None
    answers: list[str] = Field(default_factory=list)
    correct_label: str | None = None
    judge_evidence: str | None = None
    seed: int | None = None
    # (role, model, server URL) of each speaker, for the judge-is-a-debater guard.
    speakers: list[tuple[str, str, str | None]] = Field(default_factory=list)
    complete: bool = False
    assignment: dict[str, str] = Field(default_factory=dict)
    choices: dict[str, str] = Field(default_factory=dict)
    speeches: list[Speech] = Field(default_factory=list)
