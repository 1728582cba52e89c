"""Export debates from an Inspect log in debatebench's transcript format.

debatebench 0.1.x tools (its `judge`, its readers) take a schema_version 2
transcript: `run` (topic, seed, phases, both sides with a team snapshot) and
`turns` keyed by (phase_index, side_index); a prep turn carries its side's
passages as `evidence`, which is where debatebench keeps them. Only complete
debates are exported; a failed sample has no transcript to give. A debate
the rubric scored also gets its debatebench score file (`score_file`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, EvalSample

from debatebench_eval.core.arguments import as_int
from debatebench_eval.core.log_folder import read_log
from debatebench_eval.core.version import __version__
from debatebench_eval.interop.score_file import is_scored, score_sheet
from debatebench_eval.judging.options import DEFAULT_JUDGE_BUDGET
from debatebench_eval.record.store import DebateRecord, Passage, Turn
from debatebench_eval.servers.replies import BUDGET_TOLERANCE

TRANSCRIPT_SCHEMA_VERSION = 2
SIDE_INDEX = {"pro": 0, "con": 1}
# Inspect normalises finish reasons; debatebench records the OpenAI ones.
_FINISH_REASONS = {
    "max_tokens": "length",
    "model_length": "length",
    "content_filter": "content_filter",
}


def transcript_from_record(record: DebateRecord) -> dict[str, Any]:
    """A debatebench schema_version 2 transcript for one complete debate."""
    if record.run is None or not record.complete:
        raise ValueError("the debate is not complete, so it has no transcript")
    run = record.run
    sides = sorted(run.sides, key=lambda s: SIDE_INDEX[s.side])
    turns = [_turn(turn, record.passages) for turn in record.turns]
    return {
        "schema_version": TRANSCRIPT_SCHEMA_VERSION,
        "debatebench_version": f"debatebench-eval {__version__}",
        "started_at": record.turns[0].started_at,
        "finished_at": record.turns[-1].started_at,
        "run": {
            "topic": run.motion,
            "seed": run.seed,
            "budget_tolerance": BUDGET_TOLERANCE,
            "phases": [phase.split(":", 1)[0] for phase in run.phases],
            "sides": [
                {
                    "index": SIDE_INDEX[side.side],
                    "team_file": side.team_file,
                    "team": {
                        k: side.team.get(k)
                        for k in ("id", "name", "voice", "stance", "values", "corpus")
                    },
                    "side": side.side,
                    "model": side.model,
                    "base_url": side.base_url or "",
                    "budget": side.budget,
                    "prep_budget": side.prep_budget,
                }
                for side in sides
            ],
        },
        "turns": turns,
    }


def _turn(turn: Turn, passages: list[Passage]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "phase_index": turn.phase_index,
        "phase": turn.phase,
        "side_index": SIDE_INDEX[turn.side],
        "order": turn.order,
        "text": turn.text,
        "usage": {
            "prompt_tokens": turn.usage.input_tokens,
            "completion_tokens": turn.usage.output_tokens,
        },
        "budget": turn.budget,
        "hit_budget": turn.hit_budget,
        "finish_reason": _FINISH_REASONS.get(turn.finish_reason, turn.finish_reason),
        "latency_ms": turn.latency_ms,
        "started_at": turn.started_at,
    }
    evidence = [p for p in passages if p.side == turn.side] if turn.phase == "prep" else []
    if evidence:  # absent, never empty, as debatebench writes it
        out["evidence"] = [{"id": p.id, "source": p.pool, "text": p.text} for p in evidence]
    if turn.length is not None:
        out["length"] = turn.length
    return out


def export_log(log_file: str | Path, out_dir: Path) -> tuple[list[Path], list[str]]:
    """Write one transcript per complete sample, and a score file per scored one.

    Returns the files written, and what was skipped or left out with why. Files are NAME.json and
    NAME-scores.json, NAME being `<sample id>-epoch<N>`.
    """
    log = read_log(log_file)
    budget = judge_budget(log)
    written: list[Path] = []
    skipped: list[str] = []
    out_dir.mkdir(parents=True, exist_ok=True)
    for sample in log.samples or []:
        name = f"{sample.id}-epoch{sample.epoch}"
        record = _record(sample)
        if record is None or not record.complete:
            skipped.append(
                f"{name}: {sample.error.message if sample.error else 'incomplete debate'}"
            )
            continue
        written.append(_write(out_dir / f"{name}.json", transcript_from_record(record)))
        scores = sample.scores or {}
        rubric = scores.get("rubric")
        if rubric is not None and not is_scored(rubric):
            reason = " ".join((rubric.reason or "no reason recorded").split())[:200]
            skipped.append(f"{name}: no score file, the rubric left it unscored ({reason})")
        if rubric is not None and is_scored(rubric):
            sheet = score_sheet(
                record,
                rubric,
                scores.get("fact_check"),
                # The score records its budget; older logs only in the eval spec.
                judge_budget=int((rubric.metadata or {}).get("judge_budget") or budget),
                judged_at=sample.completed_at,
            )
            written.append(_write(out_dir / f"{name}-scores.json", sheet))
    return written, skipped


def judge_budget(log: EvalLog) -> int:
    """The rubric scorer's completion-token cap, as the log's eval spec records it."""
    for scorer in log.eval.scorers or []:
        if scorer.name.rsplit("/", 1)[-1] == "rubric":
            given = (scorer.options or {}).get("judge_budget")
            return as_int("judge_budget", given) or DEFAULT_JUDGE_BUDGET
    return DEFAULT_JUDGE_BUDGET


def _write(path: Path, document: dict[str, Any]) -> Path:
    """Strict JSON as debatebench writes it: no NaN, non-ASCII kept as is."""
    text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def _record(sample: EvalSample) -> DebateRecord | None:
    record = sample.store_as(DebateRecord)
    return record if record.run is not None else None
