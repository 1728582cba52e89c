"""The headed messages the viewer shows for each stage (Markdown).

`inspect view` labels messages only by chat role, so each stage's message
carries its own heading (stage, side, round); the store keeps the clean data.
"""

from __future__ import annotations

from debatebench_eval.truth_crucible.conflicts import render_conflicts
from debatebench_eval.truth_crucible.record import (
    Claim,
    Conflict,
    CrucibleTurn,
    Diagnosis,
    RoundReview,
)


def cell(text: str, limit: int = 240) -> str:
    """Text fit for one Markdown table cell: one line, pipes escaped, long text cut."""
    flat = " ".join(str(text).split()).replace("|", "\\|")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


_FAILED = "❌"  # red in the viewer, where a plain ✗ reads like ✓ at a glance
_CLAIM_CHARS = 1000


def mark(verified: bool) -> str:
    return "✓" if verified else _FAILED


def claims_message(side: str, claims: list[Claim]) -> str:
    """One row a claim: the id in code (kept whole), the mark, the confidence, the
    whole claim, then the evidence last, each with its own words ("lines", "conf.")
    so neighbouring cells cannot read as one number."""
    verified = sum(c.verified for c in claims)
    rows = ["| id | ok | conf. | claim | evidence |", "|---|---|---|---|---|"]
    for claim in claims:
        evidence = "<br>".join(
            f"{mark(e.verified)} `{cell(e.file, 80)}` lines {e.line_start} to {e.line_end}"
            + ("" if e.verified else f": **{cell(e.problem or '', 160)}**")
            for e in claim.evidence
        )
        rows.append(
            f"| `{claim.id}` | {mark(claim.verified)} | {claim.confidence:g} | "
            f"{cell(claim.claim, _CLAIM_CHARS)} | {evidence} |"
        )
    heading = f"### Claims — {side.upper()} ({len(claims)} filed, {verified} verified)"
    return heading + "\n\n" + "\n".join(rows)


def neutral_message(diagnosis: Diagnosis, question: str) -> str:
    rows = ["| dimension | score | phrase | note |", "|---|---|---|---|"]
    rows += [
        f"| {name} | {d.score} | {cell(d.phrase, 80)} | {cell(d.note)} |"
        for name, d in diagnosis.dimensions.items()
    ]
    wording = f"\n\nNeutral wording: {diagnosis.neutral_question}"
    return (
        f"### Topic neutralisation ({diagnosis.mode})\n\nQuestion: {question}\n\n"
        + "\n".join(rows)
        + wording
        + f"\n\n{diagnosis.note}"
    )


def conflicts_message(conflicts: list[Conflict], note: str | None) -> str:
    body = render_conflicts(conflicts) if conflicts else f"None: {note}"
    return f"### Conflicts ({len(conflicts)})\n\n{body}"


def turn_message(turn: CrucibleTurn) -> str:
    arguing = f" (arguing {turn.argues.upper()})" if turn.kind == "swap" else ""
    lines = [f"### Round {turn.round} — {turn.side.upper()} {turn.kind}{arguing} [{turn.id}]", ""]
    if turn.steelman is not None:
        lines.append(f"**Steelman of {turn.steelman.claim}:** {turn.steelman.restatement}\n")
    lines += [f"- attack {a.claim} → {a.target}: {a.argument}" for a in turn.attacks]
    lines += [f"- defence of {d.claim}: {d.reply}" for d in turn.defends]
    lines += ["", turn.speech]
    return "\n".join(lines)


def review_message(review: RoundReview, stopped: bool) -> str:
    name = "the swap round" if review.kind == "swap" else f"round {review.round}"
    heading = (
        f"### Review after {name} (convergence {review.convergence:.2f}, "
        f"lexical {review.lexical:.2f})"
    )
    lines = [heading, "", review.reason]
    lines += [f"- steelman {g.turn}: fidelity {g.fidelity}/5 — {g.reason}" for g in review.steelman]
    if review.conceded:
        lines.append(f"- conceded: {', '.join(review.conceded)}")
    if stopped:
        lines.append("\n**The sides converged: the debate stops early.**")
    return "\n".join(lines)
