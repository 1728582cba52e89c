"""Protocol files: who deliberates, in which rounds, seeing what, until when,
and how it ends.

A protocol is YAML (`tasks/protocols/*.yaml`, or a user's file): its
participants (a persona each, or the panel chosen by table), its rounds
walked in order (only the last may repeat), each with who speaks, what they
are shown (`none`, `previous` or `all`), parallel or in turn, a word limit,
a token budget and an instruction; when to stop (a maximum, and optionally
heurema's convergence on signals); and the final step, a synthesis or a
judge's decision with an allowed set and an optional extra round the judge
may ask for. Every key is checked here, before any model call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.resources import data_dir
from debatebench_eval.core.yamlio import load_yaml

VISIBILITIES = ("none", "previous", "all")
ORDERS = ("parallel", "sequential")
FINAL_KINDS = ("synthesis", "decision")
UNTIL = ("all", "quorum")
DEFAULT_TURN_BUDGET = 1000
DEFAULT_FINAL_BUDGET = 2000
DEFAULT_REPAIR = (
    "Your reply could not be used:\n{problems}\n"
    "Reply again with only the JSON object, fixing every problem listed."
)
_NAME = re.compile(r"[a-z0-9_-]+")
_ID = re.compile(r"[A-Za-z0-9_/-]+")
PROTOCOL_KEYS = (
    "version",
    "name",
    "description",
    "preamble",
    "participants",
    "rounds",
    "stop",
    "final",
)
ROUND_KEYS = (
    "name", "speakers", "visibility", "order", "max_words", "budget", "instruction", "signal",
    "repeat",
)  # fmt: skip
STOP_KEYS = ("max_rounds", "converge")
CONVERGE_KEYS = ("until", "settle", "patience")
FINAL_KEYS = (
    "kind", "by", "visibility", "budget", "max_words", "instruction", "allowed", "repair",
    "extra_round",
)  # fmt: skip
EXTRA_KEYS = (
    "max", "speakers", "visibility", "order", "max_words", "budget", "instruction", "unresolved",
)  # fmt: skip


@dataclass(frozen=True)
class Turns:
    """How one round (or the judge's extra round) is spoken."""

    name: str
    speakers: tuple[str, ...] | None  # None: every participant but the final one
    visibility: str
    order: str
    # What the round asks for; "" adds nothing (heurema's panel round).
    instruction: str = ""
    max_words: int | None = None
    budget: int | None = None
    signal: bool = False
    repeat: bool = False


@dataclass(frozen=True)
class Converge:
    until: str = "all"
    settle: int = 2
    patience: int = 3


@dataclass(frozen=True)
class ExtraRound:
    turns: Turns
    max: int
    unresolved: str


@dataclass(frozen=True)
class Final:
    kind: str
    instruction: str
    by: str | None = None
    visibility: str = "all"
    budget: int = DEFAULT_FINAL_BUDGET
    max_words: int | None = None
    allowed: tuple[str, ...] = ()
    repair: str = DEFAULT_REPAIR
    extra_round: ExtraRound | None = None


@dataclass(frozen=True)
class Participant:
    id: str
    persona: str


@dataclass(frozen=True)
class Protocol:
    name: str
    file: str
    rounds: tuple[Turns, ...]
    max_rounds: int
    final: Final
    # None: the panel comes from -T with / -T table / the default table.
    participants: tuple[Participant, ...] | None = None
    converge: Converge | None = None
    description: str = ""
    preamble: str = ""
    snapshot: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def repeats(self) -> bool:
        return self.rounds[-1].repeat

    def round_at(self, number: int, max_rounds: int) -> Turns | None:
        """The round spoken as round `number` (1-based), or None when none is left."""
        if number > max_rounds:
            return None
        if number <= len(self.rounds):
            return self.rounds[number - 1]
        return self.rounds[-1] if self.repeats else None


def protocol_path(name: str) -> Path:
    """A shipped protocol by name, or a user's file by path."""
    if name.endswith((".yaml", ".yml")) or "/" in name or Path(name).is_file():
        return Path(name).expanduser()
    folder = data_dir("tasks") / "protocols"
    path = folder / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in folder.glob("*.yaml"))
        raise ConfigError(
            "protocol", f"no protocol {name!r}", f"one of {', '.join(known)} or a .yaml file"
        )
    return path


def load_protocol(name: str) -> Protocol:
    path = protocol_path(name)
    data = load_yaml(path, "a protocol (see tasks/protocols/panel.yaml)")
    return parse_protocol(data, str(path))


def parse_protocol(data: Any, where: str) -> Protocol:
    top = _mapping(data, where, PROTOCOL_KEYS)
    if top.get("version") != 1 or isinstance(top.get("version"), bool):
        raise ConfigError(f"{where}: version", f"got {top.get('version')!r}", "version: 1")
    name = top.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ConfigError(f"{where}: name", f"got {name!r}", "a name of a-z, 0-9, - and _")
    participants = _participants(top.get("participants"), f"{where}: participants")
    ids = None if participants is None else [p.id for p in participants]
    rounds = _rounds(top.get("rounds"), where, ids)
    final = _final(top.get("final"), f"{where}: final", ids)
    max_rounds, converge = _stop(top.get("stop"), f"{where}: stop", rounds)
    if converge is not None:
        unsignalled = [r.name for r in rounds if not r.signal]
        if unsignalled:
            raise ConfigError(
                f"{where}: stop.converge",
                f"round(s) {', '.join(unsignalled)} ask for no signal",
                "signal: true on every round when the panel may converge",
            )
    return Protocol(
        name=name,
        file=where,
        rounds=rounds,
        max_rounds=max_rounds,
        final=final,
        participants=participants,
        converge=converge,
        description=_text(top, "description", where, required=False),
        preamble=_text(top, "preamble", where, required=False),
        snapshot=top,
    )


def _participants(value: Any, where: str) -> tuple[Participant, ...] | None:
    if value == "table":
        return None
    if not isinstance(value, list) or not value:
        raise ConfigError(where, f"got {value!r}", "`table`, or a list of {id, persona}")
    found: list[Participant] = []
    for index, item in enumerate(value):
        here = f"{where}[{index}]"
        entry = _mapping(item, here, ("id", "persona"))
        pid, persona = entry.get("id"), entry.get("persona")
        if not isinstance(pid, str) or not _ID.fullmatch(pid):
            raise ConfigError(f"{here}.id", f"got {pid!r}", "an id of letters, digits, -, _ and /")
        if not isinstance(persona, str) or not persona.strip():
            raise ConfigError(f"{here}.persona", f"got {persona!r}", "a persona selector")
        if any(p.id == pid for p in found):
            raise ConfigError(f"{here}.id", f"{pid!r} is listed twice", "unique participant ids")
        found.append(Participant(pid, persona.strip()))
    return tuple(found)


def _rounds(value: Any, where: str, ids: list[str] | None) -> tuple[Turns, ...]:
    if not isinstance(value, list) or not value:
        raise ConfigError(f"{where}: rounds", f"got {value!r}", "a non-empty list of rounds")
    rounds = tuple(
        _turns(item, f"{where}: rounds[{i}]", ids, ROUND_KEYS) for i, item in enumerate(value)
    )
    names = [r.name for r in rounds]
    for i, r in enumerate(rounds):
        if names.count(r.name) > 1:
            raise ConfigError(
                f"{where}: rounds[{i}].name", f"{r.name!r} is used twice", "unique round names"
            )
        if r.repeat and i != len(rounds) - 1:
            raise ConfigError(
                f"{where}: rounds[{i}].repeat",
                "true on a round that is not the last",
                "repeat only on the last round",
            )
    return rounds


def _turns(value: Any, where: str, ids: list[str] | None, keys: tuple[str, ...]) -> Turns:
    data = _mapping(value, where, keys)
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ConfigError(f"{where}.name", f"got {name!r}", "a name of a-z, 0-9, - and _")
    return Turns(
        name=name,
        speakers=_speakers(data.get("speakers", "all"), f"{where}.speakers", ids),
        visibility=_choice(data, "visibility", VISIBILITIES, where, "all"),
        order=_choice(data, "order", ORDERS, where, "parallel"),
        instruction=_text(data, "instruction", where, required=False),
        max_words=_int(data, "max_words", where),
        budget=_int(data, "budget", where),
        signal=_flag(data, "signal", where),
        repeat=_flag(data, "repeat", where),
    )


def _speakers(value: Any, where: str, ids: list[str] | None) -> tuple[str, ...] | None:
    if value == "all":
        return None
    if ids is None:
        raise ConfigError(where, f"got {value!r}", "`all` (the panel comes from a table)")
    if not isinstance(value, list) or not value:
        raise ConfigError(where, f"got {value!r}", "`all` or a non-empty list of participant ids")
    for speaker in value:
        if speaker not in ids:
            raise ConfigError(
                where,
                f"unknown participant {speaker!r}",
                f"ids from participants: {', '.join(ids)}",
            )
    if len(set(value)) != len(value):
        raise ConfigError(where, "a participant listed twice", "each speaker once")
    return tuple(value)


def _stop(value: Any, where: str, rounds: tuple[Turns, ...]) -> tuple[int, Converge | None]:
    data = _mapping(value if value is not None else {}, where, STOP_KEYS)
    repeats = rounds[-1].repeat
    max_rounds = _int(data, "max_rounds", where) or (10 if repeats else len(rounds))
    check_max_rounds(max_rounds, len(rounds), repeats, f"{where}.max_rounds")
    converge = data.get("converge")
    if converge is None:
        return max_rounds, None
    conv = _mapping(converge, f"{where}.converge", CONVERGE_KEYS)
    here = f"{where}.converge"
    return max_rounds, Converge(
        until=_choice(conv, "until", UNTIL, here, "all"),
        settle=_int(conv, "settle", here) or 2,
        patience=_int(conv, "patience", here) or 3,
    )


def check_max_rounds(max_rounds: int, fixed: int, repeats: bool, where: str) -> None:
    """Rounds that are not repeated all run: a limit cannot cut them, nor add to them."""
    if max_rounds < fixed:
        raise ConfigError(
            where, f"{max_rounds} round(s)", f"at least the protocol's {fixed} round(s)"
        )
    if max_rounds > fixed and not repeats:
        raise ConfigError(
            where,
            f"{max_rounds} round(s)",
            f"exactly {fixed}: the protocol's last round does not repeat",
        )


def _final(value: Any, where: str, ids: list[str] | None) -> Final:
    data = _mapping(value, where, FINAL_KEYS)
    kind = _choice(data, "kind", FINAL_KINDS, where, None)
    by = data.get("by")
    if by is not None and (not isinstance(by, str) or not by.strip()):
        raise ConfigError(f"{where}.by", f"got {by!r}", "a participant id or a persona selector")
    if kind == "decision":
        if ids is None or by not in ids:
            raise ConfigError(
                f"{where}.by", f"got {by!r}", f"the judge's participant id ({', '.join(ids or [])})"
            )
        allowed = _allowed(data.get("allowed"), f"{where}.allowed")
    elif "allowed" in data or "extra_round" in data:
        raise ConfigError(
            where, "allowed / extra_round on a synthesis", "them only with kind: decision"
        )
    else:
        allowed = ()
    repair = _text(data, "repair", where, required=False) or DEFAULT_REPAIR
    try:
        repair.format(problems="")
    except (KeyError, IndexError, ValueError) as exc:
        raise ConfigError(
            f"{where}.repair",
            f"cannot be filled in ({exc})",
            "text with {problems} and braces doubled",
        ) from None
    extra = data.get("extra_round")
    return Final(
        kind=kind,
        instruction=_text(data, "instruction", where),
        by=by,
        visibility=_choice(data, "visibility", VISIBILITIES, where, "all"),
        budget=_int(data, "budget", where) or DEFAULT_FINAL_BUDGET,
        max_words=_int(data, "max_words", where),
        allowed=allowed,
        repair=repair,
        extra_round=None if extra is None else _extra(extra, f"{where}.extra_round", ids, allowed),
    )


def _allowed(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise ConfigError(where, f"got {value!r}", "a non-empty list of decisions")
    if not all(isinstance(v, str) and _NAME.fullmatch(v) for v in value) or len(set(value)) < len(
        value
    ):
        raise ConfigError(where, f"got {value!r}", "distinct decision names of a-z, 0-9, - and _")
    return tuple(value)


def _extra(value: Any, where: str, ids: list[str] | None, allowed: tuple[str, ...]) -> ExtraRound:
    data = _mapping(value, where, EXTRA_KEYS)
    unresolved = data.get("unresolved")
    if unresolved not in allowed:
        raise ConfigError(
            f"{where}.unresolved",
            f"got {unresolved!r}",
            f"one of the allowed decisions: {', '.join(allowed)}",
        )
    spoken = {k: v for k, v in data.items() if k not in ("max", "unresolved")}
    turns = _turns({"name": "extra_round", **spoken}, where, ids, (*EXTRA_KEYS, "name"))
    return ExtraRound(turns=turns, max=_int(data, "max", where) or 1, unresolved=unresolved)


def _mapping(value: Any, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(
            where, f"got {type(value).__name__}", f"a mapping with keys {', '.join(keys)}"
        )
    unknown = sorted(set(value) - set(keys), key=str)
    if unknown:
        raise ConfigError(
            _key(where, unknown[0]), f"unknown key(s) {unknown}", f"only {', '.join(keys)}"
        )
    return value


def _text(data: dict[str, Any], key: str, where: str, *, required: bool = True) -> str:
    value = data.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(_key(where, key), f"got {value!r}", "a non-empty string")
    return value.strip()


def _int(data: dict[str, Any], key: str, where: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(_key(where, key), f"got {value!r}", "an integer of at least 1")
    return value


def _flag(data: dict[str, Any], key: str, where: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError(_key(where, key), f"got {value!r}", "true or false")
    return value


def _choice(
    data: dict[str, Any], key: str, choices: tuple[str, ...], where: str, default: str | None
) -> str:
    value = data.get(key, default)
    if value not in choices:
        raise ConfigError(_key(where, key), f"got {value!r}", f"one of {', '.join(choices)}")
    return str(value)


def _key(where: str, key: str) -> str:
    """`file: key` at the top of a file, `file: a.b` below it."""
    return f"{where}.{key}" if ": " in where else f"{where}: {key}"
