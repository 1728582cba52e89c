"""Inspect's entry point: registers the tasks, scorers and solvers, their aliases,
and the echo model provider.

Inspect names a task after the top-level module that defines it, so ours are
`debatebench_eval/<name>`. The user's commands say `debatebench/<name>`;
Inspect loads the `inspect_ai` entry point whose name equals the prefix, so
pyproject.toml points an entry point named `debatebench` here too, and this
module registers a wrapper under each alias (registering the original object
would rename it). tests/test_registry.py fails if an Inspect release breaks it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from debatebench_eval.core._inspect import (
    PrerequisiteError,
    RegistryInfo,
    registry_add,
    registry_info,
)
from debatebench_eval.core.errors import printed_once
from debatebench_eval.debating.task import debate
from debatebench_eval.debating.turn_stats import turn_stats
from debatebench_eval.interop.judge_task import judge
from debatebench_eval.judging.fact_check import fact_check
from debatebench_eval.judging.rubric_scorer import rubric
from debatebench_eval.known_answer.scorer import judge_accuracy
from debatebench_eval.known_answer.task import oversight
from debatebench_eval.protocols import echo  # noqa: F401  (registers the debatebench-echo provider)
from debatebench_eval.protocols.scorer import outcome
from debatebench_eval.protocols.solver import deliberate
from debatebench_eval.protocols.tasks import adjudicate, panel
from debatebench_eval.truth_crucible.scorer import crucible_score
from debatebench_eval.truth_crucible.task import crucible
from debatebench_eval.validation.fact_check_scorer import planted_claims
from debatebench_eval.validation.fact_check_task import fact_check_validation
from debatebench_eval.validation.sensitivity_scorer import rubric_sensitivity
from debatebench_eval.validation.sensitivity_task import judge_sensitivity
from debatebench_eval.validation.speech_scorer import speech_rating
from debatebench_eval.validation.speech_task import judge_validation

ALIAS_PREFIX = "debatebench"
TASKS: tuple[Callable[..., Any], ...] = (
    debate, judge, judge_validation, fact_check_validation, judge_sensitivity, crucible,
    panel, adjudicate, oversight,
)  # fmt: skip
SCORERS: tuple[Callable[..., Any], ...] = (
    rubric, fact_check, turn_stats, speech_rating, planted_claims, rubric_sensitivity,
    crucible_score, outcome, judge_accuracy,
)  # fmt: skip
SOLVERS: tuple[Callable[..., Any], ...] = (deliberate,)


def _alias(obj: Callable[..., Any]) -> Callable[..., Any]:
    info = registry_info(obj)
    short = info.name.split("/", 1)[-1]

    @functools.wraps(obj)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        # The user's command names an alias: a bad argument ends it with one plain
        # message on stderr, in every display mode (core.errors.printed_once).
        try:
            return obj(*args, **kwargs)
        except PrerequisiteError as error:
            raise printed_once(error) from error

    registry_add(
        wrapper,
        RegistryInfo(type=info.type, name=f"{ALIAS_PREFIX}/{short}", metadata=dict(info.metadata)),
    )
    return wrapper


ALIASES = tuple(_alias(obj) for obj in (*TASKS, *SCORERS, *SOLVERS))

# What the command line and the tests read; the objects themselves are the public API
# (debatebench_eval.__all__).
__all__ = ["ALIASES", "ALIAS_PREFIX", "SCORERS", "SOLVERS", "TASKS"]
