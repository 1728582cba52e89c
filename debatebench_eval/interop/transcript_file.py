"""Read debatebench 0.1.x transcript files into a DebateRecord, so they can be re-judged.

A transcript is debatebench's `debate` → `judge` contract: `run` (topic, seed,
phases, both sides with a team snapshot) and `turns` keyed by (phase_index,
side_index). schema_version 2 is current; version 1 is the same shape without
the per-turn `length` (debatebench's ADR-005 says a v1 file migrates forward
by adding nothing, and its own reader accepts both), so both are read. Any
other version is refused: a guessed shape would be judged as if it were right.

How the file maps onto the record:

- `run.topic` is the motion and the topic; the file's stem is the motion id.
- `run.phases` holds bare names; each turn's `length` is put back on its phase
  (`opening:short`), and a phase without one (v1, prep) stays bare.
- Initiative is read from the turns: the side whose turn has `order` 0. Prep
  has no speaking order (both sides 0), so its entry is the protocol's nominal
  `pro`, as `protocol.speaking_order` records it.
- Each side's role is its side: a transcript knows models, not Inspect roles.
- Finish reasons go back to Inspect's names (`length` → `max_tokens`), the
  inverse of what `export` writes.
- Turn ids are made as the solver makes them, with the file's stem as the
  sample id and epoch 1, so a transcript has the same ids however often it is
  judged.
- Prep evidence: debatebench stores it on the prep turn itself, as
  `evidence: [{id, source, text}]` (present only there, never empty). Each item
  becomes a Passage of that turn's side with `id` and `row_id` the item's id (so
  the fact-check cites debatebench's own ids) and `pool` its `source`.

Every problem is one ConfigError naming the file, the key as a path into the
document (`turns[3].side_index`) and what was expected. A debate missing a
turn is refused too: a partial debate is never judged.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, NoReturn

from inspect_ai.util import Store

from debatebench_eval.core._inspect import file
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.record.protocol import LENGTH_SENTENCES, PHASE_NAMES, SIDES
from debatebench_eval.record.store import (
    DebateRecord,
    Passage,
    RunSettings,
    SideSettings,
    Turn,
    TurnUsage,
    turn_id,
)

READABLE_SCHEMA_VERSIONS = (1, 2)
SEED_SOURCE = "from transcript"
# The record keeps Inspect's finish reasons; debatebench wrote OpenAI's.
INSPECT_FINISH_REASONS = {"length": "max_tokens"}
# A transcript is one debate, whatever epoch re-judges it.
_EPOCH = 1
_SHOWN_CHARS = 60


def read_transcript(path: str | Path, sample_id: str | None = None) -> DebateRecord:
    """The complete debate in one transcript file (ConfigError naming the file if not):
    a local path, or any URL Inspect reads (`s3://...`)."""
    where = str(path)
    return record_from_document(load_json(where), where, sample_id or PurePosixPath(where).stem)


def load_json(path: str | Path) -> dict[str, Any]:
    """The file's top-level JSON object, read through Inspect's file access (so a URL
    Inspect reads, `s3://...`, works as a local path does)."""
    try:
        with file(str(path), "r") as handle:
            document = json.loads(handle.read())
    except OSError as exc:
        where, found = str(path), f"cannot be read ({exc.strerror or exc})"
        raise ConfigError(where, found, "a readable file") from None
    except ValueError as exc:  # also UnicodeDecodeError
        raise ConfigError(str(path), f"is not JSON ({exc})", "a debatebench transcript") from None
    if not isinstance(document, dict):
        raise ConfigError(str(path), f"the top level is {_show(document)}", "a JSON object")
    return document


def record_from_document(document: dict[str, Any], file: str, sample_id: str) -> DebateRecord:
    """A DebateRecord from a parsed transcript; `file` names it in errors."""
    reader = _Reader(file)
    version = document.get("schema_version")
    if isinstance(version, bool) or version not in READABLE_SCHEMA_VERSIONS:
        reader.fail(
            "schema_version", f"got {_show(version)}", "1 or 2 (a debatebench 0.1.x transcript)"
        )
    run = reader.mapping(document, "run", "")
    items = reader.items(document, "turns", "")
    names = _phase_names(reader, run)
    sides = _sides(reader, run)
    parsed = [
        _turn(reader, item, f"turns[{i}]", names, sides, sample_id) for i, item in enumerate(items)
    ]
    turns = [turn for turn, _ in parsed]
    _check_coverage(reader, turns, names)
    _check_passage_ids(reader, parsed)
    return DebateRecord(
        store=Store(),
        run=_run_settings(reader, run, sample_id, names, sides, turns),
        turns=turns,
        passages=[passage for _, passages in parsed for passage in passages],
        complete=True,
    )


@dataclass(frozen=True)
class _Reader:
    """Typed access to one file's JSON; every failure names the file and the key."""

    file: str

    def fail(self, key: str, found: str, expected: str) -> NoReturn:
        raise ConfigError(f"{self.file}: {key}", found, expected)

    def get(
        self, holder: dict[str, Any], key: str, at: str, ok: Callable[[Any], bool], expected: str
    ) -> Any:
        where = f"{at}.{key}" if at else key
        if key not in holder:
            self.fail(where, "the key is missing", expected)
        if not ok(holder[key]):
            self.fail(where, f"got {_show(holder[key])}", expected)
        return holder[key]

    def text(self, holder: dict[str, Any], key: str, at: str, *, empty: bool = False) -> str:
        def ok(value: Any) -> bool:
            return isinstance(value, str) and (empty or bool(value.strip()))

        return str(self.get(holder, key, at, ok, "a string" if empty else "a non-empty string"))

    def integer(self, holder: dict[str, Any], key: str, at: str, *, minimum: int = 0) -> int:
        def ok(value: Any) -> bool:
            return _is_int(value) and value >= minimum

        return int(self.get(holder, key, at, ok, f"an integer of at least {minimum}"))

    def choice(
        self, holder: dict[str, Any], key: str, at: str, options: range, expected: str
    ) -> int:
        return int(self.get(holder, key, at, lambda v: _is_int(v) and v in options, expected))

    def flag(self, holder: dict[str, Any], key: str, at: str) -> bool:
        return bool(self.get(holder, key, at, lambda v: isinstance(v, bool), "true or false"))

    def mapping(self, holder: dict[str, Any], key: str, at: str) -> dict[str, Any]:
        value = self.get(holder, key, at, lambda v: isinstance(v, dict), "a JSON object")
        return dict(value)

    def items(self, holder: dict[str, Any], key: str, at: str) -> list[Any]:
        return list(self.get(holder, key, at, lambda v: isinstance(v, list), "a list"))


def _phase_names(reader: _Reader, run: dict[str, Any]) -> list[str]:
    names = reader.items(run, "phases", "run")
    if not names:
        reader.fail("run.phases", "the list is empty", "at least one phase")
    for index, name in enumerate(names):
        if name not in PHASE_NAMES:
            reader.fail(f"run.phases[{index}]", f"got {_show(name)}", f"one of {_or(PHASE_NAMES)}")
    return [str(name) for name in names]


def _sides(reader: _Reader, run: dict[str, Any]) -> dict[int, SideSettings]:
    """The two sides by side_index, each checked; one pro and one con."""
    items = reader.items(run, "sides", "run")
    if len(items) != len(SIDES):
        reader.fail("run.sides", f"got {len(items)} entries", "two sides, one pro and one con")
    sides: dict[int, SideSettings] = {}
    for position, item in enumerate(items):
        at = f"run.sides[{position}]"
        if not isinstance(item, dict):
            reader.fail(at, f"got {_show(item)}", "a JSON object")
        index = reader.choice(item, "index", at, range(2), "0 or 1")
        if index in sides:
            reader.fail(
                f"{at}.index", f"{index} is used twice", "0 for one side and 1 for the other"
            )
        sides[index] = _side(reader, item, at)
    if {s.side for s in sides.values()} != set(SIDES):
        reader.fail("run.sides", "both sides argue the same side", "one pro and one con")
    return sides


def _side(reader: _Reader, item: dict[str, Any], at: str) -> SideSettings:
    side = str(reader.get(item, "side", at, lambda v: v in SIDES, "pro or con"))
    team = reader.mapping(item, "team", at)
    for key in ("id", "name", "voice", "stance"):
        reader.text(team, key, f"{at}.team", empty=key in ("voice", "stance"))
    prep_budget = reader.get(
        item,
        "prep_budget",
        at,
        lambda v: v is None or (_is_int(v) and v >= 1),
        "null or an integer of at least 1",
    )
    return SideSettings(
        side=side,
        role=side,
        model=reader.text(item, "model", at),
        base_url=reader.text(item, "base_url", at, empty=True) or None,
        budget=reader.integer(item, "budget", at, minimum=1),
        prep_budget=prep_budget,
        team=team,
        team_file=reader.text(item, "team_file", at, empty=True),
    )


def _turn(
    reader: _Reader,
    item: Any,
    at: str,
    names: list[str],
    sides: dict[int, SideSettings],
    sample_id: str,
) -> tuple[Turn, list[Passage]]:
    if not isinstance(item, dict):
        reader.fail(at, f"got {_show(item)}", "a JSON object")
    phase_index = reader.choice(
        item,
        "phase_index",
        at,
        range(len(names)),
        f"an index into run.phases, 0 to {len(names) - 1}",
    )
    phase = reader.text(item, "phase", at)
    if phase != names[phase_index]:
        reader.fail(
            f"{at}.phase", f"got {phase!r}", f"{names[phase_index]!r}, run.phases[{phase_index}]"
        )
    side = sides[reader.choice(item, "side_index", at, range(2), "0 or 1, the index of a run side")]
    usage = reader.mapping(item, "usage", at)
    prompt = reader.integer(usage, "prompt_tokens", f"{at}.usage")
    completion = reader.integer(usage, "completion_tokens", f"{at}.usage")
    finish = reader.text(item, "finish_reason", at)
    turn = Turn(
        id=turn_id(sample_id, _EPOCH, phase_index, side.side),
        phase_index=phase_index,
        phase=phase,
        length=_length(reader, item, at, phase),
        side=side.side,
        order=reader.choice(item, "order", at, range(2), "0 or 1"),
        role=side.role,
        team_id=str(side.team["id"]),
        text=reader.text(item, "text", at),
        model=side.model,
        usage=TurnUsage(
            input_tokens=prompt, output_tokens=completion, total_tokens=prompt + completion
        ),
        budget=reader.integer(item, "budget", at, minimum=1),
        hit_budget=reader.flag(item, "hit_budget", at),
        finish_reason=INSPECT_FINISH_REASONS.get(finish, finish),
        latency_ms=reader.integer(item, "latency_ms", at),
        started_at=reader.text(item, "started_at", at),
    )
    return turn, _passages(reader, item, at, turn)


def _length(reader: _Reader, item: dict[str, Any], at: str, phase: str) -> str | None:
    if "length" not in item:
        return None
    if phase == "prep":
        reader.fail(f"{at}.length", "set on a prep turn", "no length on prep (it takes none)")
    lengths = tuple(LENGTH_SENTENCES)
    return str(reader.get(item, "length", at, lambda v: v in lengths, f"one of {_or(lengths)}"))


def _check_passage_ids(reader: _Reader, parsed: list[tuple[Turn, list[Passage]]]) -> None:
    """Citations are verified by passage id, so an id must name one passage."""
    seen: dict[str, str] = {}
    for index, (_, passages) in enumerate(parsed):
        for position, passage in enumerate(passages):
            here = f"turns[{index}].evidence[{position}].id"
            if passage.id in seen:
                reader.fail(
                    here, f"{passage.id!r} is also {seen[passage.id]}", "unique passage ids"
                )
            seen[passage.id] = here


def _passages(reader: _Reader, item: dict[str, Any], at: str, turn: Turn) -> list[Passage]:
    """The prep turn's evidence as the side's passages (debatebench's only store of them)."""
    if "evidence" not in item:
        return []
    if turn.phase != "prep":
        found = f"set on a turn of phase {turn.phase!r}"
        reader.fail(f"{at}.evidence", found, "evidence on prep turns only")
    passages = []
    for index, entry in enumerate(reader.items(item, "evidence", at)):
        here = f"{at}.evidence[{index}]"
        if not isinstance(entry, dict):
            reader.fail(here, f"got {_show(entry)}", "a JSON object with id, source and text")
        row_id = reader.text(entry, "id", here)
        passages.append(
            Passage(
                id=row_id,
                pool=reader.text(entry, "source", here),
                row_id=row_id,
                side=turn.side,
                text=reader.text(entry, "text", here),
            )
        )
    return passages


def _check_coverage(reader: _Reader, turns: list[Turn], names: list[str]) -> None:
    """Exactly one turn per phase and side: the invariant a judge relies on."""
    seen: dict[tuple[int, str], int] = {}
    for position, turn in enumerate(turns):
        key = (turn.phase_index, turn.side)
        if key in seen:
            reader.fail(
                f"turns[{position}]",
                f"a second turn for phase_index {turn.phase_index}, side {turn.side} "
                f"(the first is turns[{seen[key]}])",
                "one turn per phase and side",
            )
        seen[key] = position
    for phase_index, name in enumerate(names):
        for side in SIDES:
            if (phase_index, side) not in seen:
                reader.fail(
                    "turns",
                    f"no turn for phase_index {phase_index} ({name}), side {side}",
                    "a turn from both sides in every phase of run.phases",
                )


def _run_settings(
    reader: _Reader,
    run: dict[str, Any],
    sample_id: str,
    names: list[str],
    sides: dict[int, SideSettings],
    turns: list[Turn],
) -> RunSettings:
    topic = reader.text(run, "topic", "run")
    by_key = {(t.phase_index, t.side): t for t in turns}
    phases, initiative = [], []
    for index, name in enumerate(names):
        pro, con = by_key[(index, "pro")], by_key[(index, "con")]
        if pro.length != con.length:
            reader.fail(
                f"turns (phase_index {index})",
                f"pro's length is {pro.length!r} and con's {con.length!r}",
                "one length for both sides of a phase",
            )
        phases.append(f"{name}:{pro.length}" if pro.length else name)
        initiative.append(_first_speaker(reader, index, name, pro, con))
    return RunSettings(
        motion_id=sample_id,
        motion=topic,
        topic=topic,
        phases=phases,
        initiative=initiative,
        seed=reader.integer(run, "seed", "run"),
        seed_source=SEED_SOURCE,
        paired=False,
        swapped=False,
        sides=[sides[index] for index in sorted(sides)],
    )


def _first_speaker(reader: _Reader, index: int, name: str, pro: Turn, con: Turn) -> str:
    if name == "prep":
        return "pro"  # simultaneous; the protocol's nominal entry
    if {pro.order, con.order} != {0, 1}:
        reader.fail(
            f"turns (phase_index {index})",
            f"both sides have order {pro.order}",
            "order 0 for the side that spoke first and 1 for the other",
        )
    return pro.side if pro.order == 0 else con.side


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a JSON object"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null"
    shown = repr(value)
    return shown if len(shown) <= _SHOWN_CHARS else shown[: _SHOWN_CHARS - 3] + "..."


def _or(options: tuple[str, ...]) -> str:
    return ", ".join(options[:-1]) + " or " + options[-1]
