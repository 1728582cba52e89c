"""Statistics live in one home (DESIGN, "One way for each shared job"): the confidence
level, percentile intervals and resampling are `debatebench_eval.stats`'s alone, and
that subpackage stands on numpy, scipy and the standard library only."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import debatebench_eval

PACKAGE = Path(debatebench_eval.__file__).parent
HOME = PACKAGE / "stats"
# Random draws outside the home that are simulations, not resampling of the data.
SIMULATIONS = {
    # The headline rate of a judge that scores every dimension at random.
    ("validation/sensitivity_stats.py", "chance_detection"),
    # The macro-F1 of a judge that picks every verdict at random.
    ("validation/claim_stats.py", "baselines"),
}
QUANTILES = {"quantile", "percentile", "nanquantile", "nanpercentile"}


def modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        if not path.is_relative_to(HOME):
            place = path.relative_to(PACKAGE).as_posix()
            yield place, ast.parse(path.read_text(encoding="utf-8"))


def functions_calling(tree: ast.Module, names: set[str]) -> Iterator[str]:
    """The functions in which a numpy call (`np.quantile`, `np.random.default_rng`) or a
    generator's (`rng.multinomial`) of a name in `names` appears."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            calls = [c for c in ast.walk(node) if isinstance(c, ast.Call)]
            if any(_numpy_call(call) in names for call in calls):
                yield node.name


def _numpy_call(call: ast.Call) -> str | None:
    """`quantile` of `np.quantile(...)`, `multinomial` of `rng.multinomial(...)`."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    owner = ast.unparse(func.value)
    return func.attr if owner in ("np", "numpy", "np.random", "rng") else None


def test_no_module_but_the_home_names_a_confidence_level() -> None:
    found = [
        f"{place}: {target.id}"
        for place, tree in modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and "LEVEL" in target.id
    ]
    assert not found, f"take the level from stats.intervals.LEVEL: {found}"


def test_no_module_but_the_home_takes_percentiles_of_resamples() -> None:
    found = [f"{place}: {name}" for place, tree in modules()
             for name in functions_calling(tree, QUANTILES)]  # fmt: skip
    assert not found, f"use stats.intervals.percentile (or widened): {found}"


def test_random_draws_outside_the_home_are_named_simulations() -> None:
    found = {(place, name) for place, tree in modules()
             for name in functions_calling(tree, {"default_rng", "multinomial"})}  # fmt: skip
    assert found <= SIMULATIONS, f"resample through stats.bootstrap: {found - SIMULATIONS}"
    assert found == SIMULATIONS, f"no longer drawing, drop from SIMULATIONS: {SIMULATIONS - found}"


def test_the_home_stands_on_numpy_scipy_and_the_standard_library() -> None:
    allowed = {"numpy", "scipy", "__future__", *sys.stdlib_module_names}
    for path in sorted(HOME.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("debatebench_eval.stats"):
                    continue
                roots = [node.module.split(".")[0]]
            else:
                continue
            assert set(roots) <= allowed, f"{path.name} imports {roots}"
