"""Table files in heurema's format, read unchanged: `tables/<name>.yml` with
`version: 1`, a non-empty `panel` of persona selectors (order kept) and an
optional `synth` selector. Any other key is an error."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BeforeValidator

from debatebench_eval.core.config_file import ConfigFile, Said, VersionOne, parse_file, text
from debatebench_eval.core.reply_model import expected_error
from debatebench_eval.core.yamlio import load_yaml


def _selectors(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise expected_error("a non-empty list of persona selectors")
    for entry in value:
        if not isinstance(entry, str) or not entry.strip():
            raise expected_error("persona selectors (non-empty strings)", f"entry {entry!r}")
    return tuple(entry.strip() for entry in value)


class TableFile(ConfigFile):
    version: VersionOne
    panel: Annotated[
        tuple[str, ...], BeforeValidator(_selectors), Said("a non-empty list of persona selectors")
    ]
    synth: Annotated[str | None, text("a persona selector")] = None


@dataclass(frozen=True)
class Table:
    name: str
    panel: tuple[str, ...]
    file: str
    synth: str | None = None


def parse_table(path: Path, name: str) -> Table:
    where = str(path)
    found = parse_file(TableFile, load_yaml(path, "a table: version, panel, synth"), where)
    return Table(name=name, panel=found.panel, file=where, synth=found.synth)
