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
    """A known-answer sample, kept in the store as the run goes."""

    protocol: str | None = None
    assignment: dict[str, str] = Field(default_factory=dict)
    choices: dict[str, str] = Field(default_factory=dict)
    speeches: list[Speech] = Field(default_factory=list)
    readings: list[Reading] = Field(default_factory=list)
    # The panel's pick (the label with the higher mean probability) and the
    # probability it gives the right answer; None when no judge answered.
    pick: str | None = None
    p_correct: float | None = None
