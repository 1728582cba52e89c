"""The crucible's tests run with private caches (index and Inspect's generate cache),
so no test replays another's calls, and with a helper that runs the task on scripted models."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog

from debatebench_eval.truth_crucible.task import crucible

from support.crucible_replies import CrucibleScript


@pytest.fixture(autouse=True)
def private_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBATEBENCH_EVAL_CACHE", str(tmp_path / "index-cache"))
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))


@pytest.fixture
def run_crucible(tmp_path: Path) -> Callable[..., EvalLog]:
    def run(
        script: CrucibleScript,
        *judges: str,
        roles: dict[str, Any] | None = None,
        **task_args: Any,
    ) -> EvalLog:
        """The task on `script`'s models: pro, con and the judges, or exactly `roles`."""
        task_args.setdefault("claims", 3)
        task_args.setdefault("rounds", 1)
        task_args.setdefault("judges", max(len(judges), 1))
        if task_args["judges"] is None:  # leave it to the topic file
            del task_args["judges"]
        logs = eval(
            crucible(**task_args),
            model=script.model("main"),
            model_roles=script.roles(*judges) if roles is None else roles,
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
        return logs[0]

    return run
