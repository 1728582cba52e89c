"""The package's shape: imports run one way, no circle, and each module's layer follows
from what it is, not from a list kept by hand.

Layers, bottom to top: the shared core; rules and data models; solvers, scorers
and metrics; tasks; commands and the registry. A module's own layer is what its
code makes it, read from its source:

- `core/` is the core;
- a module that defines an Inspect `@solver`, `@scorer`, `@metric` or `@hooks` is
  a solver, one that defines a `@task` a task;
- a module that runs Inspect (`eval`, `eval_set`, `score`) or is a command line
  (argparse, worker processes), and `cli/` and the package root, are commands;
- any other module has no layer of its own: it sits just above what it imports.

So a module that adds no Inspect glue takes whatever its imports make it, and
the tests below state the rules that layering is for: a solver never leans on a
task or a command, a task never on a command; the subpackages that hold only
rules (statistics, records, servers, trust, prep) reach nothing above rules;
and every rule module under mutation testing stays plain rules, callable without
a model. Imports inside functions count too: a deferred import hides a circle
from Python, not from a reader.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import debatebench_eval

from mutation.targets import TARGETS

PACKAGE = Path(debatebench_eval.__file__).parent
LAYERS = ("core", "rules", "solvers", "tasks", "commands")
# Inspect's decorators, by the layer a module that defines one is in.
DECORATORS = {"solver": "solvers", "scorer": "solvers", "metric": "solvers",
              "hooks": "solvers", "task": "tasks"}  # fmt: skip
# What a module imports that makes it a command: running Inspect, or a command line.
RUNNERS = {("inspect_ai", name) for name in ("eval", "eval_async", "eval_set", "score")}
COMMAND_MODULES = ("argparse", "subprocess")
# Subpackages whose every module is at most this layer.
CEILING = {"core": "core", "stats": "rules", "record": "rules", "servers": "rules",
           "trust": "rules", "prep": "rules", "matches": "rules"}  # fmt: skip


# Which subpackages each may import, beside its own: the shared debate record sits
# below every subpackage that reads a debate, judge trust below judging (whose gate
# reads it) and validation (whose tasks earn it), judging below the tasks that judge.
# The statistics (the level, intervals, bootstrap, Bradley-Terry) import nothing of the
# package, and every subpackage that computes an interval imports them. The runner
# of many processes knows nothing of debates: tournaments and `run` build on it.
# The package root (registry, entry point, public API) is the top and not listed.
_BELOW_JUDGING = ("core", "servers", "record")
ALLOWED: dict[str, frozenset[str]] = {
    name: frozenset(deps)
    for name, deps in {
        "core": (),
        "stats": (),
        "runs": ("core",),
        "servers": ("core",),
        "record": ("core",),
        # A debate's result in a match, below every subpackage that rates or reads one.
        "matches": ("core", "record"),
        "prep": ("core", "record"),
        "trust": ("core", "servers", "record", "stats"),
        "judging": (*_BELOW_JUDGING, "trust", "stats", "matches"),
        "validation": (*_BELOW_JUDGING, "trust", "judging", "interop", "stats"),
        "interop": (*_BELOW_JUDGING, "judging"),
        "debating": (*_BELOW_JUDGING, "prep", "judging"),
        "truth_crucible": (*_BELOW_JUDGING, "prep", "judging"),
        "protocols": (*_BELOW_JUDGING, "judging"),
        # Known-answer debates reuse the judge's machinery, not the rubric debate's task.
        "known_answer": (*_BELOW_JUDGING, "judging", "stats"),
        # Human labels: the debates of a folder as items, the labels read back, and what
        # they say of the judge (by the judge's own statistics).
        "annotation": (
            *_BELOW_JUDGING, "trust", "judging", "known_answer", "stats", "matches",
        ),
        "tournament": (
            *_BELOW_JUDGING, "judging", "interop", "debating", "known_answer", "annotation",
            "stats", "runs", "matches",
        ),
        # cli's generated reference reads every task's own constants, debate's too.
        "cli": (
            *_BELOW_JUDGING, "trust", "prep", "judging", "validation", "interop",
            "truth_crucible", "protocols", "tournament", "debating", "known_answer",
            "annotation", "runs", "matches",
        ),
    }.items()
}  # fmt: skip


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(tree: ast.Module, name: str, is_package: bool, known: set[str]) -> set[str]:
    """Every module of `known` the code imports, at any depth of it."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            found.add(base)
            # `from pkg import module` imports the module itself
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found & known


def own_layer(tree: ast.Module, name: str) -> str | None:
    """The layer the module's own code puts it in (None: it adds no Inspect glue)."""
    parts = name.split(".")
    if len(parts) > 1 and parts[1] == "core":
        return "core"
    if len(parts) == 1 or parts[1] in ("cli", "__main__", "_registry"):
        return "commands"
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found += [DECORATORS[d] for d in map(_decorator, node.decorator_list)
                      if d in DECORATORS]  # fmt: skip
        elif isinstance(node, ast.ImportFrom) and node.module:
            runs = any((node.module, alias.name) in RUNNERS for alias in node.names)
            found += ["commands"] if runs or node.module in COMMAND_MODULES else []
        elif isinstance(node, ast.Import):
            found += ["commands" for alias in node.names if alias.name in COMMAND_MODULES]
    return max(found, key=LAYERS.index) if found else None


def _decorator(node: ast.expr) -> str | None:
    called = node.func if isinstance(node, ast.Call) else node
    if isinstance(called, ast.Name):
        return called.id
    return called.attr if isinstance(called, ast.Attribute) else None


FILES = sorted(PACKAGE.rglob("*.py"))
ALL = {module_name(path) for path in FILES}
TREES = {module_name(path): ast.parse(path.read_text(encoding="utf-8")) for path in FILES}
GRAPH = {
    module_name(path): imports_of(TREES[module_name(path)], module_name(path),
                                  path.name == "__init__.py", ALL)
    for path in FILES
}  # fmt: skip
OWN = {name: own_layer(tree, name) for name, tree in TREES.items()}


@cache
def layer(module: str) -> str:
    """The module's own layer, or, for one without, the highest of what it imports
    (rules at least): where it sits."""
    reached = [OWN[module] or "rules", *(layer(target) for target in GRAPH[module])]
    return max(reached, key=LAYERS.index)


def above(module: str, ceiling: str) -> list[str]:
    """What the module imports that sits above `ceiling`."""
    return sorted(t for t in GRAPH[module] if LAYERS.index(layer(t)) > LAYERS.index(ceiling))


@pytest.mark.parametrize("module", sorted(m for m in ALL if OWN[m] is not None))
def test_a_module_with_inspect_glue_imports_nothing_above_its_own_layer(module: str) -> None:
    own = str(OWN[module])
    assert not above(module, own), f"{module} ({own}) imports a higher layer: {above(module, own)}"


@pytest.mark.parametrize("subpackage", sorted(CEILING))
def test_the_subpackages_of_rules_reach_nothing_above_rules(subpackage: str) -> None:
    ceiling = CEILING[subpackage]
    high = {m: layer(m) for m in ALL if m.split(".")[1:2] == [subpackage]}
    over = {m: found for m, found in high.items() if LAYERS.index(found) > LAYERS.index(ceiling)}
    assert not over, f"{subpackage} holds {ceiling} only; these sit higher: {over}"


@pytest.mark.parametrize("target", [t for t in TARGETS if not t.functions], ids=lambda t: t.name)
def test_every_whole_rule_module_under_mutation_testing_is_plain_rules(target: object) -> None:
    """A target with glue names its rule functions instead (`Target.functions`)."""
    module = target.module  # type: ignore[attr-defined]
    assert layer(module) in ("core", "rules"), f"{module} sits at {layer(module)}"


def test_the_layers_are_read_from_the_code_as_stated() -> None:
    """The reading itself, on small sources: the checks above rest on it."""

    def own(source: str, name: str = "debatebench_eval.judging.x") -> str | None:
        return own_layer(ast.parse(source), name)

    assert own("def f(): pass") is None
    assert own("@solver\ndef f(): pass") == "solvers"
    assert own("@scorer(metrics=[])\ndef f(): pass") == "solvers"
    assert own("@inspect_ai.task\ndef f(): pass") == "tasks"
    assert own("from inspect_ai import eval_set") == "commands"
    assert own("import argparse") == "commands"
    assert own("from inspect_ai import Task") is None
    assert own("def f(): pass", "debatebench_eval.cli.x") == "commands"
    assert own("def f(): pass", "debatebench_eval.core.x") == "core"
    tasks = sorted(m for m in ALL if OWN[m] == "tasks")
    assert "debatebench_eval.debating.task" in tasks
    assert all(layer(m) == "tasks" and not above(m, "tasks") for m in tasks)
    # A module without glue of its own sits with the highest it imports.
    plain = "debatebench_eval.tournament.kinds"
    assert OWN[plain] is None and layer(plain) == "tasks"


def test_subpackage_inits_are_docstrings_only() -> None:
    for init in PACKAGE.glob("*/__init__.py"):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{init} says what it holds"
        assert len(tree.body) == 1, f"{init} holds only its docstring (importing it is free)"


def test_no_import_circle() -> None:
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(GRAPH[module]):
            if state.get(target) == 1:
                circle = [*path[path.index(target) :], target]
                pytest.fail("import circle: " + " -> ".join(circle))
            if target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module)


def subpackage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ALLOWED) else None


def test_every_subpackage_is_in_the_table() -> None:
    found = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert found == set(ALLOWED), f"state these in {__name__}.ALLOWED: {found ^ set(ALLOWED)}"


@pytest.mark.parametrize("source", sorted(ALLOWED))
def test_subpackages_depend_only_as_the_table_allows(source: str) -> None:
    stray = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if subpackage(module) == source
        for target in targets
        if (into := subpackage(target)) not in (None, source) and into not in ALLOWED[source]
    )
    assert not stray, f"{source} may import only {sorted(ALLOWED[source])}: {stray}"


def test_the_table_runs_one_way() -> None:
    edges = {(a, b) for a, deps in ALLOWED.items() for b in deps}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        for a, b in sorted(edges):
            if a != name:
                continue
            assert b not in path, "subpackage circle: " + " -> ".join((*path, b))
            if b not in done:
                visit(b, (*path, b))
        done.add(name)

    for name in sorted(ALLOWED):
        visit(name, (name,))
