"""The meta-judge's audit of the panel, and its one targeted rescore.

The harness flags every claim whose weighted total varies across the valid
readings by `audit_spread` or more; with flags and at least two valid
readings, the meta-judge sees those claims with each reading's scores and
comments (readings as J1..Jn, claims blind) and says whether the panel was
consistent. It may ask one reading to score some flagged claims again. At most
one rescore happens per sample, whatever the meta-judge replies: the audit
runs once, after every reading, and never again after its rescore.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from debatebench_eval.crucible.blindview import BlindView
from debatebench_eval.crucible.panel import ClaimScores, weighted_total
from debatebench_eval.crucible.record import CrucibleRecord
from debatebench_eval.crucible.replies import TEXT, array, obj, text

MAX_RESCORES = 1


def flagged(
    readings: list[ClaimScores], weights: dict[str, float], spread: float
) -> dict[str, float]:
    """Claims whose weighted totals across readings span `spread` or more: claim -> span."""
    if len(readings) < 2:
        return {}
    found = {}
    for claim in readings[0]:
        totals = [
            weighted_total({d: s for d, (s, _) in r[claim].items()}, weights) for r in readings
        ]
        span = round(max(totals) - min(totals), 4)
        if span >= spread:
            found[claim] = span
    return found


def audit_schema() -> dict[str, Any]:
    rescore = obj({"judge": TEXT, "claims": array(TEXT), "reason": TEXT})
    return obj({"consistent": {"type": "boolean"}, "reason": TEXT, "rescore": rescore})


def audit_shape() -> str:
    none = {"judge": "", "claims": [], "reason": ""}
    return json.dumps({"consistent": True, "reason": "...", "rescore": none}, indent=2) + (
        '\n(To ask for a rescore: "consistent": false and "rescore": '
        '{"judge": "J2", "claims": ["K3"], "reason": "..."}.)'
    )


def render_flagged(
    record: CrucibleRecord, view: BlindView, spans: dict[str, float], readings: list[ClaimScores]
) -> str:
    blocks = []
    for claim in view.ordered(record):
        if claim.id not in spans:
            continue
        lines = [
            view.claim_block(claim, with_lines=True),
            f"  totals span {spans[claim.id]:g} points across judges",
        ]
        for number, reading in enumerate(readings, 1):
            scored = ", ".join(f"{d} {s}" for d, (s, _) in reading[claim.id].items())
            comments = " | ".join(f"{d}: {view.text(c)}" for d, (_, c) in reading[claim.id].items())
            lines.append(f"  J{number}: {scored}\n      comments: {comments}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


@dataclass(frozen=True)
class Audit:
    consistent: bool
    reason: str
    rescore_reading: int | None  # index into the valid readings
    rescore_claims: list[str]
    rescore_reason: str


def check_audit(
    reply: Any, view: BlindView, spans: dict[str, float], readings: int
) -> tuple[Audit | None, list[str]]:
    """The audit, its reasons with the judge's labels put back (`BlindView.reveal`)."""
    if not isinstance(reply, dict) or not isinstance(reply.get("consistent"), bool):
        return None, ['the reply must be an object with a true/false "consistent"']
    problems: list[str] = []
    reason = text(reply.get("reason")) or ""
    if not reason:
        problems.append('"reason" is missing or empty')
    rescore = reply.get("rescore")
    judge = rescore.get("judge", "") if isinstance(rescore, dict) else ""
    if not isinstance(rescore, dict) or not isinstance(judge, str):
        problems.append('"rescore" must be an object with "judge", "claims" and "reason"')
        return None, problems
    reason = view.reveal(reason)
    if not judge.strip():
        return (
            (None, problems) if problems else (Audit(reply["consistent"], reason, None, [], ""), [])
        )
    if reply["consistent"]:
        problems.append('a rescore is asked for although "consistent" is true')
    names = [f"J{i}" for i in range(1, readings + 1)]
    if judge.strip() not in names:
        problems.append(f'"rescore.judge" is {judge!r}; expected one of {", ".join(names)}')
    claims = _claims(rescore.get("claims"), view, spans, problems)
    if problems:
        return None, problems
    why = view.reveal(str(rescore.get("reason", "")).strip())
    return Audit(False, reason, names.index(judge.strip()), claims, why), []


def _claims(value: Any, view: BlindView, spans: dict[str, float], problems: list[str]) -> list[str]:
    if not isinstance(value, list) or not value:
        problems.append('"rescore.claims" must list the flagged claims to score again')
        return []
    ids = []
    for label in value:
        claim = view.claim_of(str(label).strip().strip("[]"))
        if claim is None or claim not in spans:
            problems.append(f'"rescore.claims": {label!r} is not a flagged claim shown')
        elif claim not in ids:
            ids.append(claim)
    return ids
