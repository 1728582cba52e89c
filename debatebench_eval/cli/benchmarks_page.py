"""`docs/benchmarks.md`, generated from `results/figures.yaml`.

A figure is data (what, command, figure, machine, load, date, the printed
output it comes from), kept beside the benchmark outputs; the page only
presents it, so a new figure is one entry in that file and a regeneration.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from debatebench_eval.cli.reference import GENERATED
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.yamlio import load_yaml

FIGURES_FILE = Path("results") / "figures.yaml"
_EXPECTED = "a mapping with `figures`: a list of {title, what, command, figure, machine, date, ...}"


class Figure(BaseModel):
    """One measured figure and how to measure it again."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str
    what: str
    command: str
    figure: str
    machine: str
    date: date
    load: str | None = None
    source: str | None = None


class Figures(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    figures: list[Figure]


def load_figures(root: Path) -> list[Figure]:
    path = root / FIGURES_FILE
    data = load_yaml(path, _EXPECTED)
    try:
        return Figures.model_validate(data).figures
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ConfigError(f"{path}: {where}", first["msg"], _EXPECTED) from None


def benchmarks_page(figures: Sequence[Figure]) -> str:
    machines = sorted({figure.machine for figure in figures})
    parts = [
        GENERATED.replace("from the code", f"from {FIGURES_FILE.as_posix()}"),
        "# Benchmarks\n",
        "Every figure the project quotes, with the command that measures it again, the "
        "machine, its load average (other work on the machine slows wall times) and "
        "the date. A benchmark is a script that prints its figures; its printed output "
        "is kept in `results/benchmarks/`. Timings are never asserted by a test.\n",
        "Machines: " + "; ".join(machines) + ".\n",
    ]
    parts += [_section(figure) for figure in figures]
    return "\n".join(parts)


def _section(figure: Figure) -> str:
    about = [figure.date.isoformat()]
    if figure.load:
        about.append(f"load average {figure.load}")
    if figure.source:
        about.append(f"printed output: `{figure.source}`")
    return (
        f"## {figure.title}\n\n{_sentence(figure.what)}\n\n"
        f"```bash\n{figure.command}\n```\n\n{_sentence(figure.figure)}\n\n"
        f"*{figure.machine}; {'; '.join(about)}.*\n"
    )


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
