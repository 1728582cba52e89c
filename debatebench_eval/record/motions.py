"""Motions: the propositions debated, from the bundled set or a user's file.

A motion file is YAML (a list, or a mapping with a `motions` list), JSONL (one
object a line) or CSV (a header row). Columns:

- `motion` (required): the proposition; the pro side argues for it.
- `id` (optional): stable id, `[a-z0-9._-]`; derived from the text if absent.
- `topic` (optional): short noun phrase for prep retrieval; defaults to the motion.
- `category` (optional): free text for grouping results.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from debatebench_eval.core.config_file import ConfigFile, checked, matching, parse_file, text
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.resources import data_file
from debatebench_eval.core.row_files import read_rows

MOTION_COLUMNS = ("id", "motion", "topic", "category")
Text = Annotated[str, text()]


class MotionRow(ConfigFile):
    """One motion of a file; a missing id is derived from the text, a missing
    topic is the motion."""

    motion: Text
    id: Annotated[
        str | None,
        matching(r"[a-z0-9][a-z0-9._-]*", "lower-case letters, digits, '.', '_' or '-'"),
    ] = None
    topic: Text | None = None
    category: Annotated[str | None, checked("a string", lambda v: isinstance(v, str), str)] = None


@dataclass(frozen=True)
class Motion:
    id: str
    text: str
    topic: str
    category: str | None = None


def motion_id_for(text: str) -> str:
    """A stable id for a motion given without one: a slug plus a short hash."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40].rstrip("-")
    digest = hashlib.sha256(text.encode()).hexdigest()[:6]
    return f"{slug}-{digest}" if slug else f"motion-{digest}"


def single_motion(text: str) -> Motion:
    """A motion given on the command line."""
    text = text.strip()
    if not text:
        raise ConfigError("-T motion", "the motion is empty", "the text of a proposition")
    return Motion(id=motion_id_for(text), text=text, topic=text)


def default_motions() -> tuple[Motion, ...]:
    """The bundled motion set."""
    return load_motions(data_file("tasks", "motions", "default.yaml"))


def load_motions(path: Path) -> tuple[Motion, ...]:
    """Load and validate a motion file (YAML, JSONL or CSV)."""
    if not path.is_file():
        raise ConfigError(str(path), "file not found", "a motion file (.yaml, .jsonl or .csv)")
    rows = read_rows(path, "motions", MOTION_COLUMNS)
    motions = tuple(_motion_from_row(row, f"{path}: {where}") for where, row in rows)
    if not motions:
        raise ConfigError(str(path), "no motions found", "at least one row with a 'motion'")
    _check_unique_ids(motions, path)
    return motions


def _motion_from_row(row: Any, where: str) -> Motion:
    if isinstance(row, str):
        row = {"motion": row}
    found = parse_file(MotionRow, row, where)
    motion_id = found.id or motion_id_for(found.motion)
    return Motion(
        id=motion_id, text=found.motion, topic=found.topic or found.motion, category=found.category
    )


def _check_unique_ids(motions: tuple[Motion, ...], path: Path) -> None:
    seen: set[str] = set()
    for motion in motions:
        if motion.id in seen:
            raise ConfigError(str(path), f"duplicate motion id {motion.id!r}", "unique ids")
        seen.add(motion.id)
