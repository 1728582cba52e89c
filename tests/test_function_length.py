"""No function of the command line or of the debate task grows past a screen (issue 44).

A function is measured from its `def` to its last line, less its docstring: a
task factory's docstring is its `-T` help and its reference page, and its
length is documentation, not code to read. Nested functions and methods are
measured on their own (and count in the function around them too).
"""

from __future__ import annotations

import ast
from pathlib import Path

import debatebench_eval

PACKAGE = Path(debatebench_eval.__file__).parent
MEASURED = (*sorted((PACKAGE / "cli").glob("*.py")), PACKAGE / "debating" / "task.py")
MOST_LINES = 60

Function = ast.FunctionDef | ast.AsyncFunctionDef


def code_lines(function: Function) -> int:
    """Lines from `def` to the function's end, its docstring left out."""
    assert function.end_lineno is not None
    lines = function.end_lineno - function.lineno + 1
    if ast.get_docstring(function, clean=False) is not None:
        docstring = function.body[0]
        assert docstring.end_lineno is not None
        lines -= docstring.end_lineno - docstring.lineno + 1
    return lines


def too_long(source: str, most: int = MOST_LINES) -> list[tuple[str, int]]:
    """Each function of a module longer than `most` lines, with its length."""
    return [
        (node.name, code_lines(node))
        for node in ast.walk(ast.parse(source))
        if isinstance(node, Function) and code_lines(node) > most
    ]


def test_no_function_of_the_cli_or_the_debate_task_is_over_60_lines() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}: {name} ({lines} lines)"
        for path in MEASURED
        for name, lines in too_long(path.read_text(encoding="utf-8"))
    ]
    assert not found, f"split these into named pieces of at most {MOST_LINES} lines: {found}"


def test_the_measure_counts_code_and_leaves_the_docstring_out() -> None:
    body = "".join(f"    x{n} = {n}\n" for n in range(MOST_LINES - 1))
    fits = f'def fits():\n    """Doc.\n\n    More.\n    """\n{body}'
    assert too_long(fits) == []  # `def` and 59 lines of code: 60
    grown = fits + "    return x0\n"
    assert too_long(grown) == [("fits", MOST_LINES + 1)]
    nested = "def outer():\n" + "".join("    " + line + "\n" for line in grown.splitlines())
    assert [name for name, _ in too_long(nested)] == ["outer", "fits"]


def test_the_measured_modules_are_there() -> None:
    # A moved folder would leave the glob empty and the rule checking nothing.
    assert PACKAGE / "cli" / "main.py" in MEASURED
    assert all(path.is_file() for path in MEASURED)
