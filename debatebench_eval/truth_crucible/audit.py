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
from functools import lru_cache
from typing import Any

from pydantic import ValidationInfo

from debatebench_eval.core.reply_model import Prose, ReplyModel, reply_schema
from debatebench_eval.truth_crucible.blindview import BlindView
from debatebench_eval.truth_crucible.panel import ClaimScores, weighted_total
from debatebench_eval.truth_crucible.record import CrucibleRecord
from debatebench_eval.truth_crucible.replies import MODELS_KEPT, list_of, model, one_of, parsed

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


_AUDIT_DOC = (
    "The meta-judge's audit. In the schema: the judge to rescore as the enum of the "
    'readings (J1...) or "" for none, the claims as the enum of the flagged labels shown, '
    "text bounds. Not in the schema (rules across fields): that a rescore names claims "
    '(checked on "rescore.claims") and is asked only when "consistent" is false (checked '
    'on "rescore").'
)


@lru_cache(maxsize=MODELS_KEPT)
def audit_model(flagged_labels: tuple[str, ...], readings: int) -> type[ReplyModel]:
    """The audit reply for these flagged labels and this many valid readings."""
    rescore = model(
        "Rescore",
        'One reading to score some flagged claims again, or none (judge "").',
        {"claims": _names_claims},
        judge=one_of(["", *judge_names(readings)]),
        claims=list_of(one_of(flagged_labels)),
        reason=str,
    )
    return model(
        "CrucibleAudit",
        _AUDIT_DOC,
        {"rescore": _only_if_inconsistent},
        consistent=bool,
        reason=Prose,
        rescore=rescore,
    )


def _names_claims(value: list[str], info: ValidationInfo) -> list[str]:
    if info.data.get("judge") and not value:
        raise ValueError("expected the flagged claims to score again")
    return list(dict.fromkeys(value))


def _only_if_inconsistent(value: Any, info: ValidationInfo) -> Any:
    if value.judge and info.data.get("consistent") is True:
        raise ValueError('a rescore is asked for although "consistent" is true')
    return value


def judge_names(readings: int) -> list[str]:
    return [f"J{i}" for i in range(1, readings + 1)]


def flagged_labels(view: BlindView, spans: dict[str, float]) -> tuple[str, ...]:
    return tuple(label for claim, label in view.labels.items() if claim in spans)


def audit_schema(view: BlindView, spans: dict[str, float], readings: int) -> dict[str, Any]:
    return reply_schema(audit_model(flagged_labels(view, spans), readings))


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
    value, problems = parsed(audit_model(flagged_labels(view, spans), readings), reply)
    if value is None:
        return None, problems
    reason, rescore = view.reveal(value["reason"]), value["rescore"]
    if not rescore["judge"]:
        return Audit(value["consistent"], reason, None, [], ""), []
    claims = [claim for label in rescore["claims"] if (claim := view.claim_of(label))]
    reading = judge_names(readings).index(rescore["judge"])
    return Audit(False, reason, reading, claims, view.reveal(rescore["reason"].strip())), []
