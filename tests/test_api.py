"""The package's public face: every name in `__all__` resolves, to the object the
registry runs, each loaded only when first used; a debate runs from it through
`inspect_ai.eval()` and `task_with`."""

from __future__ import annotations

import ast
import subprocess
import sys
import types
from pathlib import Path

from inspect_ai import eval, task_with

import debatebench_eval
from debatebench_eval import DebateRecord, debate, rubric

from support.scripted import Script

INIT = Path(debatebench_eval.__file__)


def test_every_public_name_resolves_to_where_the_type_checker_is_told_it_lives() -> None:
    typed = {
        alias.asname or alias.name: node.module
        for node in ast.walk(ast.parse(INIT.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module and node.col_offset  # indented
        for alias in node.names
    }
    public = set(debatebench_eval.__all__) - {"__version__"}
    assert typed == debatebench_eval._PUBLIC and set(typed) == public
    for name in public:
        value = getattr(debatebench_eval, name)
        assert value.__module__ == typed[name] and value.__name__ == name


def test_no_public_name_is_also_a_subpackage() -> None:
    """The tasks `debate` and `crucible` live in `debating` and `truth_crucible`: no
    subpackage shares a public name, so importing one (the registry imports them all)
    cannot hide a task, and the package needs no module-class swap to keep it."""
    import debatebench_eval._registry
    from debatebench_eval.debating import task as debate_task
    from debatebench_eval.truth_crucible import task as crucible_task

    subpackages = {p.name for p in Path(debatebench_eval.__file__).parent.iterdir() if p.is_dir()}
    assert not subpackages & set(debatebench_eval.__all__)
    assert debatebench_eval.debate is debate_task.debate
    assert debatebench_eval.crucible is crucible_task.crucible
    assert type(debatebench_eval) is types.ModuleType


def test_importing_the_package_loads_no_task() -> None:
    code = (
        "import sys, debatebench_eval; "
        "print(sorted(m for m in sys.modules if 'debatebench_eval.' in m))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "['debatebench_eval.core', 'debatebench_eval.core.version']"


def test_the_registry_leaves_scipy_stats_to_the_figures_that_need_it() -> None:
    # Inspect imports the registry at every command's start; scipy.stats alone is 1.2 s.
    code = "import sys, debatebench_eval._registry; print('scipy.stats' in sys.modules)"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "False"


def test_a_debate_runs_from_the_api_with_eval_and_task_with(tmp_path: Path) -> None:
    task = task_with(debate(motion="Cities should ban cars.", phases="[opening]"), epochs=1)
    [log] = eval(task, model=Script("main").model(), log_dir=str(tmp_path), display="none")
    assert log.status == "success" and log.samples, log.error
    record = log.samples[0].store_as(DebateRecord)
    assert record.complete and [turn.side for turn in record.turns] == ["pro", "con"]
    assert "rubric" in log.samples[0].scores  # the scorer the API names judged it
    assert callable(rubric)
