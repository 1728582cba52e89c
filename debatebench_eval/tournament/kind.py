"""What a tournament asks of a two-sided task kind, in one small protocol.

A tournament schedules pairs of models over items (the motions of a debate, the
questions of a known-answer debate), runs one paired task per pair, reads each
finished sample back as a result, rates the results and writes a leaderboard.
Everything in that chain that depends on which task the debates run goes
through a `TaskKind`: how its command line is read and what names the
tournament (its identity), what its items are and how they are recorded, the
pair's task, one sample's outcome, the leaderboard, and the columns and the
meaning of its rating. `tournament.kinds` registers the kinds (`debate` and
`oversight`); no other module asks which task a tournament runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from inspect_ai import Task
from inspect_ai.log import EvalSample

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.judging.run_summary import shorten
from debatebench_eval.matches.results import DebateResult
from debatebench_eval.tournament.schedule import Item, Schedule, Settings

# Enough of an error message to act on; the log has all of it.
REASON_CHARS = 300


@dataclass(frozen=True)
class Asked:
    """What the command line asked of the kind: its -T options and the item flags
    (`--motions`, `--questions`, `--format`) by flag, with `--limit`."""

    task_items: Sequence[str]
    flags: Mapping[str, str | None]
    limit: int | None

    def refuse(self, kind: str, taken: Sequence[str], expected: str) -> None:
        """A flag given that this kind does not take is an error naming it."""
        for flag, value in self.flags.items():
            if value is not None and flag not in taken:
                raise ConfigError(flag, f"given with --task {kind}", expected)


@dataclass(frozen=True)
class Column:
    """A number each model's row shows in the viewer: its key in the row, its header,
    and the places it is rounded to (the metadata keeps it whole)."""

    key: str
    header: str
    places: int


@dataclass(frozen=True)
class RateOptions:
    """How `tournament rate` was asked to rate: the anchor and its rating, the
    bootstrap, the prices, and any human labels files."""

    anchor: str = "mean"
    base: float = 1000.0
    resamples: int = 1000
    seed: int = 0
    prices: dict[str, Any] = field(default_factory=dict)
    human: Sequence[str] = ()
    folders: Sequence[str] = ()


@dataclass(frozen=True)
class Rated:
    """What a leaderboard rates: each scheduled debate's result, the models and judges
    of the schedule, the debates found twice, the package versions of the logs, and
    the header that says where it all came from (a tournament's folders, or debates
    judged elsewhere)."""

    header: dict[str, Any]
    models: tuple[str, ...]
    judges: tuple[str, ...]
    results: list[DebateResult]
    duplicates: list[dict[str, object]] = field(default_factory=list)
    versions: frozenset[str] = frozenset()
    # The tournament's folders (its logs name the debates human labels are for); none
    # for debates judged elsewhere.
    folders: tuple[str, ...] = ()

    @property
    def from_tournament(self) -> bool:
        return bool(self.folders)


@dataclass(frozen=True)
class Board:
    """A leaderboard: every figure (leaderboard.json), the Markdown a person reads, and
    how to draw its plots into a folder (the paths drawn)."""

    figures: dict[str, Any]
    text: str
    plots: Callable[[str], list[str]]


class Items(Protocol):
    """The kind's items (motions, questions): how each is recorded in the tournament's
    folder and named in the leaderboard's header."""

    key: str  # the manifest's list of them: "motions", "questions"
    noun: str  # one of them, in messages and headers: "motion", "question"
    flag: str  # the flag that names their file: "--motions", "--questions"

    def from_record(self, data: dict[str, Any]) -> Item: ...

    def header(self, items: tuple[Item, ...]) -> dict[str, Any]: ...


class TaskKind(Protocol):
    """A two-sided task a tournament can run between pairs of models."""

    name: str  # --task NAME, and the folder's record of it
    task: str  # the task each pair runs: debatebench/debate, debatebench/oversight
    scorer: str  # the scorer whose verdict a debate is (to re-judge it)
    rating: str  # what a rating means, in one sentence
    columns: tuple[Column, ...]
    items: Items

    def requested(self, asked: Asked, common: Settings) -> tuple[Settings, tuple[Item, ...]]:
        """The settings (`common` holds the seed, judge guard and limits every kind
        has) and the items the command line asks for, every input checked."""
        ...

    def pair_base(self, schedule: Schedule, items: tuple[Item, ...]) -> Task:
        """A pair's paired task over `items` (the ones it debates), before its name and
        models."""
        ...

    def outcome(self, sample: EvalSample, pair: tuple[str, str], log: str) -> DebateResult:
        """One finished sample of a pair's log as a result."""
        ...

    def board(self, rated: Rated, options: RateOptions) -> Board:
        """The leaderboard of debates of this kind."""
        ...


def reason_line(message: str) -> str:
    """A failure's message as a result's reason: its first line, shortened from its
    middle (the clause that says what to change, `lower -T judge_budget`, comes last
    and is kept)."""
    line = message.strip().splitlines()[0] if message.strip() else "no message"
    return shorten(line, REASON_CHARS)
