"""Protocols compared on the same questions: each protocol's accuracy, and the
paired differences that say whether hearing a debate helps the judge.

The differences are paired by question (`stats.paired_difference`): a question
judged under both protocols contributes the difference of its two accuracies,
and the interval is a bootstrap over those questions, so the comparison is
not diluted by how hard the questions are. The pairs reported are those the
field reports (debate - consultancy, debate - naive) and, where the runs are
there, debate - expert (how far debate is from the judge who reads the
evidence), consultancy - naive and open - debate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from debatebench_eval.known_answer.preconditions import (
    Check,
    Run,
    belief_means,
    preconditions,
    preconditions_table,
)
from debatebench_eval.known_answer.stats import (
    Interval,
    Outcome,
    accuracy,
    by_question,
    paired_difference,
)

PAIRS = (
    ("debate", "consultancy"), ("debate", "naive"), ("debate", "expert"),
    ("consultancy", "naive"), ("open", "debate"),
)  # fmt: skip


@dataclass(frozen=True)
class Comparison:
    accuracy: dict[str, Interval]
    differences: dict[tuple[str, str], Interval]
    # The preconditions read from the runs (`preconditions`), and the mean p_correct
    # after each round per protocol (naive and expert: round 0).
    checks: list[Check] = field(default_factory=list)
    beliefs: dict[str, dict[int, float]] = field(default_factory=dict)


def compare_runs(runs: Sequence[Run]) -> Comparison:
    """`compare` over the runs' samples, pooled by protocol, with the preconditions."""
    pooled: dict[str, list[Outcome]] = {}
    for run in runs:
        pooled.setdefault(run.protocol, []).extend(s.outcome for s in run.samples)
    found = compare(pooled)
    return Comparison(found.accuracy, found.differences, preconditions(runs), belief_means(runs))


def compare(runs: Mapping[str, list[Outcome]]) -> Comparison:
    """Each protocol's accuracy and the paired differences between those present."""
    found = {p: a for p, outcomes in runs.items() if (a := accuracy(outcomes)) is not None}
    per_question = {
        p: by_question((o.question, float(o.correct)) for o in outcomes)
        for p, outcomes in runs.items()
    }
    differences: dict[tuple[str, str], Interval] = {}
    for first, second in PAIRS:
        if first in per_question and second in per_question:
            diff = paired_difference(per_question[first], per_question[second])
            if diff is not None:
                differences[(first, second)] = diff
    return Comparison(found, differences)


def comparison_table(comparison: Comparison) -> str:
    """The comparison as Markdown: accuracies, then the paired differences."""
    lines = [
        "| protocol | accuracy | 95% interval | samples | questions | interval |",
        "|---|---|---|---|---|---|",
    ]
    for protocol, a in comparison.accuracy.items():
        lines.append(
            f"| {protocol} | {a.value:.3f} | {a.low:.3f} to {a.high:.3f} | {a.n} | "
            f"{a.questions} | {a.method} |"
        )
    lines += ["", "| difference | value | 95% interval | shared questions |", "|---|---|---|---|"]
    for (first, second), d in comparison.differences.items():
        lines.append(
            f"| {first} - {second} | {d.value:+.3f} | {d.low:+.3f} to {d.high:+.3f} | "
            f"{d.questions} |"
        )
    if not comparison.differences:
        lines.append("| (no two protocols judged the same questions) | | | |")
    if comparison.checks:
        lines += ["", "Preconditions (docs: tasks/oversight, Comparing protocols):", ""]
        lines.append(preconditions_table(comparison.checks).rstrip("\n"))
    return "\n".join(lines) + "\n"
