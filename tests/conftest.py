"""Fixtures every test folder shares: private judge trust records, and a debate
run with scripted models into a fresh log directory. The helpers behind them
(scripted models, the stub server, judge replies) live in tests/support."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import Model

from debatebench_eval.debate.task import debate
from debatebench_eval.servers import context_window, kind, probe
from debatebench_eval.validation import trust

from support.scripted import Script


@pytest.fixture(autouse=True)
def fresh_server_memory() -> Iterator[None]:
    """What the process remembers of model servers (reachable, kind, tokenizer path,
    reported context, token counts, judge identity) is per test: one test's server
    must not vouch for another's."""
    memories = (probe._reachable, probe._locks, kind._known, context_window._known,
                context_window._reported, context_window._counts, trust._identities)  # fmt: skip
    for memory in memories:
        memory.clear()
    yield
    for memory in memories:
        memory.clear()


@pytest.fixture(autouse=True)
def private_trust_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Judge trust records go to a per-test folder, never the user's own."""
    folder = tmp_path / "trust"
    monkeypatch.setenv("DEBATEBENCH_EVAL_TRUST_DIR", str(folder))
    return folder


@pytest.fixture
def run_debate(tmp_path: Path) -> Callable[..., EvalLog]:
    def run(
        *,
        roles: dict[str, Model] | None = None,
        main: Model | None = None,
        eval_args: dict[str, Any] | None = None,
        **task_args: Any,
    ) -> EvalLog:
        task_args.setdefault("motion", "Cities should ban cars from their centres.")
        logs = eval(
            debate(**task_args),
            model=main or Script("main").model(),
            model_roles=roles or {},
            log_dir=str(tmp_path / "logs"),
            display="none",
            **(eval_args or {}),
        )
        return logs[0]

    return run
