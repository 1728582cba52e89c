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
from typing import Any

from debatebench_eval.crucible.prompts import SIDE_LABELS
from debatebench_eval.crucible.record import (
    Attack,
    CrucibleRecord,
    CrucibleTurn,
    Defence,
    Steelman,
)
from debatebench_eval.crucible.replies import TEXT, array, obj

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


def turn_schema(steelman: bool) -> dict[str, Any]:
    props: dict[str, Any] = {}
    if steelman:
        props["steelman"] = obj({"claim": TEXT, "restatement": TEXT})
    props["attacks"] = array(obj({"from": TEXT, "target": TEXT, "argument": TEXT}))
    props["defends"] = array(obj({"claim": TEXT, "reply": TEXT}))
    props["speech"] = TEXT
    return obj(props)


def turn_shape(steelman: bool) -> str:
    shape: dict[str, Any] = {}
    if steelman:
        shape["steelman"] = {"claim": "<opponent's claim id>", "restatement": "..."}
    shape["attacks"] = [
        {"from": "<your claim id>", "target": "<opponent's claim id>", "argument": "..."}
    ]
    shape["defends"] = [{"claim": "<your claim id>", "reply": "..."}]
    shape["speech"] = "your speech for this turn, a short paragraph"
    return json.dumps(shape, indent=2)


@dataclass(frozen=True)
class TurnReply:
    steelman: Steelman | None
    attacks: list[Attack]
    defends: list[Defence]
    speech: str


def check_turn(reply: Any, plan: TurnPlan, sides: Sides) -> tuple[TurnReply | None, list[str]]:
    if not isinstance(reply, dict):
        return None, ["the reply must be a JSON object"]
    problems: list[str] = []
    steelman = _steelman(reply, plan, sides, problems)
    attacks = _attacks(reply.get("attacks"), sides, problems)
    defends = _defends(reply.get("defends"), sides, problems)
    speech = reply.get("speech")
    if not isinstance(speech, str) or not speech.strip():
        problems.append('"speech" is missing or empty')
    if not problems and not attacks and (plan.kind != "rebuttal" or not defends):
        wanted = "an attack or a defence" if plan.kind == "rebuttal" else "at least one attack"
        problems.append(f"the turn makes no move: a {plan.kind} needs {wanted}")
    if problems:
        return None, problems
    return TurnReply(steelman, attacks, defends, str(speech).strip()), []


def _steelman(
    reply: dict[str, Any], plan: TurnPlan, sides: Sides, problems: list[str]
) -> Steelman | None:
    if not plan.steelman:
        return None
    value = reply.get("steelman")
    if not isinstance(value, dict):
        problems.append('"steelman" is missing: from round 2 a turn opens with one')
        return None
    claim, text = _id(value.get("claim")), value.get("restatement")
    if claim not in sides.targets:
        problems.append(
            f'"steelman.claim" is {claim!r}, not one of the opponent\'s claims '
            f"({', '.join(sorted(sides.targets))})"
        )
    if not isinstance(text, str) or not text.strip():
        problems.append('"steelman.restatement" is missing or empty')
    return Steelman(claim=claim, restatement=str(text).strip()) if not problems else None


def _attacks(value: Any, sides: Sides, problems: list[str]) -> list[Attack]:
    if not isinstance(value, list):
        problems.append('"attacks" must be a list')
        return []
    attacks = []
    for index, item in enumerate(value):
        at = f"attacks[{index}]"
        if not isinstance(item, dict):
            problems.append(f'"{at}" is not an object')
            continue
        source, target, argument = (
            _id(item.get("from")),
            _id(item.get("target")),
            item.get("argument"),
        )
        if source not in sides.own:
            problems.append(
                f'"{at}.from" is {source!r}, not one of your claims '
                f"({', '.join(sorted(sides.own))})"
            )
        if target not in sides.targets:
            problems.append(
                f'"{at}.target" is {target!r}, not one of the opponent\'s claims '
                f"({', '.join(sorted(sides.targets))})"
            )
        if not isinstance(argument, str) or not argument.strip():
            problems.append(f'"{at}.argument" is missing or empty')
            continue
        attacks.append(Attack(claim=source, target=target, argument=argument.strip()))
    return attacks


def _defends(value: Any, sides: Sides, problems: list[str]) -> list[Defence]:
    if not isinstance(value, list):
        problems.append('"defends" must be a list')
        return []
    defends = []
    for index, item in enumerate(value):
        at = f"defends[{index}]"
        claim = _id(item.get("claim")) if isinstance(item, dict) else ""
        reply = item.get("reply") if isinstance(item, dict) else None
        if claim not in sides.own:
            problems.append(f'"{at}.claim" is {claim!r}, not one of your claims')
        if not isinstance(reply, str) or not reply.strip():
            problems.append(f'"{at}.reply" is missing or empty')
            continue
        defends.append(Defence(claim=claim, reply=reply.strip()))
    return defends


def _id(value: Any) -> str:
    return value.strip().strip("[]").upper() if isinstance(value, str) else repr(value)


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
