"""The DebateRecord: the typed store of one sample.

Scorers, `inspect score` and the exporter read the debate from here, never by
re-parsing chat messages. The schema of passages is fixed now (empty until the
prep phase fills it) so later readers do not churn.
"""

from __future__ import annotations

import hashlib
from typing import Any

from inspect_ai.model import ModelOutput
from pydantic import BaseModel, Field, model_validator

from debatebench_eval.core.store_record import StoreRecord

RECORD_SCHEMA_VERSION = 1
# Where a run's reasoning budgets are shown: the task's and each sample's metadata.
REASONING_BUDGETS_KEY = "reasoning_budgets"

# Optional fields default to None: Inspect drops None values when it writes
# the store to the log, and a reader must still validate the record.


class TurnUsage(BaseModel):
    """The tokens a call used, as its provider reported them (zeros when it reported none)."""

    input_tokens: int = Field(default=0, description="Prompt tokens.")
    output_tokens: int = Field(
        default=0, description="Every completion token, reasoning included (the providers' count)."
    )
    reasoning_tokens: int = Field(
        default=0, description="Completion tokens spent on reasoning (0 when none are reported)."
    )
    # What the sides are compared on, and what `budget` caps when the turn has a
    # reasoning budget of its own.
    answer_tokens: int = Field(
        default=0,
        description="The answer's own tokens: output less reasoning, never below 0.",
    )
    total_tokens: int = Field(
        default=0, description="The provider's total: prompt and completion tokens."
    )

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

    id: str = Field(
        description="A stable id that does not reveal the side (`t` and 8 hex digits, from the "
        "sample, epoch, phase and side): the judge sees turns by it."
    )
    phase_index: int = Field(description="The phase's position in `run.phases`, from 0.")
    phase: str = Field(description="The phase's name (`prep`, `opening`, `rebuttal`, ...).")
    length: str | None = Field(
        default=None, description="The phase's length, `short`, `medium` or `long`; None for prep."
    )
    side: str = Field(description="The side that spoke: `pro` or `con`.")
    order: int = Field(
        description="0 when the side spoke first in the phase, 1 second (prep's is nominal)."
    )
    role: str = Field(
        description="The model role that spoke: the side's own, the other one in a swapped sample."
    )
    team_id: str = Field(description="The id of the side's team.")
    text: str = Field(description="The speech without reasoning, stripped; never empty.")
    model: str = Field(
        description="The model that answered, as the provider named it (else the role's model)."
    )
    usage: TurnUsage = Field(description="The reply's tokens.")
    budget: int = Field(
        description="The turn's answer-token cap: the side's prep budget in prep, else its budget."
    )
    # None: thinking shares `budget`, as providers count it by default.
    reasoning_budget: int | None = Field(
        default=None,
        description="Thinking's own token cap, sent beside `budget`; None: thinking shares it.",
    )
    hit_budget: bool = Field(description="The reply stopped at its token cap (`max_tokens`).")
    finish_reason: str = Field(
        description="The reply's stop reason in Inspect's words (`stop`, `max_tokens`, ...)."
    )
    latency_ms: int = Field(
        description="Milliseconds of the call that gave the reply (the last attempt)."
    )
    started_at: str = Field(
        description="When that call started: UTC to the second, `2025-01-31T09:05:00Z`."
    )
    attempts: int = Field(
        default=1, description="Calls made for the turn: 1, plus one per empty reply retried."
    )
    reasoning_chars: int = Field(
        default=0, description="Characters of reasoning the reply had (kept out of `text`)."
    )
    cited_ids: list[str] = Field(
        default_factory=list,
        description="The passage ids the speech cites (`[P3]`), upper-cased, in first-cited "
        "order; empty without prep evidence.",
    )
    # Cite-or-lose, recorded: a bad citation is never dropped.
    citation_problems: dict[str, str] = Field(
        default_factory=dict,
        description="Each cited id that names no passage (`no such passage`) or the "
        "opponent's (`the opponent's passage`), with that reason.",
    )


class Passage(BaseModel):
    """A retrieved evidence row, private to one side until judging."""

    id: str = Field(
        description="`P1`, `P2`, ... over both sides, pro's first (an imported transcript's "
        "own evidence id)."
    )
    pool: str = Field(
        description="Where the row came from: a shared pool's name (`-T sources`) or the team "
        "corpus file's stem."
    )
    row_id: str = Field(description="The row's id in its pool.")
    side: str = Field(description="The side it was retrieved for, the only one shown it.")
    text: str = Field(description="The row's text, as the side was shown it.")


class SideSettings(BaseModel):
    """One side's model, budgets and team, as the sample ran them."""

    side: str = Field(description="`pro` or `con`.")
    role: str = Field(
        description="The model role arguing this side: the side's own, the other one in a "
        "swapped sample."
    )
    model: str = Field(description="That role's model, `provider/name`.")
    base_url: str | None = Field(
        default=None,
        description="The model's server URL without credentials; None when the provider has none.",
    )
    budget: int = Field(
        description="The role's answer-token cap per turn (`-T budget`, `pro_budget`, "
        "`con_budget`)."
    )
    prep_budget: int | None = Field(
        default=None, description="The cap of its prep turn; None when the phases have no prep."
    )
    reasoning_budget: int | None = Field(
        default=None,
        description="The role's reasoning-token cap per call; None: thinking shares `budget`.",
    )
    team: dict[str, Any] = Field(
        description="The team as debated (id, name, voice, stance, values, corpus, brief), "
        "readable if its file changes."
    )
    team_file: str = Field(
        description="How the run named the team: a built-in name (`advocate`, `skeptic`) or "
        "the path as written."
    )


class RunSettings(BaseModel):
    """What the sample debated, in which order, with which seed and sides."""

    motion_id: str = Field(
        description="The motion's id (from its file, else a slug of its text and a short hash; "
        "an imported transcript's sample id)."
    )
    motion: str = Field(description="The proposition debated; pro argues for it.")
    topic: str = Field(
        description="The short phrase prep retrieval searches by (the motion when none is given)."
    )
    phases: list[str] = Field(
        description="The phases in order, `name:length` (`prep` has no length)."
    )
    initiative: list[str] = Field(
        description="The side that spoke first in each phase, alternating over argument phases "
        "(prep's entry is nominal)."
    )
    seed: int = Field(
        description="The sample's seed, sent with every debater and judge call; the judges' "
        "blind orientation and any tie's coin toss are drawn from it."
    )
    seed_source: str = Field(
        description="How the seed was chosen: `derived from base seed N`, `generated` (no base "
        "seed given) or `from transcript`."
    )
    paired: bool = Field(
        description="The run debates each motion twice, the second time with the roles' sides "
        "exchanged (`-T paired`)."
    )
    pair_id: str | None = Field(
        default=None,
        description="The motion id both halves of a pair share; None when not paired.",
    )
    swapped: bool = Field(
        description="This sample is a pair's second half: each role (model and budget) argues "
        "the other side; teams stay with their side."
    )
    sides: list[SideSettings] = Field(description="Each side's settings, one per side.")


class DebateRecord(StoreRecord):
    """The debate of one sample, as scorers, `inspect score` and the exporter read it."""

    schema_version: int = Field(
        default=RECORD_SCHEMA_VERSION, description="The record's layout version."
    )
    run: RunSettings | None = Field(
        default=None, description="The sample's settings; None when it failed before debating."
    )
    turns: list[Turn] = Field(
        default_factory=list,
        description="Every turn in speaking order, stored as it is spoken (a failed debate "
        "keeps its turns).",
    )
    passages: list[Passage] = Field(
        default_factory=list,
        description="Both sides' prep evidence; empty when the phases have no prep.",
    )
    complete: bool = Field(
        default=False,
        description="Every phase has a turn from each side; only a complete record is scored.",
    )

    def turn(self, phase_index: int, side: str) -> Turn | None:
        return next(
            (t for t in self.turns if t.phase_index == phase_index and t.side == side), None
        )

    def opener(self) -> str | None:
        """The side that spoke first in the first argument phase (prep is private)."""
        spoken = [t for t in self.turns if t.phase != "prep"]
        first = min(spoken, key=lambda t: (t.phase_index, t.order), default=None)
        return first.side if first is not None else None

    def words(self, side: str) -> int:
        """The words a side spoke over all its turns (what its length is judged by)."""
        return sum(len(t.text.split()) for t in self.turns if t.side == side)


def turn_id(sample_id: str | int, epoch: int, phase_index: int, side: str) -> str:
    """A stable id that does not reveal the side (the judge sees turns by id)."""
    digest = hashlib.sha256(f"{sample_id}:{epoch}:{phase_index}:{side}".encode()).hexdigest()
    return f"t{digest[:8]}"
