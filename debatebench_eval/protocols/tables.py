"""Table files in heurema's format, read unchanged: `tables/<name>.yml` with
`version: 1`, a non-empty `panel` of persona selectors (order kept) and an
optional `synth` selector. Any other key is an error."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.yamlio import load_yaml

TABLE_KEYS = ("version", "panel", "synth")


@dataclass(frozen=True)
class Table:
    name: str
    panel: tuple[str, ...]
    file: str
    synth: str | None = None


def parse_table(path: Path, name: str) -> Table:
    where = str(path)
    data = load_yaml(path, "a table: version, panel, synth")
    if not isinstance(data, dict):
        raise ConfigError(
            where, f"top level is {type(data).__name__}", "a mapping: version, panel, synth"
        )
    unknown = sorted(set(data) - set(TABLE_KEYS), key=str)
    if unknown:
        raise ConfigError(
            f"{where}: {unknown[0]}", f"unknown key(s) {unknown}", f"only {', '.join(TABLE_KEYS)}"
        )
    version = data.get("version")
    if version != 1 or isinstance(version, bool):
        found = "no version" if version is None else f"version {version!r}"
        raise ConfigError(f"{where}: version", found, "version: 1")
    panel = data.get("panel")
    if not isinstance(panel, list) or not panel:
        raise ConfigError(
            f"{where}: panel", f"got {panel!r}", "a non-empty list of persona selectors"
        )
    for entry in panel:
        if not isinstance(entry, str) or not entry.strip():
            raise ConfigError(
                f"{where}: panel", f"entry {entry!r}", "persona selectors (non-empty strings)"
            )
    synth = data.get("synth")
    if synth is not None and (not isinstance(synth, str) or not synth.strip()):
        raise ConfigError(f"{where}: synth", f"got {synth!r}", "a persona selector")
    return Table(
        name=name,
        panel=tuple(entry.strip() for entry in panel),
        file=where,
        synth=synth.strip() if synth else None,
    )
