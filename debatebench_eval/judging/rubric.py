"""The rubric: its dimensions and templates, and strict checking of a judge's reply.

Plain functions over plain data. A reply is either fully valid (every
dimension of both sides scored with an integer in range and justified) or it
is a list of problems, each naming the exact field and what was wrong; a
partial reply is never used.
"""

from __future__ import annotations

import hashlib
import re
import string
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from debatebench_eval.core.errors import ConfigError
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
REPLY_KEYS = {"A": "side_a", "B": "side_b"}
MARGIN_SCALE = 100
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# pro_<name> must not collide with the score's own per-side keys.
_RESERVED = ("total", "win", "role_win", "stance_violation", STANCE_KEY)
_WORDY = re.compile(r"[^\W_]")
_RUBRIC_KEYS = {
    "name", "version", "tiebreak", "ledger", "evidence", "dimensions", "system", "prompt", "repair",
}  # fmt: skip
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
    data = load_yaml(path, "rubric")
    if not isinstance(data, dict):
        raise ConfigError(where, f"top level is {type(data).__name__}", "a mapping")
    unknown = sorted(set(data) - _RUBRIC_KEYS)
    if unknown:
        raise ConfigError(f"{where}: {unknown[0]}", "unknown key", f"one of {sorted(_RUBRIC_KEYS)}")
    dimensions = _dimensions(data.get("dimensions"), where)
    names = [d.name for d in dimensions]
    templates = {key: _template(data, key, where) for key in ("system", "prompt", "repair")}
    return Rubric(
        name=str(data.get("name") or path.stem),
        version=str(data.get("version", "")),
        dimensions=dimensions,
        tiebreak=_dimension_ref(data, "tiebreak", names, where, required=True) or "",
        ledger=_dimension_ref(data, "ledger", names, where, required=False),
        evidence=_dimension_ref(data, "evidence", names, where, required=False),
        file=where,
        sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
        **templates,
    )


def _dimensions(value: Any, where: str) -> tuple[Dimension, ...]:
    at = f"{where}: dimensions"
    if not isinstance(value, list) or not value:
        raise ConfigError(at, f"got {value!r}", "a non-empty list of {name, max, description}")
    dimensions: list[Dimension] = []
    for index, item in enumerate(value):
        here = f"{at}[{index}]"
        if not isinstance(item, dict) or set(item) != {"name", "max", "description"}:
            raise ConfigError(
                here, f"got {item!r}", "a mapping with exactly name, max, description"
            )
        name, top, text = item["name"], item["max"], item["description"]
        if not isinstance(name, str) or not _NAME.match(name):
            raise ConfigError(f"{here}.name", f"got {name!r}", "a lower-case identifier")
        if name in _RESERVED:
            raise ConfigError(
                f"{here}.name", f"{name!r} is a score key", f"a name other than {_RESERVED}"
            )
        if name in {d.name for d in dimensions}:
            raise ConfigError(f"{here}.name", f"{name!r} appears twice", "unique names")
        if isinstance(top, bool) or not isinstance(top, int) or top < 1:
            raise ConfigError(f"{here}.max", f"got {top!r}", "a positive integer")
        if not isinstance(text, str) or not text.strip():
            raise ConfigError(f"{here}.description", f"got {text!r}", "a non-empty string")
        dimensions.append(Dimension(name, top, " ".join(text.split())))
    total = sum(d.max for d in dimensions)
    if total != MARGIN_SCALE:
        raise ConfigError(
            at, f"the maxima add up to {total}", f"{MARGIN_SCALE} (margin tiers use that scale)"
        )
    return tuple(dimensions)


def _dimension_ref(
    data: dict[str, Any], key: str, names: list[str], where: str, *, required: bool
) -> str | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if value not in names:
        raise ConfigError(f"{where}: {key}", f"got {value!r}", f"one of the dimensions {names}")
    return str(value)


def _template(data: dict[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: {key}", f"got {value!r}", "a non-empty template string")
    allowed = _PLACEHOLDERS.get(key, ())
    for name in allowed:
        if "{" + name + "}" not in value:
            raise ConfigError(f"{where}: {key}", f"no {{{name}}} placeholder", "all of its fields")
    try:
        fields = {field for _, field, _, _ in string.Formatter().parse(value) if field is not None}
    except ValueError as exc:
        raise ConfigError(
            f"{where}: {key}", f"a broken brace ({exc})", "{{ and }} for braces"
        ) from None
    unknown = sorted(fields - set(allowed))
    if unknown:
        known = ", ".join("{" + n + "}" for n in allowed) or "no placeholder"
        raise ConfigError(
            f"{where}: {key}",
            f"unknown placeholder {{{unknown[0]}}}",
            f"only {known}; write {{{{ and }}}} for a literal brace",
        )
    return value


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


def reply_schema(rubric: Rubric) -> dict[str, Any]:
    """The same shape as a JSON Schema, for providers with structured output."""

    def dimension(d: Dimension) -> dict[str, Any]:
        props: dict[str, Any] = {
            "score": {"type": "integer", "minimum": 0, "maximum": d.max},
            "justification": {"type": "string"},
        }
        if d.name == rubric.ledger:
            props["hit_ledger"] = {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "point": {"type": "string"},
                        "status": {"type": "string", "enum": list(LEDGER_STATUSES)},
                    },
                    "required": ["point", "status"],
                    "additionalProperties": False,
                },
            }
        return _object(props)

    stance = {"type": "string", "enum": list(STANCES)}
    side = _object({**{d.name: dimension(d) for d in rubric.dimensions}, STANCE_KEY: stance})
    return _object({REPLY_KEYS[label]: side for label in SIDE_LABELS})


def _object(props: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def check_judgment(reply: Any, rubric: Rubric) -> tuple[dict[str, SideJudgment], list[str]]:
    """Both sides' judgments keyed by label A/B, or the problems (then nothing)."""
    if not isinstance(reply, dict):
        return {}, [f"the reply is {_kind(reply)} in JSON, not an object"]
    problems = [
        f'unexpected key "{key}" at the top level (only side_a and side_b)'
        for key in reply
        if key not in REPLY_KEYS.values()
    ]
    judgments: dict[str, SideJudgment] = {}
    for label in SIDE_LABELS:
        key = REPLY_KEYS[label]
        if key not in reply:
            problems.append(f'"{key}" is missing')
            continue
        judgment, side_problems = _check_side(reply[key], key, rubric)
        problems.extend(side_problems)
        if judgment is not None:
            judgments[label] = judgment
    return ({}, problems) if problems else (judgments, [])


def _check_side(value: Any, at: str, rubric: Rubric) -> tuple[SideJudgment | None, list[str]]:
    if not isinstance(value, dict):
        return None, [f'"{at}" is {_kind(value)}, not an object']
    problems = [
        f'"{at}.{key}" is not a dimension of this rubric'
        for key in value
        if key not in (*rubric.names, STANCE_KEY)
    ]
    stance = value.get(STANCE_KEY)
    if stance not in STANCES:
        problems.append(f'"{at}.{STANCE_KEY}" is {stance!r}; expected one of {", ".join(STANCES)}')
    scores: dict[str, DimensionScore] = {}
    ledger: tuple[LedgerEntry, ...] = ()
    for d in rubric.dimensions:
        here = f"{at}.{d.name}"
        if d.name not in value:
            problems.append(f'"{here}" is missing')
            continue
        entry = value[d.name]
        if not isinstance(entry, dict):
            problems.append(
                f'"{here}" is {_kind(entry)}, not an object with score and justification'
            )
            continue
        allowed = {"score", "justification"} | (
            {"hit_ledger"} if d.name == rubric.ledger else set()
        )
        problems += [f'unexpected key "{here}.{key}"' for key in entry if key not in allowed]
        score, found = _check_score(entry, here, d.max)
        problems.extend(found)
        text = entry.get("justification")
        if not isinstance(text, str) or not _WORDY.search(text):
            # "..." copied from the requested shape is no justification either.
            problems.append(f'"{here}.justification" is missing or empty')
        if d.name == rubric.ledger:
            ledger, found = _check_ledger(entry.get("hit_ledger"), f"{here}.hit_ledger")
            problems.extend(found)
        if score is not None and isinstance(text, str) and _WORDY.search(text):
            scores[d.name] = DimensionScore(score, text.strip())
    if problems:
        return None, problems
    return SideJudgment(scores, ledger, str(stance)), []


def _check_score(entry: dict[str, Any], here: str, top: int) -> tuple[int | None, list[str]]:
    if "score" not in entry:
        return None, [f'"{here}.score" is missing']
    score = entry["score"]
    if isinstance(score, bool) or not isinstance(score, int):
        return None, [f'"{here}.score" is {score!r}; it must be a whole number from 0 to {top}']
    if not 0 <= score <= top:
        return None, [f'"{here}.score" is {score}, outside 0 to {top}']
    return score, []


def _check_ledger(value: Any, here: str) -> tuple[tuple[LedgerEntry, ...], list[str]]:
    if not isinstance(value, list):
        return (), [f'"{here}" is missing or not a list']
    entries: list[LedgerEntry] = []
    problems: list[str] = []
    for index, item in enumerate(value):
        at = f"{here}[{index}]"
        if not isinstance(item, dict):
            problems.append(f'"{at}" is {_kind(item)}, not an object with point and status')
            continue
        point, status = item.get("point"), item.get("status")
        if not isinstance(point, str) or not point.strip():
            problems.append(f'"{at}.point" is missing or empty')
        if status not in LEDGER_STATUSES:
            problems.append(
                f'"{at}.status" is {status!r}; expected one of {", ".join(LEDGER_STATUSES)}'
            )
        if isinstance(point, str) and point.strip() and status in LEDGER_STATUSES:
            entries.append(LedgerEntry(point.strip(), str(status)))
    return tuple(entries), problems


def _kind(value: Any) -> str:
    """The JSON type of a value, with its article, for problem messages."""
    names = {dict: "an object", list: "an array", str: "a string", type(None): "null"}
    if isinstance(value, bool):
        return "a boolean"
    return names.get(type(value), "a number")
