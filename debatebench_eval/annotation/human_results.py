"""The human labels `tournament rate --human` reads: matched to the tournament's debates
(`annotation.labels`), each debate's result for pro by people, and every label that
could not be used, named by file and line."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from statistics import fmean

from debatebench_eval.annotation.agreement import human_winner
from debatebench_eval.annotation.human_ratings import Key
from debatebench_eval.annotation.items import load_items
from debatebench_eval.annotation.labels import match_labels, read_labels
from debatebench_eval.core.errors import ConfigError

PRO_RESULT = {"pro": 1.0, "tie": 0.5, "con": 0.0}


def human_results(
    folders: Sequence[str], labels: Sequence[str]
) -> tuple[dict[Key, float], list[str]]:
    """Pro's result by people per labelled rubric debate of the folders (averaged over
    annotators), and a note per label not used."""
    items = [item for folder in folders for item in load_items(folder)]
    matched = match_labels(read_labels(labels), items)
    if labels and not matched.matched:
        raise ConfigError(
            f"--human {' '.join(labels)}",
            f"none of the labels is for a debate of these folders ({len(matched.changed)} "
            f"for debates that changed, {len(matched.unknown)} for debates not there)",
            "labels made on a page of this tournament (debatebench-eval annotate LOG_DIR)",
        )
    per: dict[Key, list[float]] = defaultdict(list)
    for label, item in matched.matched:
        if item.kind == "rubric":
            per[(item.log, item.sample_id)].append(PRO_RESULT[human_winner(label)])
    return {key: fmean(values) for key, values in per.items()}, matched.notes()
