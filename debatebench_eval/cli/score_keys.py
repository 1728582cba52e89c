"""Which scorers each task runs, and each scorer's score keys and metrics, for the reference.

The keys are the scorers' own constants (or the functions that build them from
the bundled rubric and dimensions), the metrics are read from each scorer's
registry entry: the reference lists what the code computes.
"""

from __future__ import annotations

import ast
import inspect
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from debatebench_eval.core._inspect import registry_info, registry_params
from debatebench_eval.debating.turn_stats import STAT_KEYS, STAT_LISTED
from debatebench_eval.judging.fact_check import FACT_CHECK_KEYS, FACT_CHECK_LISTED
from debatebench_eval.judging.rubric import default_rubric
from debatebench_eval.judging.score_schema import RUBRIC_LISTED, SPEECH_FIGURES, rubric_keys
from debatebench_eval.known_answer.scorer import VALUE_KEYS as ANSWER_KEYS
from debatebench_eval.protocols.scorer import DECISION_KEYS, OUTCOME_KEYS, PANEL_KEYS
from debatebench_eval.trust.speech_rows import RATING_KEY
from debatebench_eval.truth_crucible.outcome import score_keys as crucible_keys
from debatebench_eval.truth_crucible.prompts import judge_prompts
from debatebench_eval.validation.fact_check_scorer import VALUE_KEYS
from debatebench_eval.validation.speech_scorer import SPEECH_RATING_KEYS


@dataclass(frozen=True)
class ScoreKeys:
    """A scorer's numeric keys: those in the score's value (the sample list's
    columns) and the rest, kept in `metadata["figures"]` (None: all in the value)."""

    value: tuple[str, ...]
    figures: tuple[str, ...] = ()
    note: str = ""


def _split(every: Sequence[str], listed: Sequence[str]) -> ScoreKeys:
    return ScoreKeys(tuple(listed), tuple(k for k in every if k not in listed))


_FIGURES = "the rest in the score's metadata `figures`, with means in `debatebench-eval report`"


def scorer_keys() -> dict[str, ScoreKeys]:
    """Each scorer's keys, by short name (a scorer missing here is a test failure)."""
    rubric_every = rubric_keys(default_rubric())
    return {
        "rubric": _split((*rubric_every, *SPEECH_FIGURES), RUBRIC_LISTED),
        "fact_check": _split(FACT_CHECK_KEYS, FACT_CHECK_LISTED),
        "turn_stats": _split(STAT_KEYS, STAT_LISTED),
        "speech_rating": ScoreKeys(SPEECH_RATING_KEYS, note=f"{RATING_KEY} is NaN when unparsed"),
        "planted_claims": ScoreKeys(VALUE_KEYS),
        "rubric_sensitivity": ScoreKeys(
            (*rubric_every, "parsed"), note="every rubric key in the value; NaN when unparsed"
        ),
        "crucible_score": ScoreKeys(crucible_keys(list(judge_prompts().dimensions))),
        "outcome": ScoreKeys(
            OUTCOME_KEYS,
            note=f"with {_words(PANEL_KEYS)} for a panel, or {_words(DECISION_KEYS)} for an "
            "adjudication",
        ),
        "judge_accuracy": ScoreKeys(
            ANSWER_KEYS, note="NaN (unscored) when no judge's reply could be used"
        ),
    }


def _words(keys: Sequence[str]) -> str:
    return ", ".join(f"`{key}`" for key in keys[:-1]) + f" and `{keys[-1]}`"


FIGURES_NOTE = _FIGURES

# The scorers each task runs by default, in its order (`-T fact_check=false`
# drops fact_check from debate and judge). Kept, not built: judge, panel and adjudicate
# cannot be built without their input files; a docs test builds every task and compares.
TASK_SCORERS: Mapping[str, tuple[str, ...]] = {
    "debate": ("rubric", "fact_check", "turn_stats"),
    "judge": ("rubric", "fact_check"),
    "judge_validation": ("speech_rating",),
    "fact_check_validation": ("planted_claims",),
    "judge_sensitivity": ("rubric_sensitivity",),
    "crucible": ("crucible_score",),
    "panel": ("outcome",),
    "adjudicate": ("outcome",),
    "oversight": ("judge_accuracy",),
}


@dataclass(frozen=True)
class MetricDoc:
    """One metric of a scorer: its name, the keys it applies to, and what it computes."""

    name: str
    keys: str
    doc: str


def metrics_of(scorer: Callable[..., Any]) -> list[MetricDoc]:
    """The metrics a scorer's registry entry declares, each with its factory's docstring."""
    found: list[MetricDoc] = []
    for entry in registry_info(scorer).metadata.get("metrics", []):
        if isinstance(entry, dict):  # Inspect's per-key metrics (mean, stderr)
            for key, metrics in entry.items():
                names = ", ".join(_factory_name(one) for one in metrics)
                found.append(MetricDoc(names, "every key" if key == "*" else f"`{key}`", ""))
        else:
            found.append(_metric_doc(entry, _applies_to(entry)))
    return found


def _applies_to(metric: Callable[..., Any]) -> str:
    """The value keys a per-key metric (`value_stats`) reads; the rest read every sample."""
    if _factory_name(metric) != "value_stats":
        return "(cross-sample)"
    keys = registry_params(metric).get("keys")
    return ", ".join(f"`{key}`" for key in keys) if keys else "every key"


def _factory_name(metric: Callable[..., Any]) -> str:
    return metric.__qualname__.split(".", 1)[0]


def _metric_doc(metric: Callable[..., Any], keys: str) -> MetricDoc:
    name = _factory_name(metric)
    return MetricDoc(name, keys, " ".join(_factory_doc(metric.__module__, name).split()))


def _factory_doc(module: str, name: str) -> str:
    """A metric factory's docstring, from its source: Inspect's `@metric` wrapper
    does not keep it."""
    tree = ast.parse(inspect.getsource(sys.modules[module]))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.get_docstring(node) or ""
    return ""
