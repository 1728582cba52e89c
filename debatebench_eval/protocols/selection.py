"""Which personas sit at the table: heurema's selection rules.

A selector `ns/name` is an exact id; a short name is the root persona of
that id, else the one persona with that short name (several: an error
listing their ids). Selectors resolve among the user's personas first and
fall back to the shipped ones. The panel is `with` (order kept), else the
named table's, else the `default` table's: a found workspace's own (none is an
error, as in heurema), the shipped one only when no workspace was found, which
the run then says. The synthesizer is `synth`, else
the table's `synth`, else the persona the selector `synthesizer` finds
(it must have role synthesizer).
"""

from __future__ import annotations

import logging
from typing import Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.protocols.personas import Persona, valid_segment
from debatebench_eval.protocols.tables import Table
from debatebench_eval.protocols.workspace import WORKSPACE_MARKER, Index, Layer

DEFAULT_TABLE = "default"
SYNTHESIZER = "synthesizer"
logger = logging.getLogger(__name__)


class NotFound(ConfigError):
    pass


def selector_list(label: str, value: Any) -> list[str]:
    """Selectors as `-T with` gives them: `a,b` (comma-split by Inspect), `[a, b]`
    or one name. An empty entry (`a,` or `a,,b`) is an error, as in heurema."""
    raw = value if isinstance(value, list) else [value]
    entries = [part for item in raw for part in ([None] if item is None else str(item).split(","))]
    if any(entry is None or not entry.strip() for entry in entries):
        typed = ",".join("" if item is None else str(item) for item in raw)
        raise ConfigError(
            label,
            f"an empty persona selector in {typed!r}",
            "persona selectors separated by single commas (remove the empty entry)",
        )
    return [str(entry).strip() for entry in entries]


def resolve(index: Index, selector: str, label: str) -> Persona:
    """The persona a selector names: among the user's personas, else the shipped ones."""
    try:
        return _resolve_in(index.user, selector, label)
    except NotFound:
        pass
    try:
        return _resolve_in(index.bundled, selector, label)
    except NotFound:
        known = sorted({*index.user.personas, *index.bundled.personas})
        raise NotFound(
            label, f"persona selector {selector!r} matches no persona", f"one of {', '.join(known)}"
        ) from None


def _resolve_in(layer: Layer, selector: str, label: str) -> Persona:
    if "/" in selector or selector in layer.personas:
        if selector in layer.personas:
            return layer.personas[selector]
        raise NotFound(label, f"no persona {selector!r}", "an existing persona id")
    matches = sorted(
        (p for p in layer.personas.values() if p.short_name == selector), key=lambda p: p.id
    )
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise NotFound(label, f"no persona {selector!r}", "an existing persona id")
    raise ConfigError(
        label,
        f"persona selector {selector!r} is ambiguous",
        f"a qualified persona id: {', '.join(p.id for p in matches)}",
    )


def select_table(index: Index, name: str | None, has_with: bool, flag: str = "-T") -> Table | None:
    """The named table, else `default` (heurema reads its synth even with `with`).

    A found workspace is read as heurema reads it: its own `tables/default.yml`
    or nothing, so a workspace whose panel cannot be selected stops here rather
    than seating the shipped personas in place of its own. The shipped default
    table seats the panel only when no workspace was found at all.
    """
    if name is not None:
        return _named_table(index, name, f"{flag} table")
    if not index.has_workspace:
        return _shipped_default(index, has_with)
    table = index.user.tables.get(DEFAULT_TABLE)
    if table is None and not has_with:
        raise ConfigError(
            f"{flag} table",
            f"no table given, and the workspace ({index.workspace_folders()}) has no "
            "tables/default.yml",
            f"a default table (tables/default.yml), a named table ({flag} table=NAME) "
            f"or a panel ({flag} with=a,b), as heurema does",
        )
    return table


def _named_table(index: Index, name: str, where: str) -> Table:
    if not valid_segment(name):
        raise ConfigError(where, f"invalid table name {name!r}", "letters, digits, - and _")
    table = index.table(name)
    if table is None:
        raise ConfigError(where, f"no table {name!r}", f"one of {', '.join(index.table_names())}")
    return table


def _shipped_default(index: Index, has_with: bool) -> Table | None:
    """The shipped default table, said aloud when it seats the panel: with no
    workspace found, none of the user's own personas take part."""
    table = index.bundled.tables.get(DEFAULT_TABLE)
    if table is not None and not has_with:
        logger.warning(
            "no workspace found (no .heurema/debate/ or %s here or above): the panel is "
            "the shipped default table (%s); `debatebench-eval init` makes one of your own",
            WORKSPACE_MARKER,
            ", ".join(table.panel),
        )
    return table


def select_panel(index: Index, selectors: list[str], label: str) -> list[Persona]:
    panel: list[Persona] = []
    for selector in selectors:
        persona = resolve(index, selector, label)
        if persona.role == SYNTHESIZER:
            raise ConfigError(
                label,
                f"persona {persona.id!r} ({persona.file}) has role synthesizer",
                "debater personas in the panel (a synthesizer goes in -T synth)",
            )
        if any(p.id == persona.id for p in panel):
            raise ConfigError(label, f"persona {persona.id!r} is listed twice", "each persona once")
        panel.append(persona)
    return panel


def select_synthesizer(
    index: Index, synth: str | None, table: Table | None, flag: str = "-T"
) -> Persona:
    if synth is not None:
        return as_synthesizer(resolve(index, synth, f"{flag} synth"), f"{flag} synth")
    if table is not None and table.synth is not None:
        return as_synthesizer(
            resolve(index, table.synth, f"{table.file}: synth"), f"{table.file}: synth"
        )
    label = "the default synthesizer"
    return as_synthesizer(resolve(index, SYNTHESIZER, label), label)


def as_synthesizer(persona: Persona, label: str) -> Persona:
    """The persona, if its role lets it synthesize."""
    if persona.role != SYNTHESIZER:
        raise ConfigError(
            label,
            f"persona {persona.id!r} ({persona.file}) has role {persona.role}",
            "role: synthesizer",
        )
    return persona
