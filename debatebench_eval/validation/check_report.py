"""`debatebench-eval report LOG` for the debate checks: Markdown tables and a PNG.

Fact-check validation: the confusion matrix and each
verdict's F1 against the baselines. Judge sensitivity: each degradation's
detection rate with its interval, against the chance level.
"""

from __future__ import annotations

from pathlib import Path

from debatebench_eval.core.task_versions import under_title
from debatebench_eval.judging.ledger import VERDICTS
from debatebench_eval.validation.check_reader import CheckLog, judge_names, read_check_log
from debatebench_eval.validation.claim_stats import COLUMNS, FactCheckSummary
from debatebench_eval.validation.degradations import DEGRADATIONS
from debatebench_eval.validation.sensitivity_stats import Rate, SensitivitySummary


def _f(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _rate(rate: Rate) -> str:
    if rate.value is None:
        return "n/a (none judged)"
    return f"{rate.value:.3f} [{_f(rate.low)}, {_f(rate.high)}] ({rate.k}/{rate.n})"


def fact_check_markdown(s: FactCheckSummary, title: str) -> str:
    base = s.baselines
    lines = [
        f"# Fact-check validation: {title}",
        "",
        "| figure | value |",
        "|---|---|",
        f"| debates with a usable reply / given | {s.parsed} / {s.debates} |",
        f"| parse rate | {s.parse_rate:.3f} |",
        f"| macro-F1 [95% CI, debates resampled] | {_f(s.macro_f1)} "
        f"[{_f(s.macro_f1_low)}, {_f(s.macro_f1_high)}] |",
        f"| claim recall (planted claims found) | {_f(s.claim_recall)} ({s.found}/{s.planted}) |",
        f"| citation accuracy ({s.citations_judged} claims decided right) "
        f"| {_f(s.citation_accuracy)} |",
        f"| claims listed that were not planted | {s.extras} |",
        f"| baseline macro-F1: random / majority / all not_checkable "
        f"| {_f(base.get('random'))} / {_f(base.get('majority'))} / "
        f"{_f(base.get('all_not_checkable'))} |",
        "",
        "| verdict | precision | recall | F1 | planted | judged so |",
        "|---|---|---|---|---|---|",
        *(
            f"| {v} | {f.precision:.3f} | {f.recall:.3f} | {f.f1:.3f} | {f.gold} | {f.predicted} |"
            for v, f in s.per_verdict.items()
        ),
        "",
        "Confusion matrix: rows are the planted verdicts, columns what the judge said.",
        "",
        "| planted \\ judged | " + " | ".join(COLUMNS) + " |",
        "|---|" + "---|" * len(COLUMNS),
        *(
            f"| {gold} | " + " | ".join(str(row[c]) for c in COLUMNS) + " |"
            for gold, row in s.confusion.items()
        ),
    ]
    return "\n".join(lines) + "\n"


def sensitivity_markdown(s: SensitivitySummary, title: str) -> str:
    lines = [
        f"# Judge sensitivity: {title}",
        "",
        "| figure | value |",
        "|---|---|",
        f"| debates scored / given | {s.parsed} / {s.samples} |",
        f"| pairs judged / given | {s.pairs_judged} / {s.pairs} |",
        f"| detection: every stated dimension fell and the side lost [95% CI] "
        f"| {_rate(s.sensitivity)} |",
        f"| chance level (a judge scoring at random) | {_f(s.chance.get('all'))} |",
        f"| degraded side lost | {_rate(s.loss)} |",
        f"| unchanged side's scores moved | {_rate(s.unchanged_moved)} |",
        f"| unchanged side's total, mean absolute shift (points of 100) "
        f"| {_f(s.unchanged_mean_abs_shift)} |",
        f"| swap flips (the two readings disagreed on the winner) | {_rate(s.swap_flip)} |",
        "",
        "| degradation | detected [95% CI] | chance | fell, per stated dimension |",
        "|---|---|---|---|",
    ]
    for name in (n for n in DEGRADATIONS if n in s.by_degradation):
        rate = s.by_degradation[name]
        falls = ", ".join(f"{d} {_f(r.value)}" for d, r in s.falls[name].items())
        lines.append(f"| {name} | {_rate(rate)} | {_f(s.chance.get(name))} | {falls} |")
    if not s.by_degradation:
        lines += [
            "",
            "No pair was judged: no reference and variant both got a usable score "
            "(each sample's score says why).",
        ]
    return "\n".join(lines) + "\n"


def write_check_report(log_path: Path, out_dir: Path) -> list[Path]:
    """Write report.md and report.png; return what was written."""
    read = read_check_log(log_path)
    title = f"judge {judge_names(read.log)} ({log_path.name})"
    out_dir.mkdir(parents=True, exist_ok=True)
    text = out_dir / "report.md"
    summary = read.summary
    if isinstance(summary, FactCheckSummary):
        report = fact_check_markdown(summary, title)
    else:
        report = sensitivity_markdown(summary, title)
    task, version = read.log.eval.task, read.log.eval.task_version
    text.write_text(under_title(report, task, version), encoding="utf-8")
    import matplotlib

    matplotlib.use("Agg")
    return [text, _plot(read, out_dir / "report.png", title)]


def _plot(read: CheckLog, path: Path, title: str) -> Path:
    import matplotlib.pyplot as plt

    if isinstance(read.summary, FactCheckSummary):
        figure = _fact_check_plot(plt, read.summary, title)
    else:
        figure = _sensitivity_plot(plt, read.summary, title)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def _fact_check_plot(plt, s: FactCheckSummary, title: str):  # type: ignore[no-untyped-def]
    figure, (matrix, bars) = plt.subplots(1, 2, figsize=(13, 5))
    counts = [[s.confusion[g][c] for c in COLUMNS] for g in VERDICTS]
    shares = [[n / max(1, sum(row)) for n in row] for row in counts]
    matrix.imshow(shares, cmap="Blues", vmin=0, vmax=1)
    matrix.set_xticks(range(len(COLUMNS)), COLUMNS, rotation=30, ha="right")
    matrix.set_yticks(range(len(VERDICTS)), VERDICTS)
    for i, row in enumerate(counts):
        for j, n in enumerate(row):
            colour = "white" if shares[i][j] > 0.6 else "black"
            matrix.text(j, i, str(n), ha="center", va="center", color=colour)
    matrix.set(
        xlabel="judged",
        ylabel="planted",
        title=f"{s.parsed}/{s.debates} debates parsed, {s.found}/{s.planted} claims found",
    )
    f1 = [s.per_verdict[v].f1 for v in VERDICTS]
    bars.bar(VERDICTS, f1, color="tab:blue")
    for name, style in (("random", "--"), ("majority", ":")):
        if name in s.baselines:
            bars.axhline(s.baselines[name], linestyle=style, color="grey", label=f"{name} baseline")
    bars.set_ylim(0, 1)
    ci = f"[{_f(s.macro_f1_low)}, {_f(s.macro_f1_high)}]"
    bars.set(ylabel="F1 per verdict", title=f"macro-F1 {_f(s.macro_f1)} {ci}")
    figure.suptitle(title, fontsize=10)
    bars.legend(fontsize=8)
    return figure


def _sensitivity_plot(plt, s: SensitivitySummary, title: str):  # type: ignore[no-untyped-def]
    figure, axis = plt.subplots(figsize=(10, 5))
    names = [n for n in DEGRADATIONS if n in s.by_degradation]
    values = [s.by_degradation[n].value or 0.0 for n in names]
    lows = [v - (s.by_degradation[n].low or v) for n, v in zip(names, values, strict=True)]
    highs = [(s.by_degradation[n].high or v) - v for n, v in zip(names, values, strict=True)]
    axis.barh(names, values, xerr=[lows, highs], color="tab:blue", capsize=3, label="detected")
    axis.scatter(
        [s.chance.get(n, 0.0) for n in names],
        names,
        marker="|",
        s=300,
        color="red",
        label="chance",
        zorder=3,
    )
    axis.set_xlim(0, 1)
    axis.invert_yaxis()
    axis.set(
        xlabel="share of pairs: every stated dimension fell and the degraded side lost",
        title=f"{title}\ndetection {_rate(s.sensitivity)}; swap flips {_f(s.swap_flip.value)}",
    )
    axis.legend(fontsize=8, loc="lower right")
    return figure
