"""The rubric: its dimensions and templates, and strict checking of a judge's reply.

Plain functions over plain data. The judge's reply is one typed model built
per rubric (`reply_model`): the schema sent to the server and the check of
the reply both come from it. A reply is either fully valid (every dimension
of both sides scored with an integer in range and justified) or it is a list
of problems, each naming the exact field, the value found and what was
expected; a partial reply is never used.
"""

from __future__ import annotations

import hashlib
import re
import string
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Self

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PlainValidator,
    create_model,
    model_validator,
)

from debatebench_eval.core.config_file import Check, ConfigFile, Said, parse_file, text, whole
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.reply_model import (
    ReplyModel,
    check_reply,
    expected_error,
    one_of,
    prose,
    whole_number,
)
from debatebench_eval.core.reply_model import reply_schema as schema_of
from debatebench_eval.core.resources import data_file
from debatebench_eval.core.yamlio import load_yaml

LEDGER_STATUSES = ("open", "conceded", "rebutted", "dodged")
# Whether a side argued the position it was assigned: asked beside the
# dimensions, never scored; "switched" (it argued the other position) decides
# the stance check (verdict.stance_forfeits).
STANCES = ("held", "switched", "unclear")
STANCE_KEY = "stance"
STANCE_TEXT = (
    '- stance (not scored): "held" if the side argued the position it was given above '
    'throughout, "switched" if it argued the opposite position instead, "unclear" if '
    "you cannot tell."
)
SIDE_LABELS = ("A", "B")
# A justification is one or two sentences, a ledger point a phrase; the longest
# in the recorded judges' replies (results/regression) is 215 characters.
TEXT_MAX_CHARS = 300
LEDGER_MAX_POINTS = 10
# A reply held to its schema by a grammar cannot stop early: if its texts at
# their longest do not fit the judge budget it is cut off, unusable. So the
# bounds shrink with the budget, at CHARS_PER_TOKEN (a low estimate for English
# in JSON: the embedded judge wrote 3.9) and FIELD_CHARS for each text field's
# key and punctuation, never below MIN_TEXT_CHARS or one ledger point per
# LEDGER_POINT_TOKENS of budget.
CHARS_PER_TOKEN = 3
FIELD_CHARS = 70
MIN_TEXT_CHARS = 40
LEDGER_POINT_TOKENS = 400


def text_bound(budget: int | None, fields: int) -> int:
    """The most characters each of `fields` texts may have to fit `budget` tokens."""
    if budget is None:
        return TEXT_MAX_CHARS
    room = budget * CHARS_PER_TOKEN // max(fields, 1) - FIELD_CHARS
    return max(MIN_TEXT_CHARS, min(TEXT_MAX_CHARS, room))


def ledger_bound(budget: int | None) -> int:
    """The most hit-ledger points per side that `budget` tokens leave room for."""
    if budget is None:
        return LEDGER_MAX_POINTS
    return max(1, min(LEDGER_MAX_POINTS, budget // LEDGER_POINT_TOKENS))


REPLY_KEYS = {"A": "side_a", "B": "side_b"}
MARGIN_SCALE = 100
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# pro_<name> must not collide with the score's own per-side keys.
_RESERVED = ("total", "win", "role_win", "stance_violation", STANCE_KEY)
_PLACEHOLDERS = {
    "prompt": ("motion", "side_a", "side_b", "evidence", "transcript", "rubric", "shape"),
    "repair": ("problems",),
}


@dataclass(frozen=True)
class Dimension:
    name: str
    max: int
    description: str


@dataclass(frozen=True)
class Rubric:
    name: str
    version: str
    dimensions: tuple[Dimension, ...]
    tiebreak: str
    ledger: str | None
    evidence: str | None
    system: str
    prompt: str
    repair: str
    file: str
    sha256: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.dimensions)

    def max_of(self, name: str) -> int:
        return next(d.max for d in self.dimensions if d.name == name)


@dataclass(frozen=True)
class DimensionScore:
    score: int
    justification: str


@dataclass(frozen=True)
class LedgerEntry:
    point: str
    status: str


@dataclass(frozen=True)
class SideJudgment:
    """One side's scores from one reading, keyed by dimension name."""

    scores: dict[str, DimensionScore]
    ledger: tuple[LedgerEntry, ...]
    stance: str = "held"

    @property
    def total(self) -> int:
        return sum(s.score for s in self.scores.values())


@cache
def default_rubric() -> Rubric:
    return load_rubric(data_file("scorers", "rubric.yaml"))


def load_rubric(path: Path) -> Rubric:
    """Read and check a rubric file; every problem is a ConfigError naming the key."""
    where = str(path)
    if not path.is_file():
        raise ConfigError(where, "file not found", "a rubric YAML file (see scorers/rubric.yaml)")
    data = parse_file(RubricFile, load_yaml(path, "rubric"), where)
    return Rubric(
        name=str(data.name or path.stem),
        version=str("" if data.version is None else data.version),
        dimensions=tuple(Dimension(d.name, d.max, d.description) for d in data.dimensions),
        tiebreak=str(data.tiebreak),
        ledger=None if data.ledger is None else str(data.ledger),
        evidence=None if data.evidence is None else str(data.evidence),
        system=data.system,
        prompt=data.prompt,
        repair=data.repair,
        file=where,
        sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
    )


def _template(key: str) -> Any:
    """A template string holding every placeholder of `key`, and no other."""
    allowed = _PLACEHOLDERS.get(key, ())

    def check(value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise expected_error("a non-empty template string")
        for name in allowed:
            if "{" + name + "}" not in value:
                raise expected_error("all of its fields", f"no {{{name}}} placeholder")
        try:
            fields = {f for _, f, _, _ in string.Formatter().parse(value) if f is not None}
        except ValueError as exc:
            raise expected_error("{{ and }} for braces", f"a broken brace ({exc})") from None
        unknown = sorted(fields - set(allowed))
        if unknown:
            known = ", ".join("{" + n + "}" for n in allowed) or "no placeholder"
            raise expected_error(
                f"only {known}; write {{{{ and }}}} for a literal brace",
                f"unknown placeholder {{{unknown[0]}}}",
            )
        return value

    return Check(check, words="a non-empty template string")


def _dimension_name(value: Any) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        raise expected_error("a lower-case identifier")
    if value in _RESERVED:
        raise expected_error(f"a name other than {_RESERVED}", f"{value!r} is a score key")
    return value


class DimensionEntry(ConfigFile):
    name: Annotated[str, PlainValidator(_dimension_name), Said("a lower-case identifier")]
    max: Annotated[int, whole(1, "a positive integer")]
    description: Annotated[str, text(), AfterValidator(lambda t: " ".join(t.split()))]


def _some_dimensions(value: Any) -> Any:
    if not isinstance(value, list) or not value:
        raise expected_error("a non-empty list of {name, max, description}")
    return value


class RubricFile(ConfigFile):
    """A rubric file's keys."""

    MAPPING: ClassVar[str | None] = "a mapping"
    name: object = None
    version: object = None
    dimensions: Annotated[
        tuple[DimensionEntry, ...],
        BeforeValidator(_some_dimensions),
        Said("a non-empty list of {name, max, description}"),
    ]
    # Dimension names: checked against the dimensions (`_refs`).
    tiebreak: object = None
    ledger: object = None
    evidence: object = None
    system: Annotated[str, _template("system")]
    prompt: Annotated[str, _template("prompt")]
    repair: Annotated[str, _template("repair")]

    @model_validator(mode="after")
    def _rules(self) -> Self:
        names = [d.name for d in self.dimensions]
        for index, name in enumerate(names):
            if name in names[:index]:
                found = f"{name!r} appears twice"
                raise expected_error("unique names", found, "dimensions", index, "name")
        total = sum(d.max for d in self.dimensions)
        if total != MARGIN_SCALE:
            scale = f"{MARGIN_SCALE} (margin tiers use that scale)"
            raise expected_error(scale, f"the maxima add up to {total}", "dimensions")
        for key in ("tiebreak", "ledger", "evidence"):
            value = getattr(self, key)
            if (value is not None or key == "tiebreak") and value not in names:
                raise expected_error(f"one of the dimensions {names}", f"got {value!r}", key)
        return self


def rubric_text(rubric: Rubric) -> str:
    dimensions = [f"- {d.name} (0-{d.max}): {d.description}" for d in rubric.dimensions]
    return "\n".join([*dimensions, STANCE_TEXT])


def reply_shape(rubric: Rubric) -> str:
    """The JSON skeleton the judge is asked to fill, one line per dimension."""
    lines = []
    for label in SIDE_LABELS:
        fields = []
        for d in rubric.dimensions:
            ledger = (
                ', "hit_ledger": [{"point": "...", "status": "open|conceded|rebutted|dodged"}]'
                if d.name == rubric.ledger
                else ""
            )
            fields.append(f'    "{d.name}": {{"score": 0, "justification": "..."{ledger}}}')
        fields.append(f'    "{STANCE_KEY}": "{"|".join(STANCES)}"')
        lines.append(f'  "{REPLY_KEYS[label]}": {{\n' + ",\n".join(fields) + "\n  }")
    return "{\n" + ",\n".join(lines) + "\n}"


def reply_model(rubric: Rubric, budget: int | None = None) -> type[ReplyModel]:
    """The judge's reply for this rubric as one typed model: both sides, every
    dimension with its own 0..max whole-number score and a justification, the
    ledger dimension's hit ledger, and each side's stance.

    Everything the reply must satisfy is carried by the model and so by the
    schema sent, texts at most TEXT_MAX_CHARS long ("a one- or two-sentence
    justification") and at most LEDGER_MAX_POINTS ledger points, both less
    for a small judge `budget` (`text_bound`, `ledger_bound`), so that a
    grammar-held reply fits its budget. Left to the checker alone: a text that
    is "..." or a placeholder copied back (`Prose`).
    """
    points = ledger_bound(budget) if rubric.ledger is not None else 0
    fields = 2 * (len(rubric.dimensions) + points)
    return _reply_model(rubric, text_bound(budget, fields), points)


@cache
def _reply_model(rubric: Rubric, most_chars: int, most_points: int) -> type[ReplyModel]:
    entry = create_model(
        "HitLedgerEntry",
        __base__=ReplyModel,
        point=(prose(most_chars), ...),
        status=(one_of(LEDGER_STATUSES), ...),
    )

    def dimension(d: Dimension) -> type[ReplyModel]:
        fields: dict[str, Any] = {
            "score": (whole_number(0, d.max), ...),
            "justification": (prose(most_chars), ...),
        }
        if d.name == rubric.ledger:
            points = Annotated[list[entry], Field(max_length=most_points)]  # type: ignore[valid-type]
            fields["hit_ledger"] = (points, ...)
        return create_model(f"Score_{d.name}", __base__=ReplyModel, **fields)

    side_fields: dict[str, Any] = {d.name: (dimension(d), ...) for d in rubric.dimensions}
    side_fields[STANCE_KEY] = (one_of(STANCES), ...)
    side = create_model("SideReading", __base__=ReplyModel, **side_fields)
    sides: dict[str, Any] = {key: (side, ...) for key in REPLY_KEYS.values()}
    return create_model("RubricReading", __base__=ReplyModel, **sides)


def reply_schema(rubric: Rubric, budget: int | None = None) -> dict[str, Any]:
    """The reply model as a JSON Schema, for servers that constrain replies by one."""
    return schema_of(reply_model(rubric, budget))


def check_judgment(
    reply: Any, rubric: Rubric, budget: int | None = None
) -> tuple[dict[str, SideJudgment], list[str]]:
    """Both sides' judgments keyed by label A/B, or every problem (then nothing)."""
    checked, problems = check_reply(reply_model(rubric, budget))(reply)
    if checked is None:
        return {}, problems
    return {label: _side(getattr(checked, REPLY_KEYS[label]), rubric) for label in SIDE_LABELS}, []


def _side(side: Any, rubric: Rubric) -> SideJudgment:
    scores = {
        d.name: DimensionScore(getattr(side, d.name).score, getattr(side, d.name).justification)
        for d in rubric.dimensions
    }
    ledger: tuple[LedgerEntry, ...] = ()
    if rubric.ledger is not None:
        entries = getattr(side, rubric.ledger).hit_ledger
        ledger = tuple(LedgerEntry(e.point, e.status) for e in entries)
    return SideJudgment(scores, ledger, str(getattr(side, STANCE_KEY)))
