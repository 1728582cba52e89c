"""The judge sensitivity set: real debates with one side made worse in a known way.

Plain functions. From each source transcript come its reference (the debate
as recorded) and, for each degradation and each side, a variant in which only
that side's text is changed; `strawman` instead pairs a faithful quotation of
the opponent with a strawman of it, both opening the side's rebuttal. What
each degradation does, and the rubric dimensions that must fall for the
degraded side, are data (validation/sensitivity/edits.yaml), stated before any
judge is run. A variant that leaves the side's text as it was (a speech with
one sentence cannot be shuffled; a side that already copied its opponent
cannot be made to) is not built, and the reason is recorded.

The "rebuttal" of a side is its first rebuttal or retort; in a debate with
neither it is the side's last speech after its opening.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Self

from pydantic import AfterValidator, BeforeValidator, ValidationInfo, model_validator

from debatebench_eval.core.config_file import ConfigFile, Said, checked, parse_file, text
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.reply_model import expected_error
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.interop.transcript_file import read_transcript
from debatebench_eval.record.protocol import SIDES, other_side
from debatebench_eval.record.store import DebateRecord, Turn
from debatebench_eval.trust.digests import bundled_sources_dir, bundled_spec_file

DEGRADATIONS = (
    "truncated",
    "shuffled",
    "off_topic",
    "self_contradiction",
    "fabricated_statistic",
    "echo",
    "strawman",
)
REFERENCE = "reference"
FAITHFUL = "faithful"
# Sentences said by a side, per motion, in edits.yaml.
SIDE_TEXTS = ("fabricated_statistic", "self_contradiction", "strawman")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Degradation:
    name: str
    must_fall: tuple[str, ...]
    what: str


@dataclass(frozen=True)
class SensitivitySpec:
    degradations: dict[str, Degradation]
    off_topic: str
    faithful: str
    motions: dict[str, dict[str, dict[str, str]]]
    file: str
    sha256: str


@dataclass(frozen=True)
class Variant:
    """One debate to judge: a reference, or a variant with one side degraded."""

    sample_id: str
    source: str
    kind: str  # REFERENCE, FAITHFUL or a degradation name
    side: str | None  # the degraded side (or the side quoting faithfully)
    reference: str | None  # the sample id of the debate it is compared with
    must_fall: tuple[str, ...]
    record: DebateRecord

    def describe(self) -> str:
        """What the debate is, in one line, for the viewer."""
        return describe(self.as_metadata())

    def as_metadata(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "kind": self.kind,
            "side": self.side,
            "reference": self.reference,
            "must_fall": list(self.must_fall),
        }


def describe(variant: dict[str, Any]) -> str:
    """One line for a variant's metadata (`Variant.as_metadata`)."""
    side = str(variant.get("side") or "").upper()
    if not variant.get("reference"):
        return f"Reference ({side} quotes the opponent faithfully)." if side else "Reference."
    falls = ", ".join(variant["must_fall"])
    return (
        f"{variant['kind']}: {side} degraded; must fall: {falls}; "
        f"compared with {variant['reference']}."
    )


def load_spec(path: Path | None = None, dimensions: tuple[str, ...] = ()) -> SensitivitySpec:
    """Read and check edits.yaml; every problem names the file, the entry and the field.
    `dimensions` are the rubric's: each must_fall dimension must be one of them."""
    path = path or bundled_spec_file()
    where = str(path)
    data = parse_file(
        EditsFile, load_yaml(path, "sensitivity edits"), where, {"dimensions": dimensions}
    )
    entries = {name: getattr(data.degradations, name) for name in DEGRADATIONS}
    found = {name: Degradation(name, e.must_fall, e.what) for name, e in entries.items()}
    motions = {motion: texts.model_dump() for motion, texts in data.motions.items()}
    return SensitivitySpec(
        found,
        data.off_topic,
        data.faithful,
        motions,
        where,
        hashlib.sha256(path.read_bytes()).hexdigest(),
    )


def _dimension_list(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise expected_error("a non-empty list of rubric dimensions")
    return tuple(value)


# Text of one line however the file wraps it.
Line = Annotated[str, text(), AfterValidator(lambda value: " ".join(value.split()))]


class DegradationEntry(ConfigFile):
    must_fall: Annotated[
        tuple[str, ...],
        BeforeValidator(_dimension_list),
        Said("a non-empty list of rubric dimensions"),
    ]
    what: Line


class Degradations(ConfigFile):
    """Every degradation, each with the dimensions that must fall and what it does."""

    truncated: DegradationEntry
    shuffled: DegradationEntry
    off_topic: DegradationEntry
    self_contradiction: DegradationEntry
    fabricated_statistic: DegradationEntry
    echo: DegradationEntry
    strawman: DegradationEntry


class SideTexts(ConfigFile):
    """The sentences a side says in its degraded speeches, for one motion."""

    fabricated_statistic: Line
    self_contradiction: Line
    strawman: Line


class MotionTexts(ConfigFile):
    pro: SideTexts
    con: SideTexts


def _faithful(value: str) -> str:
    if "{quote}" not in value:
        raise expected_error("a template with {quote}", "no {quote} placeholder")
    return value


class EditsFile(ConfigFile):
    """validation/sensitivity/edits.yaml."""

    version: Annotated[int, checked("version: 1", lambda v: v == 1 and v is not True, int)] = 1
    degradations: Degradations
    off_topic: Line
    faithful: Annotated[str, text(), AfterValidator(lambda v: _faithful(" ".join(v.split())))]
    motions: dict[str, MotionTexts]

    @model_validator(mode="after")
    def _known_dimensions(self, info: ValidationInfo) -> Self:
        dimensions = tuple((info.context or {}).get("dimensions", ()))
        for name in DEGRADATIONS:
            unknown = [
                d for d in getattr(self.degradations, name).must_fall
                if dimensions and d not in dimensions
            ]  # fmt: skip
            if unknown:
                raise expected_error(
                    f"one of {', '.join(dimensions)}",
                    f"{unknown[0]!r} is not a dimension of the rubric",
                    "degradations",
                    name,
                    "must_fall",
                )
        return self


def load_sources(folder: Path | None = None) -> dict[str, DebateRecord]:
    """The source transcripts, by file stem, each checked by the transcript reader."""
    folder = folder or bundled_sources_dir()
    files = sorted(folder.glob("*.json"))
    if not files:
        raise ConfigError(str(folder), "no transcript (*.json) found", "debatebench transcripts")
    return {path.stem: read_transcript(path) for path in files}


def build_variants(
    sources: dict[str, DebateRecord], spec: SensitivitySpec, chosen: tuple[str, ...] = DEGRADATIONS
) -> tuple[list[Variant], list[str]]:
    """Every debate to judge, references first within each source, and what was not built."""
    variants: list[Variant] = []
    skipped: list[str] = []
    for source, record in sources.items():
        assert record.run is not None
        texts = spec.motions.get(record.run.motion)
        if texts is None:
            raise ConfigError(
                f"{spec.file}: motions",
                f"no entry for {record.run.motion!r} (source {source})",
                "the sentences for every source's motion",
            )
        variants.append(Variant(source, source, REFERENCE, None, None, (), record))
        for name in chosen:
            for side in SIDES:
                made, why = _pair(source, record, name, side, spec, texts[side])
                variants += made
                if why:
                    skipped.append(f"{source}.{name}.{side}: {why}")
    return variants, skipped


def _pair(
    source: str,
    record: DebateRecord,
    name: str,
    side: str,
    spec: SensitivitySpec,
    texts: dict[str, str],
) -> tuple[list[Variant], str | None]:
    must_fall = spec.degradations[name].must_fall
    reference = source
    made: list[Variant] = []
    if name == "strawman":
        quote = _first_sentence(record, other_side(side))  # type: ignore[arg-type]
        faithful = spec.faithful.format(quote=quote)
        base = _edit(record, side, lambda r, s: _prepend_answer(r, s, faithful))
        if base is None:
            return [], "the side has no rebuttal to open"
        reference = f"{source}.{FAITHFUL}.{side}"
        made.append(Variant(reference, source, FAITHFUL, side, None, (), base))
        edited = _edit(record, side, lambda r, s: _prepend_answer(r, s, texts["strawman"]))
    else:
        edited = _edit(record, side, _EDITS[name](spec, texts, source))
    if edited is None:
        return [], "the edit would leave the side's text unchanged"
    made.append(
        Variant(f"{source}.{name}.{side}", source, name, side, reference, must_fall, edited)
    )
    return made, None


Edit = Callable[[DebateRecord, str], dict[str, str]]


def _edit(record: DebateRecord, side: str, edit: Edit) -> DebateRecord | None:
    """A copy with the side's turns rewritten by `edit` (new text by turn id);
    None when nothing changed."""
    changed = {
        tid: text
        for tid, text in edit(record, side).items()
        if text != next(t.text for t in record.turns if t.id == tid)
    }
    if not changed:
        return None
    copy = record.model_copy(deep=True)
    copy.turns = [t.model_copy(update={"text": changed.get(t.id, t.text)}) for t in record.turns]
    return copy


def _speeches(record: DebateRecord, side: str) -> list[Turn]:
    return [t for t in record.turns if t.side == side and t.phase != "prep"]


def answer_turn(record: DebateRecord, side: str) -> Turn | None:
    """The side's rebuttal: its first rebuttal or retort, else its last speech after its opening."""
    speeches = _speeches(record, side)
    replies = [t for t in speeches if t.phase in ("rebuttal", "retort")]
    if replies:
        return replies[0]
    later = [t for t in speeches if t.phase_index > speeches[0].phase_index] if speeches else []
    return later[-1] if later else None


def _first_sentence(record: DebateRecord, side: str) -> str:
    return _SENTENCE.split(_speeches(record, side)[0].text.strip())[0]


def _prepend_answer(record: DebateRecord, side: str, text: str) -> dict[str, str]:
    turn = answer_turn(record, side)
    return {turn.id: f"{text} {turn.text}"} if turn else {}


def _truncated(spec: SensitivitySpec, texts: dict[str, str], source: str) -> Edit:
    def edit(record: DebateRecord, side: str) -> dict[str, str]:
        out = {}
        for turn in _speeches(record, side):
            words = turn.text.split()
            out[turn.id] = " ".join(words[: max(1, len(words) // 2)])
        return out

    return edit


def _shuffled(spec: SensitivitySpec, texts: dict[str, str], source: str) -> Edit:
    def edit(record: DebateRecord, side: str) -> dict[str, str]:
        out = {}
        for turn in _speeches(record, side):
            sentences = _SENTENCE.split(turn.text.strip())
            if len(set(sentences)) < 2:
                continue
            rng = random.Random(f"{source}:{side}:{turn.phase_index}")
            order = sentences[:]
            while order == sentences:  # a shuffle that keeps the order changes nothing
                rng.shuffle(order)
            out[turn.id] = " ".join(order)
        return out

    return edit


def _replace_answer(make: Callable[[DebateRecord, str, Turn], str]) -> Edit:
    def edit(record: DebateRecord, side: str) -> dict[str, str]:
        turn = answer_turn(record, side)
        return {turn.id: make(record, side, turn)} if turn else {}

    return edit


def _off_topic(spec: SensitivitySpec, texts: dict[str, str], source: str) -> Edit:
    return _replace_answer(lambda record, side, turn: spec.off_topic)


def _echo(spec: SensitivitySpec, texts: dict[str, str], source: str) -> Edit:
    def copied(record: DebateRecord, side: str, turn: Turn) -> str:
        before = record.turns[: record.turns.index(turn)]
        return next(t.text for t in reversed(before) if t.side != side and t.phase != "prep")

    return _replace_answer(copied)


def _append(position: int, key: str) -> Callable[[SensitivitySpec, dict[str, str], str], Edit]:
    def factory(spec: SensitivitySpec, texts: dict[str, str], source: str) -> Edit:
        def edit(record: DebateRecord, side: str) -> dict[str, str]:
            turn = _speeches(record, side)[position]
            return {turn.id: f"{turn.text} {texts[key]}"}

        return edit

    return factory


_EDITS: dict[str, Callable[[SensitivitySpec, dict[str, str], str], Edit]] = {
    "truncated": _truncated,
    "shuffled": _shuffled,
    "off_topic": _off_topic,
    "self_contradiction": _append(-1, "self_contradiction"),
    "fabricated_statistic": _append(0, "fabricated_statistic"),
    "echo": _echo,
}
