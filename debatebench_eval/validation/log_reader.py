"""Reading a finished `judge_validation` log: its figures, its trust record, its report.

`debatebench-eval trust LOG` and `debatebench-eval report LOG` both start
here, so the numbers they print are recomputed from the samples with the same
`stats.summarise` the task's metric used.
"""

from __future__ import annotations

import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

from debatebench_eval.core.credentials import strip_credentials
from debatebench_eval.core.log_files import log_file
from debatebench_eval.core.log_folder import read_log, task_name
from debatebench_eval.trust.records import JudgeIdentity, Thresholds, TrustRecord, now, verdict
from debatebench_eval.trust.speech_rows import row_of
from debatebench_eval.trust.stats import Row, ValidationSummary, summarise

SCORER = "speech_rating"


class NotAValidationLog(ValueError):
    """The log is not a judge_validation run (or has no scored samples)."""


def read_validation_log(path: Path | str) -> tuple[EvalLog, ValidationSummary]:
    path = log_file(path)
    if not path.is_file():
        raise NotAValidationLog(f"{path}: log file not found")
    log = read_log(path)
    if task_name(log) != "judge_validation":
        raise NotAValidationLog(f"{path}: a {log.eval.task} log, not judge_validation")
    rows = scored_rows(log)
    if not rows:
        raise NotAValidationLog(f"{path}: no sample was scored (did the run fail?)")
    return log, summarise(rows)


def scored_rows(log: EvalLog) -> list[Row]:
    """Every speech the log's scorer rated (or failed to parse), as the statistics read it."""
    return [
        row_of(sample.scores[SCORER], sample.id)
        for sample in log.samples or []
        if sample.scores and SCORER in sample.scores
    ]


def trust_record(path: Path | str, limits: Thresholds | None = None) -> TrustRecord:
    """The record a validation log supports, with the verdict and its reasons."""
    limits = limits or Thresholds()
    log, summary = read_validation_log(path)
    path = log_file(log.location)
    trusted, reasons = verdict(summary.n_scored, summary.parse_rate, summary.tau_c, limits)
    errors = sum(1 for s in log.samples or [] if s.error is not None)
    if errors:
        trusted, reasons = False, [*reasons, f"{errors} sample(s) failed with an error"]
    low, high = finite(summary.tau_c_low), finite(summary.tau_c_high)
    ci = (low, high) if low is not None and high is not None else None
    meta = log.eval.metadata or {}
    return TrustRecord(
        judge=_identity(log),
        prompt=str(meta.get("validation", {}).get("prompt", "unknown")),
        n=summary.n,
        n_scored=summary.n_scored,
        parse_rate=summary.parse_rate,
        tau_c=finite(summary.tau_c),
        tau_c_ci=ci,
        tau_b=finite(summary.tau_b),
        source_baseline_tau_c=finite(summary.source_baseline_tau_c),
        bias=finite(summary.bias),
        generate_config=generate_config(log),
        data_sha256=meta.get("validation", {}).get("sha256"),
        log=path.name,
        date=now(),
        trusted=trusted,
        reasons=reasons,
        thresholds=asdict(limits),
    )


def _identity(log: EvalLog) -> JudgeIdentity:
    for sample in log.samples or []:
        score = (sample.scores or {}).get(SCORER)
        identity = (score.metadata or {}).get("judge_identity") if score else None
        if identity:
            return JudgeIdentity(**identity)
    provider, _, name = log.eval.model.partition("/")
    url = log.eval.model_base_url
    return JudgeIdentity(provider, name, strip_credentials(url) if url else None)


def generate_config(log: EvalLog) -> dict[str, Any]:
    """The generate settings the run used: the task's, then the command line's."""
    task = log.plan.config.model_dump(exclude_none=True) if log.plan else {}
    cli = log.eval.model_generate_config.model_dump(exclude_none=True)
    return {**task, **cli}


def finite(value: float | None) -> float | None:
    """None for a figure that is undefined (NaN on a tiny or degenerate sample)."""
    return None if value is None or math.isnan(value) else value
