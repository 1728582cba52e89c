"""`debatebench-eval report LOG`: a judge validation as Markdown tables and a PNG.

The PNG shows the judge's score against the human mean, coloured by source,
with the line where they agree, beside each source's calibration (with its n
and 95% interval, in the same colours), titled with the figures that say how
far to trust it (tau-c with its CI, how many replies parsed, the source-only
baseline) and the verdict the trust gate would give.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from pathlib import Path
from statistics import fmean, stdev
from typing import TYPE_CHECKING

from scipy import stats as scipy_stats  # type: ignore[import-untyped]

from debatebench_eval.core.task_versions import under_title
from debatebench_eval.stats.intervals import LEVEL
from debatebench_eval.trust.records import verdict
from debatebench_eval.trust.stats import Row, ValidationSummary, why_undefined
from debatebench_eval.validation.log_reader import read_validation_log, scored_rows

if TYPE_CHECKING:  # matplotlib is loaded only when a report is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class SourceCalibration:
    """Judge minus human for one source's rated speeches, with a 95% t interval
    (undefined, None, below two speeches or with no spread)."""

    source: str
    n: int
    bias: float
    low: float | None
    high: float | None


def source_calibration(rows: list[Row]) -> list[SourceCalibration]:
    """Per source, most over-scored first, as the table and the bars show it."""
    diffs: dict[str, list[float]] = {}
    for row in rows:
        if row.score is not None:
            diffs.setdefault(row.source, []).append(row.score - row.human_mean)
    out = []
    for source, values in diffs.items():
        low = high = None
        if len(values) > 1 and stdev(values) > 0:
            spread = scipy_stats.sem(values)
            low, high = scipy_stats.t.interval(LEVEL, len(values) - 1, fmean(values), spread)
        out.append(SourceCalibration(source, len(values), fmean(values), low, high))
    return sorted(out, key=lambda c: -c.bias)


def _fmt(value: float | None, places: int = 3) -> str:
    return "n/a" if value is None else f"{value:+.{places}f}"


def trust_line(summary: ValidationSummary) -> str:
    """The verdict the trust gate would give this run, at the default thresholds."""
    trusted, reasons = verdict(summary.n_scored, summary.parse_rate, summary.tau_c)
    return "trusted as a judge" if trusted else "not trusted: " + "; ".join(reasons)


def markdown(summary: ValidationSummary, title: str, rows: list[Row] | None = None) -> str:
    rows = rows or []
    ci = f"[{_fmt(summary.tau_c_low)}, {_fmt(summary.tau_c_high)}]"
    lines = [
        f"# Judge validation: {title}",
        "",
        f"Verdict at the default thresholds: {trust_line(summary)}.",
        "",
        "| figure | value |",
        "|---|---|",
        f"| speeches scored / given | {summary.n_scored} / {summary.n} |",
        f"| parse rate | {summary.parse_rate:.3f} |",
        f"| Kendall tau-c (paper's statistic) | {_fmt(summary.tau_c)} {ci} |",
        f"| Kendall tau-b | {_fmt(summary.tau_b)} |",
        f"| distinct judge scores | {summary.distinct_values} |",
        f"| source-only baseline tau-c | {_fmt(summary.source_baseline_tau_c)} |",
        f"| within-source tau-c (mean) | {_fmt(summary.within_source_tau)} |",
        f"| within-topic tau-c (mean) | {_fmt(summary.within_topic_tau)} |",
        f"| human ceiling, leave-one-annotator-out ({summary.ceiling_annotators}) "
        f"| {_fmt(summary.ceiling_by_annotator)} |",
        f"| human ceiling, per rating position | {_fmt(summary.ceiling_by_position)} |",
        f"| judge mean - human mean | {_fmt(summary.bias, 2)} |",
        *_undefined_lines(summary, rows),
        "",
        "| source | speeches rated | judge - human | 95% interval |",
        "|---|---|---|---|",
        *(
            f"| {c.source} | {c.n} | {c.bias:+.2f} | "
            + ("n/a (fewer than 2 speeches, or no spread)" if c.low is None or c.high is None
               else f"[{c.low:+.2f}, {c.high:+.2f}]")
            + " |"
            for c in source_calibration(rows)
        ),
    ]  # fmt: skip
    return "\n".join(lines) + "\n"


def _undefined_lines(summary: ValidationSummary, rows: list[Row]) -> list[str]:
    """Each n/a above, with why (the same words the run's end prints)."""
    undefined = [
        f.name
        for f in fields(summary)
        if f.name not in ("bias_by_source", "ceiling_annotators")
        and getattr(summary, f.name) is None
    ]
    if not undefined or not rows:
        return []
    reasons = why_undefined(undefined, rows)
    return ["", "Undefined figures:", "", *(f"- {name}: {reasons[name]}" for name in undefined)]


def write_report(log_path: Path, out_dir: Path) -> list[Path]:
    """Write report.md and report.png; return what was written."""
    log, summary = read_validation_log(log_path)
    out_dir.mkdir(parents=True, exist_ok=True)
    text = out_dir / "report.md"
    rows = scored_rows(log)
    title = f"{log.eval.model} ({log_path.name})"
    report = markdown(summary, title, rows)
    text.write_text(under_title(report, log.eval.task, log.eval.task_version), encoding="utf-8")
    figure = plot(rows, summary, str(log.eval.model))
    figure.savefig(out_dir / "report.png", dpi=120)
    return [text, out_dir / "report.png"]


def headline(summary: ValidationSummary) -> str:
    """The figures a reader needs beside the plot: tau-c with its CI, n, parse rate, baseline."""
    if summary.tau_c is None:
        tau = "tau-c undefined"
    else:
        ci = (
            ""
            if summary.tau_c_low is None
            else f" [{summary.tau_c_low:+.3f}, {summary.tau_c_high:+.3f}]"
        )
        tau = f"tau-c {summary.tau_c:+.3f}{ci}"
    return (
        f"{tau} · {summary.n_scored} of {summary.n} parsed ({summary.parse_rate:.0%}) · "
        f"source-only baseline {_fmt(summary.source_baseline_tau_c)}"
    )


def plot(rows: list[Row], summary: ValidationSummary, title: str) -> Figure:
    """Judge score against the human mean (jittered, so equal scores do not pile up on
    one line), coloured by source, beside each source's calibration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if summary.n_scored == 0:
        figure, axis = plt.subplots(figsize=(8, 3))
        axis.axis("off")
        axis.text(0.5, 0.5, f"{title}\n0 of {summary.n} replies parsed: nothing to plot",
                  ha="center", va="center", fontsize=13)  # fmt: skip
        return figure
    figure, (scatter, bars) = plt.subplots(1, 2, figsize=(13, 5.5))
    colours = _source_colours(rows)
    _scatter(scatter, rows, colours)
    _bars(bars, source_calibration(rows), colours)
    figure.suptitle(f"{title}\n{headline(summary)}\n{trust_line(summary)}", fontsize=11)
    figure.tight_layout()
    return figure


def _source_colours(rows: list[Row]) -> dict[str, str]:
    """One colour per source, the same in both panels."""
    palette = [f"C{i}" for i in range(10)]
    sources = sorted({r.source for r in rows})
    return {source: palette[i % len(palette)] for i, source in enumerate(sources)}


def _scatter(axis: Axes, rows: list[Row], colours: dict[str, str]) -> None:
    rng = random.Random(0)  # the same jitter on every run
    for source in sorted({r.source for r in rows}):
        own = [r for r in rows if r.source == source and r.score is not None]
        jittered = [r.score + rng.uniform(-0.18, 0.18) for r in own if r.score is not None]
        axis.scatter([r.human_mean for r in own], jittered, s=14, alpha=0.6,
                     color=colours[source], label=f"{source} (n={len(own)})")  # fmt: skip
    axis.plot([1, 5], [1, 5], color="grey", linestyle="--", linewidth=1, label="judge = human")
    axis.set_yticks([1, 2, 3, 4, 5])
    axis.set_ylim(0.5, 5.5)
    axis.set(xlabel="human mean (15 ratings)", ylabel="judge score (1-5, jittered ±0.18)")
    axis.legend(fontsize=7, loc="upper left")


def _bars(axis: Axes, calibration: list[SourceCalibration], colours: dict[str, str]) -> None:
    ordered = sorted(calibration, key=lambda c: c.bias)
    names = [c.source for c in ordered]
    errors = [
        [c.bias - c.low if c.low is not None else 0.0 for c in ordered],
        [c.high - c.bias if c.high is not None else 0.0 for c in ordered],
    ]
    labels = [f"{c.source} (n={c.n}{'' if c.low is not None else ', no interval'})"
              for c in ordered]  # fmt: skip
    axis.barh(labels, [c.bias for c in ordered], color=[colours[n] for n in names],
              xerr=errors, capsize=3)  # fmt: skip
    axis.axvline(0, color="black", linewidth=0.8)
    axis.set(xlabel="judge mean - human mean (95% t interval)", title="calibration by source")
