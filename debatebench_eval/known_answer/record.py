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
    """One judge's answer in one answer order (None where its reply could not be used)."""

    model: str
    answer: str | None = Field(
        default=None, description="The label picked, as recorded (whichever order was read)."
    )
    confidence: int | None = None
    reason: str | None = None
    order: int = Field(default=1, description="1: the order recorded; 2: A and B exchanged.")
    exchange: dict[str, Any] = Field(default_factory=dict)

    def probability_of(self, label: str) -> float:
        """The probability this reading gives answer `label` (as recorded)."""
        assert self.answer is not None and self.confidence is not None
        share = self.confidence / 100
        return share if label == self.answer else 1 - share


class Belief(BaseModel):
    """The judge's belief after one round (`judge_each_round`): the panel's pick and the
    probability it gives the right answer, averaged over the orders read."""

    round: int
    pick: str | None = None
    p_correct: float | None = None
    # The pick per order read ("1", "2": JSON keys), as recorded.
    order_picks: dict[str, str | None] = Field(default_factory=dict)
    readings: list[Reading] = Field(default_factory=list)


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
    # `judge_each_round`: the judge's belief after each round but the last (the
    # scorer's verdict is the belief after the last round spoken).
    beliefs: list[Belief] = Field(default_factory=list)
    rounds_planned: int | None = None
    # Why the speeches ended before `rounds_planned` (`stop_when_confident`); None: they ran.
    stopped: str | None = None
