"""`debatebench-eval report LOG`: a judge validation as Markdown tables and a PNG.

The PNG shows the judge's score against the human mean, coloured by source,
beside each source's calibration, titled with the figures that say how far
to trust it (tau-c with its CI, how many replies parsed, the source-only
baseline).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING

from debatebench_eval.validation.log_reader import read_validation_log, scored_rows
from debatebench_eval.validation.stats import Row, ValidationSummary

if TYPE_CHECKING:  # matplotlib is loaded only when a report is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def _fmt(value: float | None, places: int = 3) -> str:
    return "n/a" if value is None else f"{value:+.{places}f}"


def markdown(summary: ValidationSummary, title: str) -> str:
    ci = f"[{_fmt(summary.tau_c_low)}, {_fmt(summary.tau_c_high)}]"
    lines = [
        f"# Judge validation: {title}",
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
        "",
        "| source | judge - human |",
        "|---|---|",
        *(
            f"| {source} | {bias:+.2f} |"
            for source, bias in sorted(summary.bias_by_source.items(), key=lambda kv: -kv[1])
        ),
    ]
    return "\n".join(lines) + "\n"


def write_report(log_path: Path, out_dir: Path) -> list[Path]:
    """Write report.md and report.png; return what was written."""
    log, summary = read_validation_log(log_path)
    out_dir.mkdir(parents=True, exist_ok=True)
    text = out_dir / "report.md"
    text.write_text(markdown(summary, f"{log.eval.model} ({log_path.name})"), encoding="utf-8")
    figure = plot(scored_rows(log), summary, str(log.eval.model))
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
    _scatter(scatter, rows)
    _bars(bars, summary)
    figure.suptitle(f"{title}\n{headline(summary)}", fontsize=11)
    figure.tight_layout()
    return figure


def _scatter(axis: Axes, rows: list[Row]) -> None:
    rng = random.Random(0)  # the same jitter on every run
    for source in sorted({r.source for r in rows}):
        own = [r for r in rows if r.source == source and r.score is not None]
        jittered = [r.score + rng.uniform(-0.18, 0.18) for r in own if r.score is not None]
        axis.scatter([r.human_mean for r in own], jittered, s=14, alpha=0.6, label=source)
    axis.set_yticks([1, 2, 3, 4, 5])
    axis.set_ylim(0.5, 5.5)
    axis.set(xlabel="human mean (15 ratings)", ylabel="judge score (1-5, jittered ±0.18)")
    axis.legend(fontsize=7, loc="upper left")


def _bars(axis: Axes, summary: ValidationSummary) -> None:
    ordered = sorted(summary.bias_by_source.items(), key=lambda kv: kv[1])
    axis.barh([s for s, _ in ordered], [b for _, b in ordered])
    axis.axvline(0, color="black", linewidth=0.8)
    axis.set(xlabel="judge mean - human mean", title="calibration by source")
