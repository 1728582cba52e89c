"""Reading a finished debate-check log: its figures and its trust record.

`debatebench-eval trust LOG` and `debatebench-eval report LOG` start here for
a `fact_check_validation` or `judge_sensitivity` log, so the figures they
print are recomputed from the samples with the same functions the task's
metric used.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

from debatebench_eval.core.log_files import log_file
from debatebench_eval.core.log_folder import read_log, task_name
from debatebench_eval.trust.check_records import (
    DEFAULT_LIMITS,
    FACT_CHECK,
    SENSITIVITY,
    CheckRecord,
    check_verdict,
)
from debatebench_eval.trust.records import JudgeIdentity, now
from debatebench_eval.validation.claim_stats import FactCheckSummary, summarise_claims
from debatebench_eval.validation.fact_check_scorer import debate_outcome
from debatebench_eval.validation.log_reader import NotAValidationLog, finite, generate_config
from debatebench_eval.validation.sensitivity_scorer import summarise_scores
from debatebench_eval.validation.sensitivity_stats import SensitivitySummary

# The task of each check, and the scorer whose scores it reads.
TASKS = {"fact_check_validation": FACT_CHECK, "judge_sensitivity": SENSITIVITY}
SCORERS = {FACT_CHECK: "planted_claims", SENSITIVITY: "rubric_sensitivity"}


@dataclass(frozen=True)
class CheckLog:
    log: EvalLog
    check: str
    summary: FactCheckSummary | SensitivitySummary


def check_of(path: Path | str) -> str | None:
    """The check a log records (from its header alone), or None for any other log."""
    path = log_file(path)
    if not path.is_file():
        return None
    return TASKS.get(task_name(read_log(path, header_only=True)))


def read_check_log(path: Path | str) -> CheckLog:
    path = log_file(path)
    if not path.is_file():
        raise NotAValidationLog(f"{path}: log file not found")
    log = read_log(path)
    check = TASKS.get(task_name(log))
    if check is None:
        raise NotAValidationLog(f"{path}: a {log.eval.task} log, not a judge check")
    scores = [
        (sample.id, sample.scores[SCORERS[check]])
        for sample in log.samples or []
        if sample.scores and SCORERS[check] in sample.scores
    ]
    if not scores:
        raise NotAValidationLog(f"{path}: no sample was scored (did the run fail?)")
    if check == FACT_CHECK:
        summary: FactCheckSummary | SensitivitySummary = summarise_claims(
            [debate_outcome(score, sample_id) for sample_id, score in scores]
        )
    else:
        summary = summarise_scores([score for _, score in scores])
    return CheckLog(log, check, summary)


def check_record(path: Path | str) -> CheckRecord:
    """The record a check's log supports, with the verdict and its reasons."""
    read = read_check_log(path)
    log, summary = read.log, read.summary
    identities = _identities(log)
    if len(identities) != 1:
        raise NotAValidationLog(
            f"{log_file(log.location)}: judged by a panel of {len(identities)}; a record "
            "describes one judge, so run the check with each judge alone"
        )
    meta = (log.eval.metadata or {}).get(read.check, {})
    figures, n, n_scored, complete = _figures(read.check, summary, meta, log)
    errors = sum(1 for s in log.samples or [] if s.error is not None)
    passed, reasons = check_verdict(read.check, figures, complete=complete, failed_samples=errors)
    return CheckRecord(
        check=read.check,
        judge=identities[0],
        data_sha256=meta.get("sha256"),
        complete=complete,
        n=n,
        n_scored=n_scored,
        figures=figures,
        generate_config=generate_config(log),
        log=log_file(log.location).name,
        date=now(),
        passed=passed,
        reasons=reasons,
        thresholds=_limits(read.check),
    )


def _limits(check: str) -> dict[str, float]:
    return dict(DEFAULT_LIMITS[check])


def _figures(
    check: str, summary: Any, meta: dict[str, Any], log: EvalLog
) -> tuple[dict[str, float | None], int, int, bool]:
    samples = len(log.samples or [])
    if check == FACT_CHECK:
        s: FactCheckSummary = summary
        figures = {
            "macro_f1": s.macro_f1,
            "macro_f1_low": s.macro_f1_low,
            "macro_f1_high": s.macro_f1_high,
            "claim_recall": s.claim_recall,
            "citation_accuracy": s.citation_accuracy,
            "parse_rate": s.parse_rate,
            **{f"baseline_{k}": v for k, v in s.baselines.items()},
        }
        complete = bool(meta.get("bundled")) and samples == meta.get("debates")
        return _finite(figures), s.debates, s.parsed, complete
    t: SensitivitySummary = summary
    figures = {
        "sensitivity": t.sensitivity.value,
        "sensitivity_low": t.sensitivity.low,
        "sensitivity_high": t.sensitivity.high,
        "loss_rate": t.loss.value,
        "unchanged_moved": t.unchanged_moved.value,
        "swap_flip_rate": t.swap_flip.value,
        "parse_rate": t.parse_rate,
        "chance": t.chance.get("all"),
    }
    complete = bool(meta.get("complete")) and samples == meta.get("samples")
    return _finite(figures), t.pairs, t.pairs_judged, complete


def _finite(figures: dict[str, float | None]) -> dict[str, float | None]:
    return {key: finite(value) for key, value in figures.items()}


def judge_names(log: EvalLog) -> str:
    """The judge (or a panel's judges) the log's scores name."""
    names = [f"{i.provider}/{i.model}" for i in _identities(log)]
    return ", ".join(names) or str(log.eval.model)


def _identities(log: EvalLog) -> list[JudgeIdentity]:
    for sample in log.samples or []:
        for score in (sample.scores or {}).values():
            found = (score.metadata or {}).get("judge_identities")
            if found:
                return [JudgeIdentity(**identity) for identity in found]
    return []
