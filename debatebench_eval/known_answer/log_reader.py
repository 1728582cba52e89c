"""Read oversight logs: each protocol's judged samples, and the judged debates.

Each log is one protocol's run (`inspect eval debatebench/oversight -T protocol=...`,
or one task of an eval set); several runs of one protocol are pooled. A sample
whose judge gave no usable reply is left out, as the scorer's metrics leave it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from inspect_ai.log import EvalSample

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.log_folder import FolderLog, LogFolder, Note
from debatebench_eval.known_answer.comparison import Comparison, compare_runs
from debatebench_eval.known_answer.preconditions import JudgedSample, Run
from debatebench_eval.known_answer.record import OversightRecord
from debatebench_eval.known_answer.stats import JudgedDebate, Outcome

SCORER = "judge_accuracy"


def sample_outcome(sample: EvalSample) -> Outcome | None:
    """A judged sample's outcome (None: no judge's reply could be used)."""
    score = judge_score(sample.scores or {})
    value = score.value if score is not None else None
    if not isinstance(value, dict) or math.isnan(value.get("accuracy", math.nan)):
        return None
    correct, p = bool(value["accuracy"]), float(value["p_correct"])
    question = (sample.metadata or {})["question_id"]
    return Outcome(question, correct, p, p if correct else 1 - p)


def compare_logs(paths: Sequence[str], notes: list[Note] | None = None) -> Comparison:
    """The comparison of the protocols the logs ran (a folder: every finished oversight
    log in it), with the preconditions and the belief by round; what was passed over is
    added to `notes`."""
    return compare_runs(read_runs(paths, notes))


def read_runs(paths: Sequence[str], notes: list[Note] | None = None) -> list[Run]:
    """Each oversight log's judged samples, with who judged and who spoke."""
    runs: list[Run] = []
    for log, samples in _oversight_samples(paths, notes):
        rounds = log.metadata.get("rounds")
        run = Run(str(log.metadata["protocol"]), rounds if isinstance(rounds, int) else None)
        for sample in samples:
            outcome = sample_outcome(sample)
            if outcome is None:
                continue
            meta = judge_score(sample.scores or {}).metadata or {}
            run.samples.append(JudgedSample(outcome, meta))
            run.judges |= {r["model"] for r in meta.get("readings") or [] if r.get("answer")}
            run.speakers |= {m for _, m, _ in sample.store_as(OversightRecord).speakers}
        runs.append(run)
    return runs


def judged_debates(paths: Sequence[str], notes: list[Note] | None = None) -> list[JudgedDebate]:
    """Every judged two-debater sample (debate or open) of the logs, for the
    persuasiveness rating: each debater's model, and whom the judge sided with."""
    found: list[JudgedDebate] = []
    for _, samples in _oversight_samples(paths, notes):
        found += [d for d in map(judged_debate, samples) if d is not None]
    return found


def judged_debate(sample: EvalSample) -> JudgedDebate | None:
    score = judge_score(sample.scores or {})
    record = sample.store_as(OversightRecord)
    models = {role: model for role, model, _ in record.speakers}
    pick = None if score is None else (score.metadata or {}).get("pick")
    if pick is None or not {"pro", "con"} <= set(models):
        return None
    return JudgedDebate(
        question=(sample.metadata or {})["question_id"], pro=models["pro"], con=models["con"],
        pro_won=pick == record.assignment["pro"], correct=pick == record.correct_label,
    )  # fmt: skip


def judge_score(scores: dict[str, Any]) -> Any:
    """A sample's known-answer score, under the scorer's name or its alias."""
    return scores.get(SCORER) or scores.get(f"debatebench/{SCORER}")


def is_oversight(log: FolderLog) -> bool:
    return log.metadata.get("protocol") is not None and log.task == "oversight"


def _oversight_samples(
    paths: Sequence[str], notes: list[Note] | None
) -> Iterator[tuple[FolderLog, Iterator[EvalSample]]]:
    """Each finished oversight log named, or in a folder named, with its samples. In a
    folder a log still being written, or of another
    task, is passed over; a log file named that is no oversight log is an error."""
    reader = LogFolder(paths)
    logs = reader.logs()
    for log in logs:
        if log.named and not is_oversight(log):
            raise ConfigError(log.location, "not an oversight log with samples",
                              "a debatebench/oversight log")  # fmt: skip
    for log in logs:
        if log.finished and is_oversight(log):
            yield log, reader.samples(log)
    if notes is not None:
        notes += reader.take_notes()
