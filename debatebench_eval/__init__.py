"""debatebench-eval: structured adversarial LLM debates as an Inspect AI evaluation.

The public face, for `inspect_ai.eval()`, `eval_set()` and `task_with`: the
tasks, scorers and solvers (the same objects the `debatebench/...` names run),
the debate record a log's sample is read into, and the tournament's steps.

    from inspect_ai import eval
    from debatebench_eval import debate

    eval(debate(motion="Cities should ban cars from their centres."), model="ollama/qwen3:8b")

Each name is imported on first use: Inspect imports a package whenever one of
its modules is loaded, and a task pulls in Inspect's solvers, scorers and the
retrieval stack, so `import debatebench_eval` itself costs only the version.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from debatebench_eval.core.version import __version__

if TYPE_CHECKING:
    from debatebench_eval.debating.solver import debate_solver
    from debatebench_eval.debating.task import debate
    from debatebench_eval.debating.turn_stats import turn_stats
    from debatebench_eval.interop.judge_task import judge
    from debatebench_eval.judging.fact_check import fact_check
    from debatebench_eval.judging.rubric_scorer import rubric
    from debatebench_eval.known_answer.scorer import judge_accuracy
    from debatebench_eval.known_answer.task import oversight
    from debatebench_eval.protocols.scorer import outcome
    from debatebench_eval.protocols.solver import deliberate
    from debatebench_eval.protocols.tasks import adjudicate, panel
    from debatebench_eval.record.store import DebateRecord
    from debatebench_eval.tournament.kind import TaskKind
    from debatebench_eval.tournament.kinds import kind_named
    from debatebench_eval.tournament.leaderboard import write_leaderboard
    from debatebench_eval.tournament.outcomes import read_tournament
    from debatebench_eval.tournament.runner import pair_tasks, requested_schedule, run_eval_set
    from debatebench_eval.truth_crucible.scorer import crucible_score
    from debatebench_eval.truth_crucible.task import crucible
    from debatebench_eval.validation.fact_check_scorer import planted_claims
    from debatebench_eval.validation.fact_check_task import fact_check_validation
    from debatebench_eval.validation.sensitivity_scorer import rubric_sensitivity
    from debatebench_eval.validation.sensitivity_task import judge_sensitivity
    from debatebench_eval.validation.speech_scorer import speech_rating
    from debatebench_eval.validation.speech_task import judge_validation

# Where each public name lives (the imports above say the same to a type checker;
# tests/test_api.py holds the two to each other).
_PUBLIC = {
    "debate": "debatebench_eval.debating.task",
    "judge": "debatebench_eval.interop.judge_task",
    "judge_validation": "debatebench_eval.validation.speech_task",
    "fact_check_validation": "debatebench_eval.validation.fact_check_task",
    "judge_sensitivity": "debatebench_eval.validation.sensitivity_task",
    "crucible": "debatebench_eval.truth_crucible.task",
    "panel": "debatebench_eval.protocols.tasks",
    "adjudicate": "debatebench_eval.protocols.tasks",
    "rubric": "debatebench_eval.judging.rubric_scorer",
    "fact_check": "debatebench_eval.judging.fact_check",
    "turn_stats": "debatebench_eval.debating.turn_stats",
    "speech_rating": "debatebench_eval.validation.speech_scorer",
    "planted_claims": "debatebench_eval.validation.fact_check_scorer",
    "rubric_sensitivity": "debatebench_eval.validation.sensitivity_scorer",
    "crucible_score": "debatebench_eval.truth_crucible.scorer",
    "outcome": "debatebench_eval.protocols.scorer",
    "debate_solver": "debatebench_eval.debating.solver",
    "deliberate": "debatebench_eval.protocols.solver",
    "DebateRecord": "debatebench_eval.record.store",
    "requested_schedule": "debatebench_eval.tournament.runner",
    "pair_tasks": "debatebench_eval.tournament.runner",
    "run_eval_set": "debatebench_eval.tournament.runner",
    "read_tournament": "debatebench_eval.tournament.outcomes",
    "oversight": "debatebench_eval.known_answer.task",
    "judge_accuracy": "debatebench_eval.known_answer.scorer",
    "write_leaderboard": "debatebench_eval.tournament.leaderboard",
    "TaskKind": "debatebench_eval.tournament.kind",
    "kind_named": "debatebench_eval.tournament.kinds",
}

__all__ = [
    "DebateRecord",
    "TaskKind",
    "__version__",
    "adjudicate",
    "crucible",
    "crucible_score",
    "debate",
    "debate_solver",
    "deliberate",
    "fact_check",
    "fact_check_validation",
    "judge",
    "judge_accuracy",
    "judge_sensitivity",
    "judge_validation",
    "kind_named",
    "outcome",
    "oversight",
    "pair_tasks",
    "panel",
    "planted_claims",
    "read_tournament",
    "requested_schedule",
    "rubric",
    "rubric_sensitivity",
    "run_eval_set",
    "speech_rating",
    "turn_stats",
    "write_leaderboard",
]


def __getattr__(name: str) -> Any:
    """A public name, imported on first use and kept (PEP 562)."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
