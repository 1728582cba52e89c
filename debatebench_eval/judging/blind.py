"""The judge's blind view of a debate.

The judge never sees pro/con labels, team names or model names: sides appear
as Side A / Side B under a per-sample random mapping (recorded, and undone
after parsing), turns and passages under their opaque ids. The motion still
says which side argues for it, because the arguments make no sense otherwise.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from debatebench_eval.record.protocol import SIDES, Side
from debatebench_eval.record.store import DebateRecord, Turn

MASK = "[withheld]"
# Side labels a debater may echo from its own prompt ("PRO argued...", "the
# con side"); replaced by the blind label, so the meaning survives. Only the
# capitalised label or "<label> side": "pros and cons" and "pro bono" stay.
_LABELS = {
    side: re.compile(rf"\b(?:{side.upper()}\b(?!-)|(?i:(?:the\s+)?{side}\s+side\b))")
    for side in SIDES
}
_MIN_MASKED_TERM = 3


@dataclass(frozen=True)
class Orientation:
    """Which side the judge reads as Side A and which as Side B."""

    a: Side
    b: Side

    def label(self, side: str) -> str:
        return "A" if side == self.a else "B"

    def side(self, label: str) -> Side:
        return self.a if label == "A" else self.b

    def swapped(self) -> Orientation:
        return Orientation(a=self.b, b=self.a)

    def as_dict(self) -> dict[str, str]:
        return {"A": self.a, "B": self.b}


def blind_orientation(seed: int) -> Orientation:
    """The sample's first orientation, drawn from its seed (so a re-judge repeats it)."""
    first = random.Random(f"blind:{seed}").random() < 0.5
    return Orientation(a="pro", b="con") if first else Orientation(a="con", b="pro")


def masked_terms(record: DebateRecord) -> list[tuple[str, bool]]:
    """Identity strings that must not reach the judge, each with whether case matters.

    Team names are proper names (matched with their case, so a team called
    "Greens" does not mask "greens"); team ids are masked only when they cannot
    be ordinary words (they hold a hyphen, underscore or digit); model names
    always, without case.
    """
    assert record.run is not None
    terms: dict[str, bool] = {}
    for side in record.run.sides:
        terms[str(side.team.get("name") or "")] = True
        team_id = str(side.team.get("id") or "")
        if re.search(r"[-_0-9]", team_id):
            terms[team_id] = False
        terms.update({side.model: False, side.model.rsplit("/", 1)[-1]: False})
    kept = [(t, case) for t, case in terms.items() if len(t) >= _MIN_MASKED_TERM]
    return sorted(kept, key=lambda item: len(item[0]), reverse=True)


def mask(text: str, terms: list[tuple[str, bool]], orientation: Orientation) -> str:
    for term, case in terms:
        flags = 0 if case else re.IGNORECASE
        text = re.sub(rf"(?<!\w){re.escape(term)}(?!\w)", MASK, text, flags=flags)
    for side, pattern in _LABELS.items():
        text = pattern.sub(f"Side {orientation.label(side)}", text)
    return text


def side_lines(orientation: Orientation) -> tuple[str, str]:
    def line(label: str) -> str:
        direction = "for" if orientation.side(label) == "pro" else "against"
        return f"Side {label} argues {direction} the motion."

    return line("A"), line("B")


def render_transcript(record: DebateRecord, orientation: Orientation) -> str:
    terms = masked_terms(record)
    blocks = [_turn_block(turn, terms, orientation) for turn in record.turns]
    return "\n\n".join(blocks)


def _turn_block(turn: Turn, terms: list[tuple[str, bool]], orientation: Orientation) -> str:
    heading = f"[{turn.id}] {turn.phase.capitalize()} — Side {orientation.label(turn.side)}"
    return f"{heading}\n{mask(turn.text.strip(), terms, orientation)}"


def render_evidence(record: DebateRecord, orientation: Orientation) -> str:
    """Each side's passages under their ids, Side A first; a note when there was no prep."""
    if not record.passages:
        return "None: this debate had no prep phase, so there are no evidence passages."
    terms = masked_terms(record)
    blocks = []
    for label in ("A", "B"):
        side = orientation.side(label)
        rows = [p for p in record.passages if p.side == side]
        listed = "\n".join(f"[{p.id}] {mask(p.text.strip(), terms, orientation)}" for p in rows)
        blocks.append(f"Side {label}:\n{listed or '(no passages)'}")
    return "\n\n".join(blocks)


def view_fields(record: DebateRecord, orientation: Orientation) -> dict[str, str]:
    """The template fields of the judge's view shared by the rubric and the fact-check."""
    assert record.run is not None
    side_a, side_b = side_lines(orientation)
    return {
        "motion": record.run.motion,
        "side_a": side_a,
        "side_b": side_b,
        "evidence": render_evidence(record, orientation),
        "transcript": render_transcript(record, orientation),
    }
