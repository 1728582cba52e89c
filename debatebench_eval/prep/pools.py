"""Prep evidence: which pools a run reads, and what each side gets.

Shared pools (`sources`) hold both sides' rows and are searched on topic and
side; a team's own `corpus` (a path relative to its team file) holds only its
side's rows and is searched on topic. Pools are named as debatebench names
them (`args-me`, `debatesum`: files under DEBATEBENCH_SOURCES_DIR or
~/.cache/debatebench/sources/), `example` for the small pool shipped with this
package, or given by path. Nothing is downloaded. Every pool is opened (and
indexed if new) when the task is built, so a bad pool stops the run before
any model call.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.resources import data_file
from debatebench_eval.record.motions import Motion
from debatebench_eval.record.store import Passage
from debatebench_eval.record.teams import Team

if TYPE_CHECKING:  # retrieval loads bm25s and scipy: only a run with prep needs them
    from debatebench_eval.prep.index import PoolIndex

# debatebench's vetted shared pools; any other name is a config error there too.
VETTED_SOURCES = ("args-me", "debatesum")
SOURCES_DIR_VAR = "DEBATEBENCH_SOURCES_DIR"
EXAMPLE_POOL = "example"
# How a row's topic meets the motion's (prep.index): sharing a word, or equal.
TOPIC_MATCHES = ("words", "exact")


@dataclass(frozen=True)
class Pools:
    """The opened pools of a run: shared ones, and each side's team corpus."""

    shared: tuple[tuple[str, PoolIndex], ...]
    corpora: dict[str, tuple[str, PoolIndex]]
    # How a row's topic must meet the motion's: "words" (share one) or "exact".
    topic_match: str = "words"

    def __str__(self) -> str:
        names = [name for name, _ in self.shared]
        names += [f"{side} corpus {name}" for side, (name, _) in self.corpora.items()]
        return "pools " + ", ".join(names)

    __repr__ = __str__


def sources_dir() -> Path:
    override = os.environ.get(SOURCES_DIR_VAR)
    return Path(override).expanduser() if override else Path.home() / ".cache/debatebench/sources"


def pool_path(name: str, where: str) -> Path:
    """A pool name (vetted, or `example`) or a path to a JSONL file."""
    if name == EXAMPLE_POOL:
        return data_file("tasks", "sources", "example.jsonl")
    if name in VETTED_SOURCES:
        path = sources_dir() / f"{name}.jsonl"
        if not path.is_file():
            raise ConfigError(
                where, f"pool {name!r} is not on disk at {path}",
                f"the file there (nothing is downloaded), or {SOURCES_DIR_VAR} pointing at it",
            )  # fmt: skip
        return path
    path = Path(name).expanduser()
    if path.suffix == ".jsonl":
        if not path.is_file():
            raise ConfigError(where, f"pool file {str(path)!r} not found", "a JSONL pool on disk")
        return path
    raise ConfigError(
        where, f"unknown pool {name!r}",
        f"one of {', '.join((*VETTED_SOURCES, EXAMPLE_POOL))}, or a path to a .jsonl file",
    )  # fmt: skip


def open_pools(
    sources: tuple[str, ...], teams: dict[str, Team], where: str, topic_match: str = "words"
) -> Pools:
    """Open (indexing if new) every pool of the run; `where` names the setting, for errors."""
    from debatebench_eval.prep.index import PoolIndex

    shared = tuple((name, PoolIndex.open(pool_path(name, where), shared=True)) for name in sources)
    corpora = {}
    for side, team in teams.items():
        if team.corpus is not None:
            path = Path(team.path).parent / team.corpus
            corpora[side] = (Path(team.corpus).stem, PoolIndex.open(path, shared=False))
    if not shared and not corpora:
        raise ConfigError(where, "prep has no evidence to read", "a shared pool, or a team corpus")
    return Pools(shared, corpora, topic_match)


def gather(pools: Pools, motion: Motion, side: str, first_number: int) -> list[Passage]:
    """The side's passages: each shared pool's top rows, then its corpus's; ids P<n> upward."""
    found = [
        (name, row)
        for name, index in pools.shared
        for row in index.search(motion.text, motion.topic, side, match=pools.topic_match)
    ]
    if side in pools.corpora:
        name, index = pools.corpora[side]
        rows = index.search(motion.text, motion.topic, None, match=pools.topic_match)
        found += [(name, row) for row in rows]
    return [
        Passage(id=f"P{first_number + i}", pool=name, row_id=row.id, side=side, text=row.text)
        for i, (name, row) in enumerate(found)
    ]
