"""Every figure of a debate log: the terminal's headline block and all the rest.

The end of a run prints each judging scorer's headline (win rates with their
intervals, mean margin, verdict tiers, swap flips, claims supported, unverifiable
citations, budget hits). Every other figure (each side's totals, the stance
checks, the panel's agreement, the judge's reliability, each dimension and token
figure) is computed here from the log's sample scores by the same metrics, for
`debatebench-eval report` (a `debate`, `judge` or `crucible` log, whose every
value key's mean is here too): nothing is lost, it is
read where it is looked for. With several epochs the first epoch's scores are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspect_ai.log import EvalLog
from inspect_ai.scorer import Metric, SampleScore

from debatebench_eval.core.log_folder import read_log
from debatebench_eval.core.task_versions import under_title
from debatebench_eval.debating.turn_stats import STAT_FIGURES
from debatebench_eval.judging.fact_check import FACT_CHECK_FIGURES
from debatebench_eval.judging.metrics import value_stats
from debatebench_eval.judging.rubric_scorer import RUBRIC_FIGURES

FIGURES_BY_SCORER: dict[str, Sequence[Metric]] = {
    "rubric": RUBRIC_FIGURES,
    "fact_check": FACT_CHECK_FIGURES,
    "turn_stats": STAT_FIGURES,
    # The crucible's every value key, its mean and stderr over the topics.
    "crucible_score": [value_stats()],
}


def is_debate_log(log: EvalLog) -> bool:
    """A log of a debate, `judge`, tournament pair or crucible: one whose scorers
    include one of those above."""
    names = {s.name.rsplit("/", 1)[-1] for s in log.eval.scorers or []}
    return bool(names & set(FIGURES_BY_SCORER))


def log_figures(log: EvalLog) -> dict[str, dict[str, float]]:
    """Each judging scorer's every figure (a figure no debate has a number for is left
    out), computed from the log's scores of the first epoch."""
    out: dict[str, dict[str, float]] = {}
    samples = [s for s in log.samples or [] if s.epoch == 1]
    for name, metrics in FIGURES_BY_SCORER.items():
        scores = [
            SampleScore(score=score, sample_id=s.id, sample_metadata=s.metadata)
            for s in samples
            if (score := (s.scores or {}).get(name)) is not None
        ]
        if not scores:
            continue
        figures: dict[str, float] = {}
        for compute in metrics:
            found = compute(scores)  # type: ignore[arg-type]  # our metrics take SampleScores
            if isinstance(found, dict):
                figures.update({k: float(v) for k, v in found.items() if v is not None})
        out[name] = figures
    return out


def write_debate_report(log_path: Path, out_dir: Path) -> list[Path]:
    """report.md: every figure of a debate log, a table per scorer."""
    log = read_log(log_path)
    lines = [f"# Debate figures: {log.eval.task} ({log_path.name})", ""]
    for scorer, figures in log_figures(log).items():
        lines += [f"## {scorer}", "", "| figure | value |", "|---|---|"]
        lines += [f"| {name} | {value:.4g} |" for name, value in figures.items()]
        lines.append("")
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "report.md"
    text = under_title("\n".join(lines), log.eval.task, log.eval.task_version)
    path.write_text(text, encoding="utf-8")
    return [path]
