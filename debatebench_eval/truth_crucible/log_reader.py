"""A saved crucible log, sample by sample: the record, its newest score, its cost.

The report and the graph read what the run stored (the CrucibleRecord and the
`crucible_score` score), never the chat messages. A log re-judged with
`inspect score --action append` holds several crucible scores; the newest is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalSample
from inspect_ai.scorer import Score

from debatebench_eval.core.log_files import log_file
from debatebench_eval.core.log_folder import read_log, task_name
from debatebench_eval.truth_crucible.record import CrucibleRecord

SCORER = "crucible_score"


class NotACrucibleLog(ValueError):
    """The file is not a crucible log, or holds no sample to report."""


@dataclass(frozen=True)
class CrucibleSample:
    id: str
    record: CrucibleRecord
    score: Score | None
    error: str | None
    calls: int  # model calls made (live or from the cache)
    replayed: int  # calls answered from Inspect's cache (a resumed run)


def read_samples(location: str | Path) -> list[CrucibleSample]:
    path = log_file(location)
    if not path.is_file():
        raise NotACrucibleLog(f"log file not found: {path}")
    log = read_log(path)
    if task_name(log) != "crucible":
        raise NotACrucibleLog(f"{path} is a {log.eval.task} log, not a crucible log")
    samples = [_sample(s) for s in log.samples or []]
    if not samples:
        raise NotACrucibleLog(f"{path} holds no samples (was it written with --no-log-samples?)")
    return samples


def _sample(sample: EvalSample) -> CrucibleSample:
    record = sample.store_as(CrucibleRecord)
    names = [name for name in (sample.scores or {}) if name.startswith(SCORER)]
    score = (sample.scores or {})[names[-1]] if names else None
    models = [e for e in sample.events if isinstance(e, ModelEvent)]
    return CrucibleSample(
        id=str(sample.id),
        record=record,
        score=score,
        error=sample.error.message if sample.error else None,
        calls=len(models),
        replayed=sum(e.cache == "read" for e in models),
    )
