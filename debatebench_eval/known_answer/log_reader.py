"""Read oversight logs: each protocol's judged samples, and the judged debates.

Each log is one protocol's run (`inspect eval debatebench/oversight -T protocol=...`,
or one task of an eval set); several runs of one protocol are pooled. A sample
whose judge gave no usable reply is left out, as the scorer's metrics leave it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai.log import list_eval_logs, read_eval_log

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.known_answer.comparison import Comparison, compare
from debatebench_eval.known_answer.record import OversightRecord
from debatebench_eval.known_answer.stats import JudgedDebate, Outcome

SCORER = "judge_accuracy"


def log_outcomes(path: str) -> tuple[str, list[Outcome]]:
    """A log's protocol and its judged samples."""
    log = read_eval_log(path)
    protocol = (log.eval.metadata or {}).get("protocol")
    if protocol is None or not log.samples:
        raise ConfigError(path, "not an oversight log with samples", "a debatebench/oversight log")
    found: list[Outcome] = []
    for sample in log.samples:
        score = judge_score(sample.scores or {})
        value = score.value if score is not None else None
        if not isinstance(value, dict) or math.isnan(value.get("accuracy", math.nan)):
            continue
        correct, p = bool(value["accuracy"]), float(value["p_correct"])
        question = sample.metadata["question_id"]
        found.append(Outcome(question, correct, p, p if correct else 1 - p))
    return str(protocol), found


def compare_logs(paths: Sequence[str]) -> Comparison:
    """The comparison of the protocols the logs ran (a folder: every log in it)."""
    runs: dict[str, list[Outcome]] = {}
    for path in _log_files(paths):
        protocol, outcomes = log_outcomes(path)
        runs.setdefault(protocol, []).extend(outcomes)
    return compare(runs)


def judged_debates(paths: Sequence[str]) -> list[JudgedDebate]:
    """Every judged two-debater sample (debate or open) of the logs, for the
    persuasiveness rating: each debater's model, and whom the judge sided with."""
    found: list[JudgedDebate] = []
    for path in _log_files(paths):
        for sample in read_eval_log(path).samples or []:
            score = judge_score(sample.scores or {})
            record = sample.store_as(OversightRecord)
            models = {role: model for role, model, _ in record.speakers}
            pick = None if score is None else (score.metadata or {}).get("pick")
            if pick is None or not {"pro", "con"} <= set(models):
                continue
            found.append(JudgedDebate(
                question=sample.metadata["question_id"], pro=models["pro"], con=models["con"],
                pro_won=pick == record.assignment["pro"], correct=pick == record.correct_label,
            ))  # fmt: skip
    return found


def judge_score(scores: dict[str, Any]) -> Any:
    """A sample's known-answer score, under the scorer's name or its alias."""
    return scores.get(SCORER) or scores.get(f"debatebench/{SCORER}")


def _log_files(paths: Sequence[str]) -> list[str]:
    """The log files named, and in each folder named the finished oversight logs (one
    still being written, or of another task, is passed over, not an error)."""
    files: list[str] = []
    for path in paths:
        if not Path(path).is_dir():
            files.append(path)
            continue
        for info in list_eval_logs(path):
            header = read_eval_log(info.name, header_only=True)
            if header.status != "started" and (header.eval.metadata or {}).get("protocol"):
                files.append(info.name)
    return files
