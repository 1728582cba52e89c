"""What the agreement figures need of the judge beyond an item's verdict: its scores on
each dimension (as shares of the dimension's maximum), the side that spoke first, and
which judge models read the debate.

Read from the same logs as the items (`annotation.items`), sample by sample, from
the rubric score's metadata (`sides`, `readings`) and the debate's record.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from debatebench_eval.annotation.items import Item
from debatebench_eval.core.log_folder import LogFolder
from debatebench_eval.judging.repeats import judge_groups
from debatebench_eval.record.store import DebateRecord

RUBRIC_SCORERS = ("rubric", "debatebench/rubric", "debatebench_eval/rubric")


@dataclass(frozen=True)
class JudgeReading:
    """One rubric debate as the judge read it."""

    # side -> dimension -> score / maximum (empty when the score holds none)
    shares: dict[str, dict[str, float]] = field(default_factory=dict)
    opener: str | None = None
    judges: tuple[str, ...] = ()


def judge_readings(log_dir: str | Path, items: Iterable[Item]) -> dict[str, JudgeReading]:
    """The judge's reading of each rubric item, by item id (items of logs that cannot be
    read again are left out: their figures then count without dimensions or opener)."""
    wanted = {item.item: item for item in items if item.kind == "rubric"}
    logs = {item.log for item in wanted.values()}
    found: dict[str, JudgeReading] = {}
    # Only the items' logs are opened (the reader notes nothing the items did not).
    reader = LogFolder.of(log_dir)
    for log in reader.logs(files=logs):
        for sample in reader.samples(log):
            key = f"{log.name}:{sample.id}:{sample.epoch}"
            if key in wanted:
                found[key] = _reading(sample)
    return found


def _reading(sample: object) -> JudgeReading:
    scores = getattr(sample, "scores", None) or {}
    score = next((scores[k] for k in RUBRIC_SCORERS if k in scores), None)
    meta = (score.metadata or {}) if score is not None else {}
    shares = {
        side: {
            name: float(d["score"]) / float(d["max"])
            for name, d in (part.get("dimensions") or {}).items()
            if d.get("score") is not None and d.get("max")
        }
        for side, part in (meta.get("sides") or {}).items()
    }
    groups = judge_groups(meta.get("readings") or [])
    judges = tuple(dict.fromkeys(str(group[0].get("judge")) for group in groups))
    record = sample.store_as(DebateRecord)  # type: ignore[attr-defined]
    return JudgeReading(shares, record.opener(), judges)
