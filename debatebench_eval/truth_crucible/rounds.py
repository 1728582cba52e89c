"""Rounds: who speaks when, the turn's reply shape and checks, and the debate as sides read it.

Initiative alternates by round (PRO pushes in odd rounds, CON in even ones)
so no side keeps the first move; the other side rebuts. From round 2 (with
steelman on) a turn must open by restating the opponent's strongest claim.
The optional swap round comes after the last round: each side argues the
other position, taking the opponent's claims as its own and attacking its
former ones. Every claim a turn names is checked against the right side.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import Field, ValidationInfo

from debatebench_eval.core.reply_model import Prose, ReplyModel, reply_schema
from debatebench_eval.truth_crucible.prompts import SIDE_LABELS
from debatebench_eval.truth_crucible.record import (
    Attack,
    CrucibleRecord,
    CrucibleTurn,
    Defence,
    Steelman,
)
from debatebench_eval.truth_crucible.replies import (
    MODELS_KEPT,
    items,
    list_of,
    model,
    one_of,
    parsed,
)

SWAP = "swap"


def other(side: str) -> str:
    return "con" if side == "pro" else "pro"


@dataclass(frozen=True)
class TurnPlan:
    id: str
    round: int
    kind: str  # push | rebuttal | swap
    side: str
    steelman: bool

    @property
    def argues(self) -> str:
        return other(self.side) if self.kind == SWAP else self.side


def round_plan(number: int, steelman: bool, swap: bool = False) -> list[TurnPlan]:
    """The two turns of round `number` (1-based): the first side pushes, the other rebuts."""
    first = "pro" if number % 2 == 1 else "con"
    kinds = (SWAP, SWAP) if swap else ("push", "rebuttal")
    needs = steelman and number >= 2
    return [
        TurnPlan(f"R{number}.{i}", number, kind, side, needs)
        for i, (side, kind) in enumerate(zip((first, other(first)), kinds, strict=True), 1)
    ]


@dataclass(frozen=True)
class Sides:
    """The claim ids a turn may use: its own (to attack from, to defend) and its targets."""

    own: frozenset[str]
    targets: frozenset[str]

    @classmethod
    def of(cls, record: CrucibleRecord, plan: TurnPlan) -> Sides:
        argues = {c.id for c in record.verified(plan.argues)}
        against = {c.id for c in record.verified(other(plan.argues))}
        return cls(frozenset(argues), frozenset(against))


_TURN_DOC = (
    "A side's turn. In the schema: the claim ids as enums of the side's own claims "
    "(attacks from, defences of) and of its targets (attacked, steelmanned), the steelman "
    "only when the plan asks for one, at least one attack in a push or a swap, and text "
    "bounds. Not in the schema: that a rebuttal makes a move (an attack or a defence), a "
    "rule across two fields that only a root `anyOf` could carry, which OpenAI's strict "
    "mode refuses; it is checked on `defends`."
)


@lru_cache(maxsize=MODELS_KEPT)
def turn_model(plan: TurnPlan, sides: Sides) -> type[ReplyModel]:
    """The turn's reply model, for this plan and the claims each side may name."""
    own, target = one_of(sorted(sides.own)), one_of(sorted(sides.targets))
    fields: dict[str, Any] = {}
    if plan.steelman:
        fields["steelman"] = model(
            "Steelman", "The opponent's claim, restated.", claim=target, restatement=Prose
        )
    attack = model(
        "Attack",
        "One of the side's claims against one of the opponent's.",
        from_=(own, Field(alias="from")),
        target=target,
        argument=Prose,
    )
    fields["attacks"] = items(attack, 0 if plan.kind == "rebuttal" else 1)
    defence = model(
        "Defence", "A reply to an attack on one of the side's claims.", claim=own, reply=Prose
    )
    fields["defends"] = list_of(defence)
    fields["speech"] = Prose
    rules = {"defends": _makes_a_move} if plan.kind == "rebuttal" else {}
    return model("CrucibleTurn", _TURN_DOC, rules, **fields)


def _makes_a_move(value: list[Any], info: ValidationInfo) -> list[Any]:
    if not value and info.data.get("attacks") == []:
        raise ValueError("the turn makes no move: a rebuttal needs an attack or a defence")
    return value


def turn_schema(plan: TurnPlan, sides: Sides) -> dict[str, Any]:
    return reply_schema(turn_model(plan, sides))


SPEECH_PLACEHOLDER = "your speech for this turn, a short paragraph"


def turn_shape(steelman: bool) -> str:
    shape: dict[str, Any] = {}
    if steelman:
        shape["steelman"] = {"claim": "<opponent's claim id>", "restatement": "..."}
    shape["attacks"] = [
        {"from": "<your claim id>", "target": "<opponent's claim id>", "argument": "..."}
    ]
    shape["defends"] = [{"claim": "<your claim id>", "reply": "..."}]
    shape["speech"] = SPEECH_PLACEHOLDER
    return json.dumps(shape, indent=2)


@dataclass(frozen=True)
class TurnReply:
    steelman: Steelman | None
    attacks: list[Attack]
    defends: list[Defence]
    speech: str


def check_turn(reply: Any, plan: TurnPlan, sides: Sides) -> tuple[TurnReply | None, list[str]]:
    value, problems = parsed(turn_model(plan, sides), reply, [SPEECH_PLACEHOLDER])
    if value is None:
        return None, problems
    steelman = value.get("steelman")
    return TurnReply(
        steelman=Steelman(**steelman) if steelman is not None else None,
        attacks=[
            Attack(claim=a["from"], target=a["target"], argument=a["argument"])
            for a in value["attacks"]
        ],
        defends=[Defence(**d) for d in value["defends"]],
        speech=value["speech"],
    ), []


def recorded_turn(plan: TurnPlan, reply: TurnReply, model: str) -> CrucibleTurn:
    return CrucibleTurn(
        id=plan.id,
        round=plan.round,
        kind=plan.kind,
        side=plan.side,
        argues=plan.argues,
        steelman=reply.steelman,
        attacks=reply.attacks,
        defends=reply.defends,
        speech=reply.speech,
        model=model,
    )


def render_history(turns: list[CrucibleTurn]) -> str:
    """The debate so far as the sides read it (open: real ids and side names)."""
    return "\n\n".join(_turn_block(t) for t in turns) or "(this is the first turn)"


def _turn_block(turn: CrucibleTurn) -> str:
    label = SIDE_LABELS[turn.side]
    arguing = f", arguing {SIDE_LABELS[turn.argues]}'s position" if turn.kind == SWAP else ""
    lines = [f"[{turn.id}] {label} {turn.kind}{arguing}:"]
    if turn.steelman is not None:
        lines.append(f"  steelman of {turn.steelman.claim}: {turn.steelman.restatement}")
    lines += [f"  attack {a.claim} -> {a.target}: {a.argument}" for a in turn.attacks]
    lines += [f"  defence of {d.claim}: {d.reply}" for d in turn.defends]
    lines.append(f"  speech: {turn.speech}")
    return "\n".join(lines)
