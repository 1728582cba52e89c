"""Fixtures every test folder shares: private judge trust records and caches, and a
debate run with scripted models into a fresh log directory; the hooks that mark the
slow kinds of test by place and skip the tests that need the embedded model when it
is absent. The helpers behind them (scripted models, the stub server, judge replies,
the kinds) live in tests/support."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import Model

from debatebench_eval import debate

from support import embedded_model, eval_overhead, kinds, parallel
from support.paths import TESTS, remove_data_home_links
from support.scripted import Script


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by the markers added here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    grouped = config.pluginmanager.hasplugin("xdist")  # read by `--dist loadgroup`
    for item in items:
        if not item.path.is_relative_to(TESTS):
            continue
        place = item.path.relative_to(TESTS).as_posix()
        for name in sorted(kinds.kinds_of(place)):
            item.add_marker(name)
        if kinds.is_slow(marker.name for marker in item.iter_markers()):
            item.add_marker(kinds.SLOW)
        if grouped:
            item.add_marker(pytest.mark.xdist_group(parallel.group_of(place)))


@pytest.hookimpl(tryfirst=True)  # before fixtures: a module-scoped server never starts
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("embedded_model") is not None:
        embedded_model.require()


@pytest.fixture(autouse=True, scope="session")
def private_caches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The BM25 index cache and Inspect's generate cache are the session's own: a
    test never replays calls an earlier run (or another worker) cached, and the
    user's caches are never written. Subprocesses inherit them."""
    folder = tmp_path_factory.mktemp("caches")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DEBATEBENCH_EVAL_CACHE", str(folder / "index"))
        patch.setenv("INSPECT_CACHE_DIR", str(folder / "inspect"))
        yield


@pytest.fixture(autouse=True, scope="session")
def cheaper_evals() -> Iterator[None]:
    """Two per-`eval()` costs that change nothing a test sees, paid once a session
    (tests/support/eval_overhead.py): most of a scripted eval's CPU time."""
    with pytest.MonkeyPatch.context() as patch:
        eval_overhead.skip(patch)
        yield


@pytest.fixture(autouse=True)
def short_data_home_links() -> Iterator[None]:
    """The links support.paths.data_home made for a test end with it."""
    yield
    remove_data_home_links()


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
        # The seed is Inspect's own (`--seed`), given to the eval, not the task.
        seed = {"seed": task_args.pop("seed")} if "seed" in task_args else {}
        logs = eval(
            debate(**task_args),
            model=main or Script("main").model(),
            model_roles=roles or {},
            log_dir=str(tmp_path / "logs"),
            display="none",
            **seed,
            **(eval_args or {}),
        )
        return logs[0]

    return run


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One small tournament played against the stub, shared by the tests that read
    logs (each copies it before changing anything): 3 models, 2 motions, 12 debates,
    judges j1 and j2 (fact-check off)."""
    from support.tournaments import MODELS, run_tournament

    folder = tmp_path_factory.mktemp("played") / "tourney"
    run_tournament(folder, MODELS)
    return folder
