"""The debate format as data: phases, their lengths, and who speaks when.

These are plain rules with no Inspect in them, so tests can check the turn
order of any phase list without a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from debatebench_eval.core.errors import ConfigError

Side = Literal["pro", "con"]
SIDES: tuple[Side, Side] = ("pro", "con")

ARGUMENT_PHASES = ("opening", "rebuttal", "retort", "conclusion")
PHASE_NAMES = ("prep", *ARGUMENT_PHASES)

# Sentences asked for at each length. debatebench's scale, kept so that a
# run.yaml means the same thing in both tools.
LENGTH_SENTENCES = {"short": 2, "medium": 5, "long": 10}
DEFAULT_LENGTH = "medium"


def other_side(side: Side) -> Side:
    return "con" if side == "pro" else "pro"


@dataclass(frozen=True)
class Phase:
    """One configured phase: its name and, for argument phases, its length."""

    name: str
    length: str | None

    @property
    def sentences(self) -> int | None:
        return LENGTH_SENTENCES[self.length] if self.length else None

    @property
    def is_prep(self) -> bool:
        return self.name == "prep"

    def __str__(self) -> str:
        return f"{self.name}:{self.length}" if self.length else self.name


def parse_phase(spec: str, *, where: str = "phases") -> Phase:
    """Parse `name` or `name:length` into a Phase.

    `prep` takes no length: it is bounded by its token budget alone.
    """
    text = str(spec).strip()
    name, sep, length = text.partition(":")
    name = name.strip()
    if name not in PHASE_NAMES:
        raise ConfigError(where, f"unknown phase {name!r}", f"one of {', '.join(PHASE_NAMES)}")
    if name == "prep":
        if sep:
            raise ConfigError(where, f"'prep' takes no length, got {text!r}", "plain 'prep'")
        return Phase("prep", None)
    length = length.strip() if sep else DEFAULT_LENGTH
    if length not in LENGTH_SENTENCES:
        raise ConfigError(
            where,
            f"unknown length {length!r} in {text!r}",
            f"{name}:short, {name}:medium or {name}:long",
        )
    return Phase(name, length)


def parse_phases(specs: object, *, where: str = "phases") -> tuple[Phase, ...]:
    """Parse a phase list given as a YAML list or a comma-separated string."""
    items: list[object]
    if isinstance(specs, str):
        text = specs.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        items = [part for part in text.split(",")]
    elif isinstance(specs, list | tuple):
        items = list(specs)
    else:
        raise ConfigError(
            where, f"got {type(specs).__name__}", "a list such as [opening, rebuttal]"
        )
    items = [item for item in items if str(item).strip()]
    if not items:
        raise ConfigError(where, "the phase list is empty", "at least one argument phase")
    phases = tuple(parse_phase(str(item), where=where) for item in items)
    if all(phase.is_prep for phase in phases):
        raise ConfigError(where, "only 'prep' was given", "at least one argument phase")
    return phases


def speaking_order(phases: tuple[Phase, ...], first: Side = "pro") -> list[tuple[Side, Side]]:
    """Who speaks first and second in each phase.

    Initiative alternates over argument phases so neither side keeps the
    first-mover advantage; `prep` is private and simultaneous, so it neither
    takes nor passes the initiative (its entry is nominal).
    """
    orders: list[tuple[Side, Side]] = []
    leader = first
    for phase in phases:
        if phase.is_prep:
            orders.append((first, other_side(first)))
            continue
        orders.append((leader, other_side(leader)))
        leader = other_side(leader)
    return orders
