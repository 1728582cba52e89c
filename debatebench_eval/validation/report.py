"""`debatebench-eval report LOG`: a judge validation as Markdown tables and a PNG.

The PNG (judge score against the human mean, coloured by source, and each
source's bias) needs matplotlib, the optional `plots` extra; without it the
tables are still written and the command says how to get the plot.
"""

from __future__ import annotations

from pathlib import Path

from debatebench_eval.validation.log_reader import read_validation_log, scored_rows
from debatebench_eval.validation.stats import Row, ValidationSummary


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
    """Write report.md (always) and report.png (with matplotlib); return what was written."""
    log, summary = read_validation_log(log_path)
    out_dir.mkdir(parents=True, exist_ok=True)
    text = out_dir / "report.md"
    text.write_text(markdown(summary, f"{log.eval.model} ({log_path.name})"), encoding="utf-8")
    written = [text]
    try:
        import matplotlib
    except ImportError:
        return written
    matplotlib.use("Agg")
    rows = scored_rows(log)
    written.append(_plot(rows, summary, out_dir / "report.png", str(log.eval.model)))
    return written


def _plot(rows: list[Row], summary: ValidationSummary, path: Path, title: str) -> Path:
    import matplotlib.pyplot as plt

    figure, (scatter, bars) = plt.subplots(1, 2, figsize=(12, 5))
    for source in sorted({r.source for r in rows}):
        own = [r for r in rows if r.source == source and r.score is not None]
        scatter.scatter([r.human_mean for r in own], [r.score for r in own], s=12, alpha=0.6,
                        label=source)  # fmt: skip
    scatter.set(xlabel="human mean (15 ratings)", ylabel="judge score",
                title=f"{title}: tau-c {_fmt(summary.tau_c)}")  # fmt: skip
    scatter.legend(fontsize=7)
    ordered = sorted(summary.bias_by_source.items(), key=lambda kv: kv[1])
    bars.barh([s for s, _ in ordered], [b for _, b in ordered])
    bars.axvline(0, color="black", linewidth=0.8)
    bars.set(xlabel="judge mean - human mean", title="calibration by source")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path
