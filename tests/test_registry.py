"""The user's names resolve: `debatebench/<name>` aliases and the package names.

If an Inspect release moves the private names in debatebench_eval._inspect or
changes how entry points are matched to name prefixes, this file fails first.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai._eval.registry import task_create
from inspect_ai.scorer._scorer import scorer_create

from debatebench_eval.core import _inspect
from debatebench_eval.core._inspect import registry_lookup


@pytest.mark.parametrize("prefix", ["debatebench", "debatebench_eval"])
def test_task_resolves_by_both_names(prefix: str) -> None:
    assert registry_lookup("task", f"{prefix}/debate") is not None
    task = task_create(f"{prefix}/debate", motion="Zoos do more good than harm.")
    assert task.name == f"{prefix}/debate"
    assert len(task.dataset) == 1


@pytest.mark.parametrize("prefix", ["debatebench", "debatebench_eval"])
def test_scorer_resolves_by_both_names(prefix: str) -> None:
    assert registry_lookup("scorer", f"{prefix}/turn_stats") is not None
    assert callable(scorer_create(f"{prefix}/turn_stats"))


def test_alias_keeps_the_task_parameters_for_minus_t() -> None:
    from inspect_ai._util.registry import registry_info

    alias = registry_lookup("task", "debatebench/debate")
    assert "motion" in registry_info(alias).metadata["params"]


def test_private_inspect_names_still_exist() -> None:
    for name in _inspect.__all__:
        assert getattr(_inspect, name) is not None


@pytest.mark.parametrize("prefix", ["debatebench", "debatebench_eval"])
def test_solver_resolves_by_both_names(
    prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --solver NAME -S k=v goes through solver_from_spec; run it as the CLI does.
    from inspect_ai._eval.loader import solver_from_spec
    from inspect_ai._util.registry import registry_info
    from inspect_ai.solver._solver import SolverSpec

    monkeypatch.chdir(tmp_path)
    assert registry_lookup("solver", f"{prefix}/deliberate") is not None
    solver = solver_from_spec(
        SolverSpec(
            f"{prefix}/deliberate", args_passed={"rounds": 2, "with": ["proposer", "skeptic"]}
        )
    )
    assert callable(solver)
    assert registry_info(solver).name == f"{prefix}/deliberate"


def test_the_registry_imports_cleanly() -> None:
    # Inspect only warns when an entry point fails to import, then reports
    # "Unknown solver": import it directly so a broken import fails here.
    import importlib

    registry = importlib.import_module("debatebench_eval._registry")
    assert {obj.__name__ for obj in registry.SOLVERS} == {"deliberate"}
    assert registry_lookup("modelapi", "debatebench_eval/debatebench-echo") is not None


@pytest.mark.parametrize("prefix", ["debatebench", "debatebench_eval"])
@pytest.mark.parametrize("name", ["fact_check_validation", "judge_sensitivity"])
def test_the_judge_check_tasks_resolve_by_both_names(prefix: str, name: str) -> None:
    task = task_create(f"{prefix}/{name}")
    assert task.name == f"{prefix}/{name}" and len(task.dataset) > 60


@pytest.mark.parametrize("name", ["planted_claims", "rubric_sensitivity"])
def test_the_judge_check_scorers_resolve(name: str) -> None:
    assert callable(scorer_create(f"debatebench/{name}"))
