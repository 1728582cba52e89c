"""Deliberations from an Inspect log in the reference tools' own result shapes.

- heurema: its `debate --json` result, one object per sample:
  `{"answer", "outcome", "rounds", "turns": [{"round", "speaker", "content"}]}`
  (`outcome` is settled, stalemate or max; the synthesis is the answer, not a
  turn), written as `<sample>_<epoch>.heurema.json`.
- ar-debate: its decision record, `analysis/debate_logs/{debate_type}_{timestamp}.json`
  with `debate_id` (`dbt-` and 8 hex digits of the sample's uuid hashed), `final_decision`,
  `reasoning_summary`, `competing_options`, evidence for and against,
  `unresolved_concerns`, `confidence` (null for a forced escalate, whose
  decision is the protocol's rule and not the judge's), `rounds` and the
  transcript by round,
  plus each role's round 1 and round 2 text as
  `{debate_type}_round{N}_{role}.md`, as its skill writes them.

Only complete deliberations of the matching kind are written; the rest are
skipped with the reason (an undecided judge has no decision record).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalSample

from debatebench_eval.core.log_folder import read_log
from debatebench_eval.protocols.record import DeliberationRecord

FORMATS = ("heurema", "ar-debate")
HEUREMA_OUTCOMES = ("settled", "stalemate", "max")
AR_DEBATE_DIR = Path("analysis") / "debate_logs"
AR_DEBATE_KEYS = (
    "debate_id", "debate_type", "proposal", "final_decision", "reasoning_summary",
    "competing_options", "supporting_evidence", "opposing_evidence", "unresolved_concerns",
    "confidence", "rounds", "transcript",
)  # fmt: skip


class Skip(ValueError):
    """A sample the format cannot hold, with the reason."""


def heurema_result(record: DeliberationRecord) -> dict[str, Any]:
    outcome = _complete(record)
    if outcome.kind != "synthesis" or outcome.stop_reason not in HEUREMA_OUTCOMES:
        raise Skip(f"a {outcome.kind} ({outcome.stop_reason}); heurema's result is a synthesis")
    final = next(t for t in record.turns if t.id == outcome.final_turn_ids[-1])
    return {
        "answer": final.text,
        "outcome": outcome.stop_reason,
        "rounds": outcome.rounds,
        "turns": [
            {"round": t.round, "speaker": t.persona_id, "content": t.text}
            for t in record.turns
            if not t.final
        ],
    }


def ar_debate_record(record: DeliberationRecord, sample_uuid: str) -> dict[str, Any]:
    outcome = _complete(record)
    assert record.run is not None
    if outcome.kind != "decision":
        raise Skip("a synthesis; ar-debate's record is a judge's decision")
    if outcome.status != "decided" or outcome.decision is None:
        raise Skip(f"undecided ({outcome.undecided_reason})")
    if record.run.debate_type is None:
        raise Skip("no debate_type (ar-debate files are named by it)")
    decision = outcome.decision
    transcript: dict[str, dict[str, str]] = {}
    for turn in record.turns:
        transcript.setdefault(f"round_{turn.round}", {})[turn.participant] = turn.text
    return {
        # ar-debate's ids are 8 hex digits; Inspect's sample uuids are not hex.
        "debate_id": "dbt-" + hashlib.sha256(sample_uuid.encode()).hexdigest()[:8],
        "debate_type": record.run.debate_type,
        "proposal": decision["proposal"],
        "final_decision": outcome.answer,
        "reasoning_summary": decision["reasoning_summary"],
        "competing_options": decision["competing_options"],
        "supporting_evidence": decision["supporting_evidence"],
        "opposing_evidence": decision["opposing_evidence"],
        "unresolved_concerns": decision["unresolved_concerns"],
        # A forced escalate is ar-debate's rule, not the judge's decision: the
        # judge's confidence was for what it decided, so the record holds none.
        "confidence": None if outcome.forced_escalate else float(decision["confidence"]),
        "rounds": outcome.rounds,
        "transcript": transcript,
    }


def _complete(record: DeliberationRecord) -> Any:
    if record.run is None:
        raise Skip("not a deliberation")
    if not record.complete or record.outcome is None:
        raise Skip("the deliberation did not complete")
    return record.outcome


def export_deliberations(
    log_file: str | Path, out_dir: Path, fmt: str
) -> tuple[list[Path], list[str]]:
    """Write each sample of the log in `fmt`; returns the files written and the skips."""
    log = read_log(log_file)
    written: list[Path] = []
    skipped: list[str] = []
    for sample in log.samples or []:
        name = f"{sample.id}_{sample.epoch}"
        record = sample.store_as(DeliberationRecord)
        try:
            if fmt == "heurema":
                written.append(_write(out_dir / f"{name}.heurema.json", heurema_result(record)))
            else:
                written += _write_ar_debate(out_dir / AR_DEBATE_DIR, record, sample)
        except Skip as skip:
            error = f" ({sample.error.message.splitlines()[0]})" if sample.error else ""
            skipped.append(f"{name}: {skip}{error}")
    return written, skipped


def _write_ar_debate(folder: Path, record: DeliberationRecord, sample: EvalSample) -> list[Path]:
    document = ar_debate_record(record, sample.uuid or str(sample.id))
    kind = document["debate_type"]
    path = folder / f"{kind}_{_timestamp(sample.completed_at)}.json"
    if path.exists():  # two decisions in the same second: keep both
        path = path.with_name(f"{path.stem}_{document['debate_id']}.json")
    written = [_write(path, document)]
    for turn in record.turns:
        if turn.round in (1, 2) and not turn.final:
            md = folder / f"{kind}_round{turn.round}_{turn.participant}.md"
            md.write_text(turn.text + "\n", encoding="utf-8")
            written.append(md)
    return written


def _timestamp(completed_at: str | None) -> str:
    when = datetime.fromisoformat(completed_at) if completed_at else datetime.now(UTC)
    return when.astimezone(UTC).strftime("%Y%m%d_%H%M%S")


def _write(path: Path, document: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")
    return path
