"""Write, or with `--check` compare, the generated pages of the documentation site.

    python -m debatebench_eval.cli.docs_pages          # docs/reference/, docs/benchmarks.md
    python -m debatebench_eval.cli.docs_pages --check  # exit 1 naming each stale page

A module of the package rather than a script in docs/: it reuses the command
line's own listing and parser, mypy checks it with the rest, and docs/ holds
only what the site shows.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from debatebench_eval.cli import reference, surface
from debatebench_eval.cli.benchmarks_page import benchmarks_page, load_figures
from debatebench_eval.core.errors import ConfigError

# The checkout this module sits in (the generator is a contributor's tool).
CHECKOUT = Path(__file__).resolve().parents[2]
COMMAND = "python -m debatebench_eval.cli.docs_pages"


def pages(root: Path) -> dict[str, str]:
    """Every generated page, by its path under docs/."""
    from debatebench_eval.cli.main import command_parser

    found = {
        "reference/index.md": reference.index_page(),
        "reference/tasks.md": reference.objects_page(
            "task", "Tasks", "Run with `inspect eval NAME`; options with `-T key=value`."
        ),
        "reference/scorers.md": reference.objects_page(
            "scorer", "Scorers", "Re-score a log with `inspect score LOG --scorer NAME`; "
            "options with `-S key=value`."
        ),
        "reference/solvers.md": reference.objects_page(
            "solver", "Solvers", "Use with any task: `inspect eval TASK --solver NAME`; "
            "options with `-S key=value`."
        ),
        "reference/commands.md": reference.commands_page(command_parser()),
        "reference/records.md": reference.records_page(),
        "benchmarks.md": benchmarks_page(load_figures(root)),
    }  # fmt: skip
    for item in surface.registered():
        if item.kind == "task":
            found[f"reference/parameters/{item.short}.md"] = reference.parameters_snippet(item)
            found[f"reference/scores/{item.short}.md"] = reference.scores_snippet(item.short)
    return found


def stale(root: Path) -> list[str]:
    """The generated pages whose file differs from a fresh generation (or is missing),
    and files in the generated folders that the generator no longer writes."""
    docs = root / "docs"
    fresh = pages(root)
    differing = [
        name for name, text in fresh.items()
        if not (docs / name).is_file() or (docs / name).read_text(encoding="utf-8") != text
    ]  # fmt: skip
    leftover = [
        path.relative_to(docs).as_posix()
        for path in sorted((docs / "reference").rglob("*.md"))
        if path.relative_to(docs).as_posix() not in fresh
    ]
    return differing + leftover


def write(root: Path) -> list[str]:
    docs = root / "docs"
    written = []
    for name, text in pages(root).items():
        path = docs / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(name)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("--root", type=Path, default=CHECKOUT, help="the checkout")
    args = parser.parse_args(argv)
    try:
        if args.check:
            out_of_date = stale(args.root)
            for name in out_of_date:
                print(f"docs/{name} is out of date: run {COMMAND}", file=sys.stderr)
            return 1 if out_of_date else 0
        for name in write(args.root):
            print(f"docs/{name}")
    except ConfigError as error:  # a bad results/figures.yaml: its one message
        print(f"{COMMAND}: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
