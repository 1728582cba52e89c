"""Protocol files: who deliberates, in which rounds, seeing what, until when,
and how it ends.

A protocol is YAML (`tasks/protocols/*.yaml`, or a user's file): its
participants (a persona each, or the panel chosen by table), its rounds
walked in order (only the last may repeat), each with who speaks, what they
are shown (`none`, `previous` or `all`), parallel or in turn, a word limit,
a token budget and an instruction; when to stop (a maximum, and optionally
heurema's convergence on signals); and the final step, a synthesis or a
judge's decision with an allowed set and an optional extra round the judge
may ask for. The file's shape is one typed model (`core.config_file`): every
key is checked when it is read, before any model call, every problem at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Self

from pydantic import BeforeValidator, PrivateAttr, model_validator
from pydantic_core import PydanticCustomError

from debatebench_eval.core.config_file import (
    ConfigFile,
    Said,
    checked,
    choice,
    flag,
    matching,
    parse_file,
    text,
    whole,
)
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.reply_model import expected_error
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
Name = Annotated[str, matching(_NAME.pattern, "a name of a-z, 0-9, - and _")]
Count = Annotated[int, whole()]
Text = Annotated[str, text()]
Flag = Annotated[bool, flag()]
Visibility = Annotated[str, choice(VISIBILITIES)]
Order = Annotated[str, choice(ORDERS)]


def _is_speakers(value: Any) -> bool:
    listed = isinstance(value, list | tuple) and bool(value)
    return value == "all" or (listed and all(isinstance(v, str) for v in value))


# None: every participant but the final one (`all`); whether the ids are the
# protocol's participants is the protocol's rule, which knows them.
Speakers = Annotated[
    tuple[str, ...] | None,
    checked(
        "`all` or a non-empty list of participant ids",
        _is_speakers,
        lambda v: None if v == "all" else tuple(v),
    ),
]


def _decisions(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise expected_error("a non-empty list of decisions")
    names = all(isinstance(v, str) and _NAME.fullmatch(v) for v in value)
    if not names or len(set(value)) < len(value):
        raise expected_error("distinct decision names of a-z, 0-9, - and _")
    return tuple(value)


def _repair(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise expected_error("a non-empty string")
    try:
        value.format(problems="")
    except (KeyError, IndexError, ValueError) as exc:
        raise expected_error(
            "text with {problems} and braces doubled", f"cannot be filled in ({exc})"
        ) from None
    return value.strip()


def _participants(value: Any) -> Any:
    if value == "table":
        return None
    if not isinstance(value, list) or not value:
        raise expected_error("`table`, or a list of {id, persona}")
    return value


def _rounds_given(value: Any) -> Any:
    if not isinstance(value, list) or not value:
        raise expected_error("a non-empty list of rounds")
    return value


class Spoken(ConfigFile):
    """How a round's turns are spoken: by whom, seeing what, in what order, how long."""

    speakers: Speakers = None
    visibility: Visibility = "all"
    order: Order = "parallel"
    # What the round asks for; "" adds nothing (heurema's panel round).
    instruction: Text = ""
    max_words: Count | None = None
    budget: Count | None = None


class Turns(Spoken):
    """One round of the protocol (or the judge's extra round, as it is spoken)."""

    name: Name
    signal: Flag = False
    repeat: Flag = False


class Converge(ConfigFile):
    until: Annotated[str, choice(UNTIL)] = "all"
    settle: Count = 2
    patience: Count = 3


class Stop(ConfigFile):
    max_rounds: Count | None = None
    converge: Converge | None = None


class ExtraRound(Spoken):
    """The round the judge may ask for, spoken as `turns`, at most `max` times;
    still unresolved after them, the decision is `unresolved`."""

    max: Count = 1
    unresolved: str | None = None

    @property
    def turns(self) -> Turns:
        spoken = self.model_dump(exclude={"max", "unresolved"})
        return Turns(name="extra_round", **spoken)


class Final(ConfigFile):
    kind: Annotated[str, choice(FINAL_KINDS)]
    instruction: Text
    by: Annotated[str | None, text("a participant id or a persona selector")] = None
    visibility: Visibility = "all"
    budget: Count = DEFAULT_FINAL_BUDGET
    max_words: Count | None = None
    allowed: Annotated[tuple[str, ...], BeforeValidator(_decisions)] = ()
    repair: Annotated[str, BeforeValidator(_repair), Said("a non-empty string")] = DEFAULT_REPAIR
    extra_round: ExtraRound | None = None

    @model_validator(mode="after")
    def _decision_keys(self) -> Self:
        """The allowed set and the extra round belong to a decision."""
        given = self.model_fields_set & {"allowed", "extra_round"}
        if self.kind != "decision" and given:
            raise expected_error(
                "them only with kind: decision", "allowed / extra_round on a synthesis"
            )
        if self.kind == "decision" and not self.allowed:
            raise expected_error("a non-empty list of decisions", "missing", "allowed")
        extra = self.extra_round
        if extra is not None and extra.unresolved not in self.allowed:
            raise expected_error(
                f"one of the allowed decisions: {', '.join(self.allowed)}",
                f"got {extra.unresolved!r}",
                "extra_round",
                "unresolved",
            )
        return self


class Participant(ConfigFile):
    id: Annotated[str, matching(r"[A-Za-z0-9_/-]+", "an id of letters, digits, -, _ and /")]
    persona: Annotated[str, text("a persona selector")]


class Protocol(ConfigFile):
    """A protocol file; `file` is where it was read from, `snapshot` its data."""

    version: Annotated[int, checked("version: 1", lambda v: v == 1 and v is not True, int)]
    name: Name
    description: Text = ""
    preamble: Text = ""
    # None: the panel comes from -T with / -T table / the default table.
    participants: Annotated[
        tuple[Participant, ...] | None,
        BeforeValidator(_participants),
        Said("`table`, or a list of {id, persona}"),
    ]
    rounds: Annotated[
        tuple[Turns, ...], BeforeValidator(_rounds_given), Said("a non-empty list of rounds")
    ]
    stop: Stop | None = None
    final: Final
    _file: str = PrivateAttr("")
    _snapshot: dict[str, Any] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        self._file = str((context or {}).get("file", ""))
        self._snapshot = dict((context or {}).get("snapshot", {}))

    @property
    def file(self) -> str:
        return self._file

    @property
    def snapshot(self) -> dict[str, Any]:
        return self._snapshot

    @property
    def max_rounds(self) -> int:
        given = self.stop.max_rounds if self.stop is not None else None
        return given or (10 if self.repeats else len(self.rounds))

    @property
    def converge(self) -> Converge | None:
        return self.stop.converge if self.stop is not None else None

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

    @model_validator(mode="after")
    def _rules(self) -> Self:
        """The rules across keys, the first broken one as the problem."""
        for problem in self._broken():
            raise problem
        return self

    def _broken(self) -> Iterator[PydanticCustomError]:
        yield from _participant_problems(self.participants)
        ids = None if self.participants is None else [p.id for p in self.participants]
        for i, turns in enumerate(self.rounds):
            yield from _speaker_problems(turns.speakers, ids, "rounds", i, "speakers")
        yield from _round_problems(self.rounds)
        final = self.final
        if final.kind == "decision" and (ids is None or final.by not in ids):
            judge = f"the judge's participant id ({', '.join(ids or [])})"
            yield expected_error(judge, f"got {final.by!r}", "final", "by")
        if final.extra_round is not None:
            spoken = final.extra_round.speakers
            yield from _speaker_problems(spoken, ids, "final", "extra_round", "speakers")
        fixed = max_rounds_problem(self.max_rounds, len(self.rounds), self.repeats)
        if fixed is not None:
            yield expected_error(fixed[1], fixed[0], "stop", "max_rounds")
        unsignalled = [r.name for r in self.rounds if not r.signal]
        if self.converge is not None and unsignalled:
            yield expected_error(
                "signal: true on every round when the panel may converge",
                f"round(s) {', '.join(unsignalled)} ask for no signal",
                "stop",
                "converge",
            )


def _participant_problems(
    participants: tuple[Participant, ...] | None,
) -> Iterator[PydanticCustomError]:
    seen: set[str] = set()
    for i, participant in enumerate(participants or ()):
        if participant.id in seen:
            found = f"{participant.id!r} is listed twice"
            yield expected_error("unique participant ids", found, "participants", i, "id")
        seen.add(participant.id)


def _speaker_problems(
    speakers: tuple[str, ...] | None, ids: list[str] | None, *at: int | str
) -> Iterator[PydanticCustomError]:
    if speakers is None:
        return
    if ids is None:
        yield expected_error("`all` (the panel comes from a table)", f"got {list(speakers)!r}", *at)
        return
    for speaker in speakers:
        if speaker not in ids:
            found = f"unknown participant {speaker!r}"
            yield expected_error(f"ids from participants: {', '.join(ids)}", found, *at)
    if len(set(speakers)) != len(speakers):
        yield expected_error("each speaker once", "a participant listed twice", *at)


def _round_problems(rounds: tuple[Turns, ...]) -> Iterator[PydanticCustomError]:
    names = [r.name for r in rounds]
    for i, turns in enumerate(rounds):
        if names.count(turns.name) > 1:
            found = f"{turns.name!r} is used twice"
            yield expected_error("unique round names", found, "rounds", i, "name")
        if turns.repeat and i != len(rounds) - 1:
            yield expected_error(
                "repeat only on the last round",
                "true on a round that is not the last",
                "rounds",
                i,
                "repeat",
            )


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
    snapshot = data if isinstance(data, dict) else {}
    return parse_file(Protocol, data, where, {"file": where, "snapshot": snapshot})


def max_rounds_problem(max_rounds: int, fixed: int, repeats: bool) -> tuple[str, str] | None:
    """Rounds that are not repeated all run: a limit cannot cut them, nor add to
    them. The problem as what was found and what was expected, if there is one."""
    if max_rounds < fixed:
        return f"{max_rounds} round(s)", f"at least the protocol's {fixed} round(s)"
    if max_rounds > fixed and not repeats:
        only = f"exactly {fixed}: the protocol's last round does not repeat"
        return f"{max_rounds} round(s)", only
    return None


def check_max_rounds(max_rounds: int, fixed: int, repeats: bool, where: str) -> None:
    problem = max_rounds_problem(max_rounds, fixed, repeats)
    if problem is not None:
        raise ConfigError(where, *problem)
