"""The DeliberationRecord: the typed store of one deliberation.

The scorer, the exports and `inspect score` read the deliberation from here,
never from the chat messages. Store keys are `DeliberationRecord:<field>`,
so the class name is part of the log format.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel, Field

from debatebench_eval.core.store_record import StoreRecord
from debatebench_eval.record.store import TurnUsage

RECORD_SCHEMA_VERSION = 1

# Optional fields default to None: Inspect drops None values when it writes
# the store to the log, and a reader must still validate the record.


class Seat(BaseModel):
    """One participant as it sat in this run."""

    id: str = Field(
        description="The participant's id: its persona's id from a table, the protocol's "
        "participant id, or the synthesizer's persona id."
    )
    persona_id: str = Field(
        description="The persona's id: its path below `personas/` without `.md`."
    )
    persona_file: str = Field(description="The persona file's path.")
    persona_role: str = Field(description="The persona's `role`: `debater` or `synthesizer`.")
    inspect_role: str = Field(
        description="The model role its calls are logged under: a bound `--model-role` name, "
        "else the participant's id with `-` as `_`."
    )
    model: str = Field(description="The model it spoke with.")
    base_url: str | None = Field(
        default=None,
        description="The model's server URL without credentials; None when the provider has none.",
    )
    effort: str = Field(
        description="The persona's `effort` (sent as reasoning_effort only with `send_effort`)."
    )
    tags: list[str] = Field(default_factory=list, description="The persona's `tags`.")
    system: str = Field(description="The persona's system prompt: its file's body.")
    final: bool = Field(
        default=False, description="It speaks the final step (the synthesis or the decision)."
    )


class DeliberationSettings(BaseModel):
    """What the sample deliberated, under which protocol, seed and participants."""

    protocol: str = Field(description="The protocol's `name`.")
    protocol_file: str = Field(description="The protocol file's path.")
    protocol_snapshot: dict[str, Any] = Field(description="The protocol file's content, as read.")
    task_text: str = Field(
        description="The task the participants were given (with `deliberate`: the sample's "
        "input, its choices lettered, and the instruction to state an answer)."
    )
    task_source: str = Field(
        description="`inline` (`-T task`), `file` (`-T task_file`, `@path` or a proposal) or "
        "`sample` (a dataset's input)."
    )
    debate_type: str | None = Field(
        default=None, description="`adjudicate`'s `-T debate_type`; None for a panel."
    )
    workspace_roots: list[str] = Field(
        default_factory=list,
        description="The roots personas and tables were looked up in, the first winning, as "
        "`kind: path` (`heurema`, `workspace`, `bundled`).",
    )
    shadowed: list[str] = Field(
        default_factory=list,
        description="Shipped personas and tables a user's file replaced (`persona skeptic`).",
    )
    seed: int = Field(description="The sample's seed, sent with every call.")
    seed_source: str = Field(
        description="`derived from base seed N`, or `generated` (no base seed given)."
    )
    max_rounds: int = Field(
        description="The most rounds before the final step (the protocol's, or `-T rounds`)."
    )
    participants: list[Seat] = Field(description="Every seat, the final step's included.")


class Signal(BaseModel):
    """heurema's convergence signal, as the turn ended with it."""

    position: str = Field(default="", description="The position the speaker holds.")
    objections: list[str] = Field(default_factory=list, description="The objections it still has.")
    done: bool = Field(
        default=False, description="It is done (done with objections counts as not done)."
    )


class DeliberationTurn(BaseModel):
    """One participant's turn: a round's speech, or the final step's."""

    id: str = Field(
        description="A stable opaque id: `d` and 8 hex digits, from the sample, epoch, round "
        "and participant."
    )
    round: int = Field(
        description="The round, from 1; the final step takes the number after the last "
        "round (after an extra round, that round's)."
    )
    round_name: str = Field(
        description="The protocol's name of the round; `synthesis` or `decision` for the final "
        "step."
    )
    participant: str = Field(description="The seat's id.")
    persona_id: str = Field(description="The seat's persona id.")
    inspect_role: str = Field(description="The model role the call was logged under.")
    model: str = Field(
        description="The model that answered, as the provider named it (else the seat's)."
    )
    text: str = Field(
        description="The reply without reasoning, its signal block included; for a decision, "
        "the judge's last raw reply."
    )
    final: bool = Field(default=False, description="The turn is the final step's.")
    signal: Signal | None = Field(
        default=None,
        description="The text's last signal block; None when it has none or it is unreadable.",
    )
    words: int = Field(description="Words of the text before its signal block.")
    max_words: int | None = Field(
        default=None, description="The round's word limit; None when it has none."
    )
    over_word_limit: bool = Field(
        default=False, description="`words` is above `max_words` (recorded, not refused)."
    )
    budget: int = Field(description="The turn's completion-token cap.")
    hit_budget: bool = Field(description="The (last) reply stopped at the cap (`max_tokens`).")
    finish_reason: str = Field(description="The (last) reply's stop reason in Inspect's words.")
    usage: TurnUsage = Field(description="The turn's tokens (a decision's: every reply summed).")
    latency_ms: int = Field(
        description="Milliseconds of the call that gave the reply (a decision: of all its calls)."
    )
    started_at: str = Field(
        description="When that call started: UTC to the second, `2025-01-31T09:05:00Z`."
    )
    attempts: int = Field(
        default=1,
        description="Calls made: 1 plus one per empty reply retried (a decision: its replies).",
    )
    reasoning_chars: int = Field(
        default=0,
        description="Characters of reasoning the reply had, kept out of `text` (0 for a decision).",
    )
    visibility: str = Field(
        description="What the speaker was shown of the turns before: `none`, `previous` or `all`."
    )
    shown: list[str] = Field(default_factory=list, description="The ids of the turns it was shown.")


class RoundResult(BaseModel):
    """One round's verdict from its speakers' signals."""

    round: int = Field(description="The round, from 1.")
    name: str = Field(description="The protocol's name of the round.")
    clean: bool = Field(
        description="Every speaker signalled done (with `until: quorum`, more than half)."
    )
    progress: bool = Field(description="Its objections differ from the round before's.")
    done: int = Field(description="How many speakers signalled done.")
    objections: list[str] = Field(
        default_factory=list, description="Every objection its speakers still have, sorted."
    )


class Outcome(BaseModel):
    """How the deliberation ended."""

    kind: str = Field(description="`synthesis` (a panel) or `decision` (an adjudication).")
    status: str = Field(description="`decided` or `undecided`.")
    stop_reason: str = Field(
        description="Why the rounds stopped: `settled`, `stalemate` or `max` (heurema's), or "
        "`judge_request` (after the judge's extra round)."
    )
    rounds: int = Field(
        description="A synthesis: the rounds spoken; a decision: the round of its last decision "
        "turn (the rounds spoken plus one)."
    )
    answer: str | None = Field(
        default=None,
        description="The synthesis (with `deliberate`, its `ANSWER:` line) or the decision "
        "reached; None for an undecided judge or a `deliberate` synthesis without that line.",
    )
    decision: dict[str, Any] | None = Field(
        default=None,
        description="The judge's decision record (`final_decision`, `reasoning_summary`, ...); "
        "None for a synthesis or an undecided judge.",
    )
    forced_escalate: bool = Field(
        default=False,
        description="The judge asked for a round again after its extra one, so the protocol's "
        "`unresolved` decision was recorded.",
    )
    undecided_reason: str | None = Field(
        default=None,
        description="Why it is undecided (the judge's reply unusable after its repair, or no "
        "signal read in a converging panel); None when decided.",
    )
    exchanges: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Each decision call's model, replies, problems, repairs, error and JSON mode; "
        "empty for a synthesis.",
    )
    final_turn_ids: list[str] = Field(
        default_factory=list,
        description="The final step's turn ids (a synthesis: one; a decision: one per call).",
    )


class DeliberationRecord(StoreRecord):
    """One deliberation, as the scorer, the exports and `inspect score` read it."""

    schema_version: int = Field(
        default=RECORD_SCHEMA_VERSION, description="The record's layout version."
    )
    run: DeliberationSettings | None = Field(
        default=None,
        description="The sample's settings; None when it failed before deliberating.",
    )
    turns: list[DeliberationTurn] = Field(
        default_factory=list,
        description="Every turn in the order spoken (a parallel round's in seat order), the "
        "final step's included.",
    )
    rounds: list[RoundResult] = Field(
        default_factory=list, description="One verdict per round spoken, an extra round included."
    )
    outcome: Outcome | None = Field(
        default=None, description="How it ended; None until the final step has run."
    )
    complete: bool = Field(
        default=False, description="The final step ran; only a complete record is scored."
    )


def turn_id(sample_id: str | int, epoch: int, round_number: int, participant: str) -> str:
    """A stable, opaque id for one participant's turn in one round."""
    text = f"{sample_id}:{epoch}:{round_number}:{participant}"
    return "d" + hashlib.sha256(text.encode()).hexdigest()[:8]
