"""Persona files in heurema's format, read unchanged.

A persona is Markdown with YAML front matter: `version: 1` (required),
`role` (`debater`, the default, or `synthesizer`), `model` and `effort`
(required), optional `backend` and `tags`; any other field is an error, and
the body (the persona's system prompt) must not be empty. Its id is its path
below `personas/` without `.md`: `skeptic` or `reviewers/security`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.front_matter import split_front_matter

PERSONA_KEYS = ("version", "role", "model", "effort", "backend", "tags")
ROLES = ("debater", "synthesizer")
# heurema's ValidSegment: one namespace or name.
SEGMENT = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True)
class Persona:
    id: str
    role: str
    model: str
    effort: str
    system: str
    file: str
    backend: str | None = None
    tags: tuple[str, ...] = ()

    @property
    def short_name(self) -> str:
        return self.id.rsplit("/", 1)[-1]


def valid_segment(text: str) -> bool:
    return SEGMENT.fullmatch(text) is not None


def parse_persona(path: Path, persona_id: str) -> Persona:
    """Read and check one persona file."""
    where = str(path)
    data, body = split_front_matter(path.read_text(encoding="utf-8"), where, "persona fields")
    unknown = sorted(set(data) - set(PERSONA_KEYS), key=str)
    if unknown:
        raise ConfigError(
            f"{where}: {unknown[0]}",
            f"unknown field(s) {unknown}",
            f"only {', '.join(PERSONA_KEYS)}",
        )
    version = data.get("version")
    if version != 1 or isinstance(version, bool):
        found = "no version" if version is None else f"version {version!r}"
        raise ConfigError(f"{where}: version", found, "version: 1")
    role = data.get("role", "debater")
    if role not in ROLES:
        raise ConfigError(f"{where}: role", f"got {role!r}", "debater or synthesizer")
    if not body:
        raise ConfigError(
            where, "the body is empty", "the persona's system prompt below the front matter"
        )
    return Persona(
        id=persona_id,
        role=role,
        model=_text(data, "model", where),
        effort=_text(data, "effort", where),
        system=body,
        file=where,
        backend=_text(data, "backend", where) if "backend" in data else None,
        tags=_tags(data.get("tags"), where),
    )


def _text(data: dict[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        found = "missing" if value is None else f"got {value!r}"
        raise ConfigError(f"{where}: {key}", found, "a non-empty string")
    return value.strip()


def _tags(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(t, str) and t.strip() for t in value):
        raise ConfigError(f"{where}: tags", f"got {value!r}", "a list of non-empty strings")
    return tuple(t.strip() for t in value)
