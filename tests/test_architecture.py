"""The package's shape: every module has a layer, imports run one way, no circle.

Layers, bottom to top: the shared core; rules and data models; solvers,
scorers and metrics; tasks; commands and the registry. A module may import
its own layer or a lower one. Imports inside functions count too: a deferred
import hides a circle from Python, not from a reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import debatebench_eval

PACKAGE = Path(debatebench_eval.__file__).parent
LAYERS = ("core", "rules", "solvers", "tasks", "commands")
# Subpackages whose every module sits in one layer.
WHOLE = {
    "core": "core", "servers": "rules", "record": "rules", "trust": "rules", "prep": "rules",
    "cli": "commands",
    # The labelling page and the labels read back: log readers and a page writer.
    "annotation": "commands",
}  # fmt: skip
_DEBATE_RULES = ("config", "run_yaml", "prompts", "call_shape")
_JUDGING_RULES = (
    "rubric", "blind", "structured", "verdict", "score_schema", "options", "gate", "ledger",
    "viewer", "explain", "figures", "families", "repeats", "reliability",
)  # fmt: skip
_TOURNAMENT_RULES = (
    "schedule", "manifest", "results", "bradley_terry", "bootstrap", "agreement", "standings",
    "figure_text", "calibration", "judge_reliability", "shares", "location", "cost", "spend",
    "persuasion", "human_ratings",
)  # fmt: skip
_TOURNAMENT_COMMANDS = (
    "runner", "outcomes", "judged_elsewhere", "leaderboard", "plots", "leaderboard_log",
    "leaderboard_page", "task_logs", "plan", "worker", "oversight_board", "human_labels",
)  # fmt: skip
_CRUCIBLE_RULES = (
    "topic", "corpus", "verify", "record", "search", "options", "prompts", "claims",
    "blindview", "conflicts", "rounds", "convergence", "neutralize", "panel", "audit",
    "outcome", "display", "report_text", "viewer", "replies",
)  # fmt: skip
_CRUCIBLE_SOLVERS = ("calls", "context_plan", "resume", "stages", "solver", "scorer")
_PROTOCOL_RULES = (
    "spec", "personas", "tables", "workspace", "selection", "models", "plan", "record",
    "signals", "visibility", "decision", "prompts", "answers", "display", "echo", "scaffold",
    "options",
)  # fmt: skip
_PROTOCOL_SOLVERS = ("seats", "turns", "engine", "solver", "scorer")
_KNOWN_ANSWER_RULES = (
    "questions", "quality", "assignment", "quotes", "replies", "record", "prompts", "stats",
    "comparison",
)  # fmt: skip
_ANNOTATION_RULES = ("agreement_stats", "ppi")
# annotation.agreement reads the label rows (a command-layer model), so it sits there too.
MODULES = {
    "debatebench_eval": "commands",  # the public face: tasks, scorers, tournament steps
    "debatebench_eval.__main__": "commands",
    "debatebench_eval._registry": "commands",
    **{f"debatebench_eval.debating.{name}": "rules" for name in _DEBATE_RULES},
    "debatebench_eval.debating.speech": "solvers",
    "debatebench_eval.debating.pairing": "solvers",
    "debatebench_eval.debating.solver": "solvers",
    "debatebench_eval.debating.context_plan": "solvers",
    "debatebench_eval.debating.turn_stats": "solvers",
    "debatebench_eval.debating.task": "tasks",
    # Reads a finished log for `debatebench-eval report`.
    "debatebench_eval.debating.log_figures": "commands",
    **{f"debatebench_eval.judging.{name}": "rules" for name in _JUDGING_RULES},
    "debatebench_eval.judging.rubric_scorer": "solvers",
    "debatebench_eval.judging.fact_check": "solvers",
    "debatebench_eval.judging.metrics": "solvers",
    "debatebench_eval.judging.run_summary": "solvers",
    "debatebench_eval.judging.scorer_set": "tasks",
    "debatebench_eval.validation.speech_scorer": "solvers",
    # The judge checks: the set and its statistics are rules, the wrapping
    # scorers solvers, the tasks tasks, the log readers and report commands.
    **{
        f"debatebench_eval.validation.{name}": "rules"
        for name in (
            "planted_set",
            "claim_matching",
            "claim_stats",
            "degradations",
            "sensitivity_stats",
        )
    },
    "debatebench_eval.validation.fact_check_scorer": "solvers",
    "debatebench_eval.validation.sensitivity_scorer": "solvers",
    "debatebench_eval.validation.fact_check_task": "tasks",
    "debatebench_eval.validation.sensitivity_task": "tasks",
    "debatebench_eval.validation.check_reader": "commands",
    "debatebench_eval.validation.check_report": "commands",
    "debatebench_eval.validation.speech_task": "tasks",
    "debatebench_eval.validation.log_reader": "commands",
    "debatebench_eval.validation.report": "commands",
    "debatebench_eval.interop.transcript_file": "rules",
    "debatebench_eval.interop.score_file": "rules",
    "debatebench_eval.interop.judge_task": "tasks",
    "debatebench_eval.interop.export": "commands",
    **{f"debatebench_eval.tournament.{name}": "rules" for name in _TOURNAMENT_RULES},
    **{f"debatebench_eval.tournament.{name}": "commands" for name in _TOURNAMENT_COMMANDS},
    **{f"debatebench_eval.truth_crucible.{name}": "rules" for name in _CRUCIBLE_RULES},
    **{f"debatebench_eval.truth_crucible.{name}": "solvers" for name in _CRUCIBLE_SOLVERS},
    "debatebench_eval.truth_crucible.task": "tasks",
    **{
        f"debatebench_eval.truth_crucible.{name}": "commands"
        for name in ("log_reader", "report", "graph", "commands")
    },
    **{f"debatebench_eval.protocols.{name}": "rules" for name in _PROTOCOL_RULES},
    **{f"debatebench_eval.protocols.{name}": "solvers" for name in _PROTOCOL_SOLVERS},
    "debatebench_eval.protocols.tasks": "tasks",
    "debatebench_eval.protocols.export": "commands",
    **{f"debatebench_eval.known_answer.{name}": "rules" for name in _KNOWN_ANSWER_RULES},
    "debatebench_eval.known_answer.solver": "solvers",
    "debatebench_eval.known_answer.verdict": "solvers",
    "debatebench_eval.known_answer.scorer": "solvers",
    "debatebench_eval.known_answer.task": "tasks",
    "debatebench_eval.known_answer.log_reader": "commands",
    # Reads a finished log for `debatebench-eval report`.
    "debatebench_eval.known_answer.report": "commands",
    **{f"debatebench_eval.annotation.{name}": "rules" for name in _ANNOTATION_RULES},
}


# Which subpackages each may import, beside its own: the shared debate record sits
# below every subpackage that reads a debate, judge trust below judging (whose gate
# reads it) and validation (whose tasks earn it), judging below the tasks that judge.
# The package root (registry, entry point, public API) is the top and not listed.
_BELOW_JUDGING = ("core", "servers", "record")
ALLOWED: dict[str, frozenset[str]] = {
    name: frozenset(deps)
    for name, deps in {
        "core": (),
        "servers": ("core",),
        "record": ("core",),
        "prep": ("core", "record"),
        "trust": ("core", "servers", "record"),
        "judging": (*_BELOW_JUDGING, "trust"),
        "validation": (*_BELOW_JUDGING, "trust", "judging", "interop"),
        "interop": (*_BELOW_JUDGING, "judging"),
        "debating": (*_BELOW_JUDGING, "prep", "judging"),
        "truth_crucible": (*_BELOW_JUDGING, "prep", "judging"),
        "protocols": (*_BELOW_JUDGING, "judging"),
        # Known-answer debates reuse the judge's machinery, not the rubric debate's task.
        "known_answer": (*_BELOW_JUDGING, "judging"),
        # Human labels: the debates of a folder as items, the labels read back, and what
        # they say of the judge (by the judge's own statistics).
        "annotation": (*_BELOW_JUDGING, "trust", "judging", "known_answer"),
        "tournament": (
            *_BELOW_JUDGING, "judging", "interop", "debating", "known_answer", "annotation",
        ),
        # cli's generated reference reads every task's own constants, debate's too.
        "cli": (
            *_BELOW_JUDGING, "trust", "prep", "judging", "validation", "interop",
            "truth_crucible", "protocols", "tournament", "debating", "known_answer",
            "annotation",
        ),
    }.items()
}  # fmt: skip


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module of the package that `path` imports, at any depth of its code."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    return {m for m in found if m in ALL}


FILES = sorted(PACKAGE.rglob("*.py"))
ALL = {module_name(path) for path in FILES}
GRAPH = {module_name(path): imports(path) for path in FILES}


def layer(module: str) -> str:
    if module in MODULES:
        return MODULES[module]
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in WHOLE:
        return WHOLE[parts[1]]
    if len(parts) == 2 and (PACKAGE / parts[1]).is_dir():
        return "core"  # a subpackage's __init__: a docstring, importing nothing
    raise KeyError(module)


def test_every_module_has_a_layer() -> None:
    unplaced = sorted(m for m in ALL if _unplaced(m))
    assert not unplaced, f"give these modules a layer in {__name__}.MODULES: {unplaced}"


def _unplaced(module: str) -> bool:
    try:
        layer(module)
    except KeyError:
        return True
    return False


@pytest.mark.parametrize("module", sorted(ALL))
def test_imports_run_downward(module: str) -> None:
    own = LAYERS.index(layer(module))
    upward = sorted(m for m in GRAPH[module] if LAYERS.index(layer(m)) > own)
    assert not upward, f"{module} ({layer(module)}) imports a higher layer: {upward}"


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
