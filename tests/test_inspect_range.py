"""The Inspect release the project allows is the one it is tested on, and a private
Inspect name that a release moves is named with the installed version.

`debatebench_eval/core/_inspect.py` imports every private name the project uses;
this test reads those imports and resolves each one on its own, so a moved name
fails here with the name, where it was and the installed inspect-ai version,
rather than as an ImportError that stops the whole suite's collection.
"""

from __future__ import annotations

import ast
import importlib
import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PRIVATE = ROOT / "debatebench_eval" / "core" / "_inspect.py"
HOW = "see docs/contributing.md, 'Moving the Inspect range'"


def private_names() -> list[tuple[str, str]]:
    """(module, name) of every `from inspect_ai... import name` in _inspect.py."""
    tree = ast.parse(PRIVATE.read_text(encoding="utf-8"))
    return [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("inspect_ai")
        for alias in node.names
    ]


def moved(names: list[tuple[str, str]]) -> list[str]:
    """Each name that does not resolve, said with where it was looked for."""
    found = []
    for module, name in names:
        try:
            holder = importlib.import_module(module)
        except ImportError as exc:
            found.append(f"{module} cannot be imported ({exc}), for {name}")
            continue
        if not hasattr(holder, name):
            found.append(f"{module}.{name} is missing")
    return found


def test_every_private_inspect_name_resolves_in_the_installed_release() -> None:
    names = private_names()
    assert len(names) >= 10, "the reader found no private imports in _inspect.py"
    missing = moved(names)
    assert not missing, (
        f"in inspect-ai {version('inspect-ai')} (installed), private names that "
        f"debatebench_eval/core/_inspect.py uses moved: {'; '.join(missing)} ({HOW})"
    )


def test_a_moved_name_is_named_with_where_it_was() -> None:
    assert moved([("inspect_ai._util.registry", "no_such_name")]) == [
        "inspect_ai._util.registry.no_such_name is missing"
    ]
    assert moved([("inspect_ai._no_such_module", "x")])[0].startswith(
        "inspect_ai._no_such_module cannot be imported"
    )


def test_the_pinned_range_is_the_tested_release() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (pin,) = [
        Requirement(dep)
        for dep in project["project"]["dependencies"]
        if Requirement(dep).name == "inspect-ai"
    ]
    installed = version("inspect-ai")
    assert pin.specifier.contains(installed), (
        f"inspect-ai {installed} is installed but pyproject.toml allows {pin.specifier}: "
        f"run the suite on it and move the pin ({HOW})"
    )
    # Exactly the release run here: no untested release is let in.
    assert str(pin.specifier) == f"=={installed}", (
        f"pyproject.toml allows inspect-ai {pin.specifier}, but only {installed} is tested ({HOW})"
    )
