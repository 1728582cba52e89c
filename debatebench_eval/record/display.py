"""What the log viewer shows of a debate: headed turns and evidence.

The viewer labels messages only by chat role, so each speech carries a
heading naming phase, side, team, model and tokens; the store keeps the
clean text.
"""

from __future__ import annotations

from debatebench_eval.record.store import Passage, Turn


def turn_heading(turn: Turn) -> str:
    """The heading the log viewer shows above a speech (it labels messages only by chat role)."""
    length = f" ({turn.length})" if turn.length else ""
    return (
        f"### {turn.phase_index + 1}. {turn.phase.capitalize()}{length} — {turn.side.upper()}\n"
        f"*turn {turn.id} · {turn.team_id} · {turn.model} · role {turn.role} · "
        f"{_tokens(turn)}{' · hit budget' if turn.hit_budget else ''}{_cites(turn)}*"
    )


def _tokens(turn: Turn) -> str:
    """Tokens used of the budget; with a reasoning budget, the speech's and the thinking's."""
    if turn.reasoning_budget is None:
        return f"{turn.usage.output_tokens}/{turn.budget} tokens"
    return (
        f"{turn.usage.answer_tokens}/{turn.budget} tokens · "
        f"reasoning {turn.usage.reasoning_tokens}/{turn.reasoning_budget}"
    )


def _cites(turn: Turn) -> str:
    if not turn.cited_ids:
        return ""
    problems = [f"{pid} ({why})" for pid, why in turn.citation_problems.items()]
    flagged = f" · flagged {', '.join(problems)}" if problems else ""
    return f" · cites {', '.join(turn.cited_ids)}{flagged}"


def transcript_markdown(turns: list[Turn]) -> str:
    return "\n\n".join(turn_heading(turn) + "\n\n" + turn.text for turn in turns)


def evidence_heading(side: str, passages: list[Passage]) -> str:
    """What the viewer shows of one side's private evidence (the judge sees it too)."""
    rows = [p for p in passages if p.side == side]
    listed = "\n".join(f"- **[{p.id}]** ({p.pool}: {p.row_id}) {p.text}" for p in rows)
    return f"### Prep evidence — {side.upper()} (private to {side.upper()})\n\n{listed}"
