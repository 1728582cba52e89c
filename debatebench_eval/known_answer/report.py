"""`debatebench-eval report` of an oversight log: the headline, the accuracy per
question category and the reliability table, computed from the samples' scores
by the same functions as the run's metrics."""

from __future__ import annotations

import math
from pathlib import Path

from inspect_ai.log import EvalLog
from inspect_ai.scorer import SampleScore

from debatebench_eval.core.log_folder import read_log
from debatebench_eval.core.task_versions import under_title
from debatebench_eval.known_answer.log_reader import SCORER, judge_score
from debatebench_eval.known_answer.scorer import headline, reliability_rows


def is_oversight_log(log: EvalLog) -> bool:
    """A log whose scorers include the known-answer scorer (any task that ran it)."""
    return any(s.name.rsplit("/", 1)[-1] == SCORER for s in log.eval.scorers or [])


def sample_scores(log: EvalLog) -> list[SampleScore]:
    """The first epoch's known-answer scores (each epoch judges the same question)."""
    return [
        SampleScore(score=score, sample_id=s.id, sample_metadata=s.metadata)
        for s in log.samples or []
        if s.epoch == 1 and (score := judge_score(s.scores or {})) is not None
    ]


def _number(value: float | int | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.3g}"


def report_lines(log: EvalLog) -> list[str]:
    scores = sample_scores(log)
    protocol = (log.eval.task_args or {}).get("protocol", "debate")
    lines = [f"# Known-answer figures: {protocol} ({Path(log.location).name})", ""]
    lines += ["| figure | value |", "|---|---|"]
    lines += [f"| {k} | {_number(v)} |" for k, v in headline(scores).items()]
    categories = sorted({str((s.sample_metadata or {}).get("category")) for s in scores})
    if len(categories) > 1:
        lines += ["", "## Accuracy per category", "", "| category | accuracy |", "|---|---|"]
        for category in categories:
            inside = [
                s for s in scores if str((s.sample_metadata or {}).get("category")) == category
            ]
            lines.append(f"| {category} | {_number(headline(inside)['accuracy'])} |")
    lines += [
        "",
        "## Reliability (stated confidence against accuracy)",
        "",
        "| confidence | picks | mean confidence | accuracy |",
        "|---|---|---|---|",
    ]
    for row in reliability_rows(scores):
        band = f"{row['low']}-{int(row['low']) + 10}%"
        lines.append(
            f"| {band} | {row['n']} | {_number(row['confidence'])} | {_number(row['accuracy'])} |"
        )
    return lines


def write_oversight_report(log_path: Path, out_dir: Path) -> list[Path]:
    """report.md: the headline, accuracy per category and the reliability table."""
    log = read_log(log_path)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "report.md"
    text = "\n".join(report_lines(log)) + "\n"
    path.write_text(under_title(text, log.eval.task, log.eval.task_version), encoding="utf-8")
    return [path]
