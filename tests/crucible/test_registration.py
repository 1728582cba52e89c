"""The crucible's names resolve as the user types them, and the project's listing shows them."""

from __future__ import annotations

import pytest
from inspect_ai._eval.registry import task_create
from inspect_ai.scorer._scorer import scorer_create

from debatebench_eval.cli.main import main
from debatebench_eval.core._inspect import registry_info, registry_lookup


@pytest.mark.parametrize("prefix", ["debatebench", "debatebench_eval"])
def test_the_task_and_scorer_resolve_by_both_names(prefix: str) -> None:
    task = task_create(f"{prefix}/crucible", claims=2)
    assert task.name == f"{prefix}/crucible" and len(task.dataset) == 1
    assert callable(scorer_create(f"{prefix}/crucible_score", judges=1))
    alias = registry_lookup("task", f"{prefix}/crucible")
    assert "topic" in registry_info(alias).metadata["params"]


def test_the_listing_documents_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    listed = capsys.readouterr().out
    assert "debatebench/crucible " in listed and "debatebench/crucible_score" in listed
    assert "early_stop: Judged convergence" in listed
