"""What the log viewer shows of a deliberation: a heading above each turn.

The viewer labels messages only by chat role, so each turn carries a
heading naming its round, participant, persona, model, role, length and
what it was shown; the store keeps the clean text.
"""

from __future__ import annotations

from typing import Any

from debatebench_eval.protocols.record import DeliberationTurn, Outcome


def turn_heading(turn: DeliberationTurn, final_kind: str | None = None) -> str:
    if turn.final:
        step = "Decision" if final_kind == "decision" else "Synthesis"
        title = f"### {step} (round {turn.round}) — {turn.participant}"
    else:
        title = f"### Round {turn.round} · {turn.round_name} — {turn.participant}"
    words = f"{turn.words}/{turn.max_words} words" if turn.max_words else f"{turn.words} words"
    details = [
        turn.persona_id,
        turn.model,
        f"role {turn.inspect_role}",
        words + (" (over the limit)" if turn.over_word_limit else ""),
        f"{turn.usage.output_tokens}/{turn.budget} tokens"
        + (" (hit budget)" if turn.hit_budget else ""),
        f"saw {len(turn.shown)} turns ({turn.visibility})",
    ]
    if turn.signal is not None:
        objections = len(turn.signal.objections)
        details.append("signal: done" if turn.signal.done else f"signal: {objections} objection(s)")
    return f"{title}\n*{' · '.join(details)}*"


def outcome_heading(outcome: Outcome) -> str:
    """A line above the final answer: how the deliberation ended."""
    if outcome.status == "undecided":
        return f"**Undecided** after {outcome.rounds} round(s): {outcome.undecided_reason}"
    ended = f"{outcome.stop_reason} after {outcome.rounds} round(s)"
    if outcome.kind == "decision" and outcome.decision is not None:
        forced = f" ({forced_note(outcome.decision)})" if outcome.forced_escalate else ""
        return f"**Decision: {outcome.answer}**{forced} · {ended}"
    return f"**Synthesis** · {ended}"


def forced_note(decision: dict[str, Any]) -> str:
    """Why a forced escalate has no confidence: the judge's belonged to its own reply."""
    return (
        "forced: the extra round did not resolve it; no confidence — "
        f"the judge's {decision.get('confidence')} was for its own "
        f"{decision.get('final_decision')!r}"
    )
