"""debatebench score files from a sample's `rubric` and `fact_check` scores.

debatebench 0.1.x's `judge` writes one score file per transcript (its
schema_version 2): who judged with what budget, per side the five dimensions
with score, max and justification (`prep_grounded` on the evidence dimension,
`hit_ledger` and `hit_ledger_reported` on the ledger dimension) and the total,
then `winner` and `winner_reason`, and a `fact_check` section only when the
fact-check ran. `export` writes one next to each transcript it exports, so a
debate judged here reads like one judged there.

Where ours differs, by design, and how it is written:

- **Scores may be non-integers.** debatebench asks one judge once, so its
  scores are whole numbers; ours are the mean of two blind orientations and
  the median across a panel. They are written as those numbers, never rounded
  (25.5 stays 25.5; a whole number is written as an integer). A reader that
  insists on integers will refuse them, which is right: rounding would change
  totals and could change the winner.
- **One justification per dimension**: the first reading's (first judge, first
  orientation). Every reading's justification stays in the Inspect log.
- **`hit_ledger`** is the first reading's ledger; `hit_ledger_reported` is
  always true, because our rubric refuses a reply without one.
- **`judge_model`** is the Inspect model name, a panel's names joined by ", ".
- **`winner_reason`** may also be `stance_forfeit` (a side the judges found
  arguing the other position forfeits), a reason debatebench does not have.
- **Fact-check claims** keep debatebench's keys (`phase_index`, `side_index`,
  `claim`, `verdict`, `evidence_ids`). Our judge may cite turns as well as
  passages; `evidence_ids` lists only the recorded passages a claim cites (the
  only ids debatebench's field can hold), and each claim also carries `turn`,
  `reason` and every citation with its verification result. A fact-check that
  ran but could not be scored leaves the section out and says why in
  `fact_check_error`.
- **`margin_tier`** (RESOLVED / CONTESTED_BUT_LEANING / UNRESOLVED) is added.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from inspect_ai.scorer import Score

from debatebench_eval.core.version import __version__
from debatebench_eval.record.protocol import SIDES
from debatebench_eval.record.store import DebateRecord, Turn

SCORE_SCHEMA_VERSION = 2
CHECKED_AGAINST = "recorded_evidence"
# The rubric metadata names its ledger dimension; logs written before it did
# used the bundled rubric, whose ledger dimension this is.
DEFAULT_LEDGER_DIMENSION = "rebuttal_effectiveness"
_NO_PASSAGES_NOTE = (
    "this debate recorded no prep evidence, so claims were checked against the turns alone"
)


def is_scored(score: Score | None) -> bool:
    """A rubric score with numbers (Inspect's unscored sentinel is NaN at the root)."""
    return score is not None and isinstance(score.value, dict) and "sides" in (score.metadata or {})


def score_sheet(
    record: DebateRecord,
    rubric: Score,
    fact_check: Score | None,
    *,
    judge_budget: int,
    judged_at: str | None,
) -> dict[str, Any]:
    """The score file for one judged debate (the rubric score must be scored)."""
    assert record.run is not None and rubric.metadata is not None
    meta = rubric.metadata
    sheet: dict[str, Any] = {
        "schema_version": SCORE_SCHEMA_VERSION,
        "debatebench_version": f"debatebench-eval {__version__}",
        "judged_at": utc_seconds(judged_at),
        "judge_model": ", ".join(meta["judges"]),
        "judge_budget": judge_budget,
        "fact_check_enabled": fact_check is not None,
        "sides": [
            _side(meta, side.side)
            for side in sorted(record.run.sides, key=lambda s: SIDES.index(s.side))
        ],
        "winner": meta["winner"],
        "winner_reason": meta["winner_reason"],
        "margin_tier": meta["margin_tier"],
    }
    if fact_check is not None:
        sheet.update(_fact_check(record, fact_check))
    return sheet


def _side(meta: dict[str, Any], side: str) -> dict[str, Any]:
    details = meta["sides"][side]
    ledger_name = meta["rubric"].get("ledger", DEFAULT_LEDGER_DIMENSION)
    first_by = _first_reading(details)
    dimensions = {}
    for name, dimension in details["dimensions"].items():
        body: dict[str, Any] = {
            "score": number(dimension["score"]),
            "max": dimension["max"],
            "justification": dimension["justifications"][0]["text"],
        }
        if "prep_grounded" in dimension:
            body["prep_grounded"] = dimension["prep_grounded"]
        if name == ledger_name:
            body["hit_ledger"] = [
                {"point": e["point"], "status": e["status"]}
                for e in details["hit_ledger"]
                if e["by"] == first_by
            ]
            body["hit_ledger_reported"] = True
        dimensions[name] = body
    return {
        "side_index": SIDES.index(side),
        "side": side,
        "dimensions": dimensions,
        "total": number(meta["totals"][side]),
    }


def _first_reading(details: dict[str, Any]) -> str:
    """Who gave the first reading ("judge, as Side A"): every justification list starts with it."""
    first_dimension = next(iter(details["dimensions"].values()))
    return str(first_dimension["justifications"][0]["by"])


def _fact_check(record: DebateRecord, score: Score) -> dict[str, Any]:
    if not isinstance(score.value, dict) or "ledger" not in (score.metadata or {}):
        return {"fact_check_error": score.reason or "the fact-check was not scored"}
    assert score.metadata is not None
    turns = {turn.id: turn for turn in record.turns}
    section: dict[str, Any] = {"checked_against": CHECKED_AGAINST}
    if not record.passages:
        section["note"] = _NO_PASSAGES_NOTE
    section["claims"] = [_claim(entry, turns[entry["turn"]]) for entry in score.metadata["ledger"]]
    return {"fact_check": section}


def _claim(entry: dict[str, Any], turn: Turn) -> dict[str, Any]:
    citations = entry.get("citations", [])
    return {
        "phase_index": turn.phase_index,
        "side_index": SIDES.index(turn.side),
        "claim": entry["claim"],
        "verdict": entry["verdict"],
        "evidence_ids": [c["id"] for c in citations if c.get("kind") == "passage"],
        "turn": turn.id,
        "reason": entry.get("reason", ""),
        "citations": citations,
    }


def number(value: float) -> float | int:
    """A whole number as an integer (as debatebench writes it); anything else as it is."""
    return int(value) if float(value).is_integer() else value


def utc_seconds(timestamp: str | None) -> str:
    """An ISO time in debatebench's form, 2026-09-15T15:26:53Z (now, when unknown)."""
    moment = datetime.fromisoformat(timestamp) if timestamp else datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
