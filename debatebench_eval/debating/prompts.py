"""Build what each debater is shown, from the prompt templates in tasks/prompts/.

Plain functions over plain data: tests can assert the exact prompt a side
receives (what it sees of the other side, and what it never sees).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from debatebench_eval.core.resources import data_file
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.record.protocol import Phase
from debatebench_eval.record.store import Passage, Turn
from debatebench_eval.record.teams import Team


@dataclass(frozen=True)
class DebaterPrompts:
    system: str
    history_heading: str
    turn_heading: str
    nothing_yet: str
    length: str
    evidence_heading: str
    notes_heading: str
    cite: str
    phases: dict[str, str]


@cache
def debater_prompts() -> DebaterPrompts:
    data: dict[str, Any] = load_yaml(
        data_file("tasks", "prompts", "debater.yaml"), "prompt templates"
    )
    return DebaterPrompts(**data)


def system_prompt(team: Team, side: str, motion: str) -> str:
    template = debater_prompts().system
    text = template.format(
        name=team.name,
        stance=team.stance,
        voice=team.voice,
        values=", ".join(team.values),
        brief=team.brief or "",
        motion=motion,
        side=side.upper(),
        direction=direction(side),
    )
    # A team without a brief leaves an empty line where it would go.
    return "\n".join(line for line in text.splitlines() if line.strip()) + "\n"


def direction(side: str) -> str:
    """The side's position on the motion, as the prompts say it."""
    return "for" if side == "pro" else "against"


def phase_prompt(
    phase: Phase, history: list[Turn], side: str, passages: list[Passage] | None = None
) -> str:
    """The user message for one turn: the side's own evidence and notes (when prep ran),
    the debate so far (never the opponent's prep), then the instruction."""
    prompts = debater_prompts()
    own = [p for p in passages or [] if p.side == side]
    instruction = prompts.phases[phase.name].format(direction=direction(side))
    if phase.sentences is not None:
        instruction = f"{instruction} {prompts.length.format(sentences=phase.sentences)}"
    if phase.is_prep:
        return f"{render_evidence(own)}\n\n{instruction}"
    spoken = [turn for turn in history if turn.phase != "prep"]
    notes = [turn.text for turn in history if turn.phase == "prep" and turn.side == side]
    blocks = []
    if own:
        blocks.append(render_evidence(own))
        blocks += [f"{prompts.notes_heading}\n{text}" for text in notes]
        instruction = f"{instruction} {prompts.cite}"
    return "\n\n".join([*blocks, render_history(spoken), instruction])


def render_evidence(passages: list[Passage]) -> str:
    listed = "\n".join(f"[{p.id}] {p.text.strip()}" for p in passages)
    return f"{debater_prompts().evidence_heading}\n{listed}"


def render_history(history: list[Turn]) -> str:
    prompts = debater_prompts()
    if not history:
        return prompts.nothing_yet
    blocks = [
        prompts.turn_heading.format(
            number=number, phase=turn.phase.capitalize(), side=turn.side.upper()
        )
        + "\n"
        + turn.text.strip()
        for number, turn in enumerate(history, start=1)
    ]
    return prompts.history_heading + "\n\n" + "\n\n".join(blocks)
