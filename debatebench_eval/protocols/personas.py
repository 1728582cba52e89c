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
from typing import Annotated, Any, ClassVar

from pydantic import BeforeValidator

from debatebench_eval.core.config_file import ConfigFile, Said, VersionOne, choice, parse_file, text
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.front_matter import split_front_matter
from debatebench_eval.core.reply_model import expected_error

ROLES = ("debater", "synthesizer")
# heurema's ValidSegment: one namespace or name.
SEGMENT = re.compile(r"[A-Za-z0-9_-]+")
Text = Annotated[str, text()]


def _tags(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) and t.strip() for t in value):
        raise expected_error("a list of non-empty strings")
    return tuple(t.strip() for t in value)


class PersonaFields(ConfigFile):
    """A persona's front matter, heurema's fields."""

    KEY_NOUN: ClassVar[str] = "field"
    version: VersionOne
    role: Annotated[str, choice(ROLES, "debater or synthesizer")] = "debater"
    model: Text
    effort: Text
    backend: Text | None = None
    tags: Annotated[
        tuple[str, ...], BeforeValidator(_tags), Said("a list of non-empty strings")
    ] = ()


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
    fields = parse_file(PersonaFields, data, where)
    if not body:
        raise ConfigError(
            where, "the body is empty", "the persona's system prompt below the front matter"
        )
    return Persona(id=persona_id, system=body, file=where, **fields.model_dump(exclude={"version"}))
