"""Config files on the typed layer: one pydantic model per file's shape.

A file (a protocol, a table, a persona's front matter, a topic) is read with
the strict duplicate-key YAML loader and validated by its model: unknown keys
are refused, each field is checked by a validator that says what it expected
in the file's own words, and rules across fields are the model's validators.
Pydantic's errors are put in words by `reply_model.problems`, the machinery
that writes a reply's repair re-ask; here they become one ConfigError naming
the file, the key path, the value found and what was expected, every problem
of the file at once (one line each).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.reply_model import (
    Problem,
    expected_error,
    field_at,
    field_path,
    keys_at,
    model_at,
    problems,
)

F = TypeVar("F", bound="ConfigFile")
Loc = tuple[int | str, ...]


class ConfigFile(BaseModel):
    """A file's shape, or a mapping inside it: no unknown key, immutable."""

    # Built when a file is first read, not at import: importing the registry (as
    # every Inspect command does) reads no config file.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    # What the file calls its keys, in the message for an unknown one.
    KEY_NOUN: ClassVar[str] = "key"
    # What is expected where the file has no mapping; None: its keys.
    MAPPING: ClassVar[str | None] = None


@dataclass(frozen=True)
class Check(PlainValidator):
    """A field's validator that keeps its expectation in words, so that the
    message for a missing key says what belongs there."""

    words: str = ""


@dataclass(frozen=True)
class Said:
    """What belongs in a field whose validator is not a `Check`, in words."""

    words: str


def checked(expected: str, accept: Callable[[Any], bool], convert: Callable[[Any], Any]) -> Any:
    """A field validator: `convert(value)` if `accept(value)`, else one problem
    saying `expected`."""

    def validate(value: Any) -> Any:
        if not accept(value):
            raise expected_error(expected)
        return convert(value)

    return Check(validate, words=expected)


def _same(value: Any) -> Any:
    return value


def _nonempty(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def text(expected: str = "a non-empty string") -> Any:
    """A non-empty string, stripped."""
    return checked(expected, _nonempty, str.strip)


def whole(low: int = 1, expected: str = "") -> Any:
    """An integer of at least `low` (true and 1.0 are not integers here)."""
    return checked(
        expected or f"an integer of at least {low}",
        lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= low,
        _same,
    )


def flag() -> Any:
    return checked("true or false", lambda v: isinstance(v, bool), _same)


def choice(values: Iterable[str], expected: str | None = None) -> Any:
    """One of `values` (said as `expected` if given)."""
    allowed = tuple(values)
    words = expected or f"one of {', '.join(allowed)}"
    return checked(words, lambda v: isinstance(v, str) and v in allowed, _same)


def matching(pattern: str, expected: str) -> Any:
    """A string that matches `pattern` whole."""
    compiled = re.compile(pattern)
    return checked(expected, lambda v: isinstance(v, str) and bool(compiled.fullmatch(v)), _same)


def _version_one(value: Any) -> int:
    if value != 1 or isinstance(value, bool):
        raise expected_error("version: 1", "no version" if value is None else f"version {value!r}")
    return 1


# A heurema file's `version: 1`, said as heurema's files are ("no version").
VersionOne = Annotated[
    int, Field(default=None, validate_default=True), PlainValidator(_version_one)
]


def parse_file(model: type[F], data: Any, where: str, context: dict[str, Any] | None = None) -> F:
    """`data` read from `where` as `model`, or one ConfigError listing every problem."""
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise file_error(model, exc, where) from None


def file_error(model: type[BaseModel], exc: ValidationError, where: str) -> ConfigError:
    """The validation's problems as one ConfigError: the first in its fields, each
    further one as a line of its own."""
    first, *rest = _lines(model, problems(exc), where)
    also = [f"{at}: {found}; expected {words}." for at, found, words in rest]
    return ConfigError(*first, also=also)


def _lines(model: type[BaseModel], found: list[Problem], where: str) -> list[tuple[str, str, str]]:
    """One line per problem; the unknown keys of one mapping on one line, and so
    are its missing keys when more than one is missing."""
    grouped: dict[tuple[str, Loc], list[str]] = {}
    for problem in found:
        if problem.kind in ("extra_forbidden", "missing"):
            grouped.setdefault((problem.kind, problem.loc[:-1]), []).append(str(problem.loc[-1]))
    lines: list[tuple[str, str, str]] = []
    for problem in found:
        group = (problem.kind, problem.loc[:-1])
        keys = grouped.pop(group, None)  # the group's keys, at its first problem only
        if problem.kind == "extra_forbidden":
            if keys is not None:  # the mapping's first unknown key: the line for all
                lines.append(_unknown(model, problem.loc[:-1], keys, where))
        elif problem.kind == "missing" and keys is not None and len(keys) > 1:
            lines.append(_missing(model, problem.loc[:-1], keys, where))
        elif problem.kind != "missing" or keys is not None:
            lines.append((_at(where, problem.loc), *_said(model, problem)))
    return lines


def _unknown(
    model: type[BaseModel], parent: Loc, keys: list[str], where: str
) -> tuple[str, str, str]:
    owner = model_at(model, parent)
    noun = owner.KEY_NOUN if owner is not None and issubclass(owner, ConfigFile) else "key"
    allowed = ", ".join(keys_at(model, parent) or ())
    keys = sorted(keys)
    return (_at(where, (*parent, keys[0])), f"unknown {noun}(s) {keys}", f"only {allowed}")


def _missing(
    model: type[BaseModel], parent: Loc, keys: list[str], where: str
) -> tuple[str, str, str]:
    owner = model_at(model, parent)
    required = [k for k, f in (owner.model_fields if owner else {}).items() if f.is_required()]
    at = _at(where, (*parent, keys[0]))
    return at, f"missing key(s) {keys}", f"all of {', '.join(required or keys)}"


def _said(model: type[BaseModel], problem: Problem) -> tuple[str, str]:
    """What was found and what was expected, for one problem."""
    if problem.kind == "missing":
        return "missing", _expects(model, problem.loc)
    if problem.kind in ("model_type", "model_attributes_type", "dict_type"):
        kind = type(problem.value).__name__
        found = f"got {kind}" if problem.loc else f"top level is {kind}"
        return found, _mapping_of(model, problem.loc)
    found = problem.found or f"got {problem.value!r}"
    return found, problem.expected.removeprefix("expected ")


def _at(where: str, loc: Loc) -> str:
    """`file: a.b[0].c`, or the file alone for the top level."""
    path = field_path(loc)
    if not path:
        return where
    # `where` may be a place inside a file already (`m.yaml: motions[0]`).
    joined = "." if ": " in where and not path.startswith("[") else ""
    return f"{where}{joined}{path}" if ": " in where else f"{where}: {path}"


def _mapping_of(model: type[BaseModel], loc: Loc) -> str:
    owner = model_at(model, loc)
    said = owner.MAPPING if owner is not None and issubclass(owner, ConfigFile) else None
    return said or f"a mapping with keys {', '.join(keys_at(model, loc) or ())}"


def _expects(model: type[BaseModel], loc: Loc) -> str:
    """What belongs at `loc`, a key that is missing."""
    field = field_at(model, loc)
    said = [m.words for m in (field.metadata if field else ()) if isinstance(m, Check | Said)]
    if said:
        return said[0]
    return _mapping_of(model, loc) if model_at(model, loc) is not None else "a value"
