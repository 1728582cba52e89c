"""Human labels: the JSONL rows the labelling page exports, read back and matched.

A row labels one debate by one annotator: who argued better (`winner`,
optionally the rubric's dimensions for each shown side) for a rubric debate,
which answer is right and how sure for a known-answer one. The row knows the
debate only by its opaque id on the page and the sides only as the page showed
them (A/B): the page's key (`annotation.page_key`, a file beside the page)
says which debate the id is, its digest when labelled and which side was A.
Every row is resolved through a key when it is read; an id no key holds is an
error naming the row. Rows of pages written before the ids (which named the
debate, its digest and `a_side` themselves) are still read as they are.

A later row for the same debate and annotator replaces the earlier one (an
annotator who changed their mind, or a file exported twice and merged). A
label whose debate is in the folder but whose text changed since, and a
label for a debate the folder does not hold, are kept apart and listed by the
caller: a label is never dropped without a word.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import PrivateAttr

from debatebench_eval.annotation.items import Item
from debatebench_eval.annotation.page_key import (
    DIGEST,
    ID_PATTERN,
    ID_WORDS,
    PageKeys,
    read_keys,
)
from debatebench_eval.core.config_file import (
    ConfigFile,
    checked,
    choice,
    matching,
    parse_file,
    text,
)
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.row_files import jsonl_rows
from debatebench_eval.judging.rubric import default_rubric
from debatebench_eval.record.protocol import Side

SHOWN = ("A", "B")
WINNERS = ("A", "B", "tie")
LOWEST_SCORE, HIGHEST_SCORE = 1, 10
LOWEST_CONFIDENCE, HIGHEST_CONFIDENCE = 50, 100


@cache
def dimension_keys() -> tuple[str, ...]:
    """The rubric's dimensions, the keys a label's scores may hold."""
    return default_rubric().names


def _is_int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _side_scores(value: Any) -> bool:
    keys = dimension_keys()
    return (
        isinstance(value, dict)
        and set(value) == set(keys)
        and all(_is_int(value[k], LOWEST_SCORE, HIGHEST_SCORE) for k in keys)
    )


def _scores(value: Any) -> bool:
    return value is None or (
        isinstance(value, dict)
        and set(value) == set(SHOWN)
        and all(_side_scores(v) for v in value.values())
    )


def _iso_time(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _scores_words() -> str:
    keys = ", ".join(dimension_keys())
    return (
        f"null, or {{'A': {{...}}, 'B': {{...}}}}, each with every rubric dimension "
        f"({keys}) as an integer {LOWEST_SCORE}-{HIGHEST_SCORE}"
    )


def _maybe(values: Sequence[str]) -> Any:
    words = f"one of {', '.join(values)}, or null"
    return checked(words, lambda v: v is None or v in values, lambda v: v)


@dataclass(frozen=True)
class Labelled:
    """What a row's page said of the debate it labels: its name, its content digest when
    labelled, and the side shown as A."""

    name: str
    digest: str
    a_side: Side


class Label(ConfigFile):
    """One row of a labels file: one debate, known by its id on the page, labelled by one
    annotator."""

    KEY_NOUN = "field"

    item: Annotated[str, matching(ID_PATTERN, ID_WORDS)]
    annotator: Annotated[str, text("the annotator's name, non-empty")]
    winner: Annotated[str | None, _maybe(WINNERS)] = None
    scores: Annotated[
        dict[str, dict[str, int]] | None, checked(_scores_words(), _scores, lambda v: v)
    ] = None
    answer: Annotated[str | None, _maybe(SHOWN)] = None
    confidence: Annotated[
        int | None,
        checked(
            f"null or an integer {LOWEST_CONFIDENCE}-{HIGHEST_CONFIDENCE}",
            lambda v: v is None or _is_int(v, LOWEST_CONFIDENCE, HIGHEST_CONFIDENCE),
            lambda v: v,
        ),
    ] = None
    labelled_at: Annotated[str, checked("an ISO-8601 time", _iso_time, lambda v: v)]
    page: Annotated[str, text("the labelling page's id")]
    # Where the row was read (file and line), for the messages about it; not a column.
    _where: str = PrivateAttr(default="")
    # The debate, from the page's key (set as the row is read); not a column.
    _labelled: Labelled | None = PrivateAttr(default=None)

    @property
    def where(self) -> str:
        return self._where or self.item

    @property
    def debate(self) -> Labelled:
        """The labelled debate, as the page's key (or an earlier page's row) names it."""
        if self._labelled is None:
            raise ConfigError(self.where, f"id {self.item} not looked up in a page key",
                              "a label read by read_labels")  # fmt: skip
        return self._labelled

    @property
    def key(self) -> tuple[str, str]:
        return (self.debate.name, self.annotator)

    def row(self) -> dict[str, Any]:
        """The row as the page writes it."""
        return self.model_dump()


class EarlierLabel(Label):
    """A row of a page written before the opaque ids: it names the debate
    (`<log file>:<sample id>:<epoch>`), its digest and the side shown as A itself."""

    item: Annotated[str, text("the item id `<log file>:<sample id>:<epoch>`")]
    digest: Annotated[str, DIGEST]
    a_side: Annotated[Side, choice(("pro", "con"), "pro or con")]


# Fields only an earlier page's rows have: a row with either is read as one.
_EARLIER_FIELDS = ("digest", "a_side")


def check_question(label: Label) -> None:
    """A row answers the rubric question or the known-answer one, never both."""
    at = label.where
    if label.winner is None and label.answer is None:
        raise ConfigError(f"{at}: winner", "neither `winner` nor `answer`",
                          "`winner` (A, B or tie) for a rubric debate, or `answer` (A or B) "
                          "for a known-answer debate")  # fmt: skip
    if label.winner is not None and label.answer is not None:
        raise ConfigError(f"{at}: winner", "both `winner` and `answer`", "exactly one of them")
    if label.answer is not None and label.confidence is None:
        raise ConfigError(f"{at}: confidence", "no confidence for the answer",
                          "an integer 50-100: how sure the annotator is")  # fmt: skip
    if label.winner is not None and label.confidence is not None:
        raise ConfigError(f"{at}: confidence", "a confidence beside a winner",
                          "null: confidence belongs to a known-answer `answer`")  # fmt: skip
    if label.answer is not None and label.scores is not None:
        raise ConfigError(f"{at}: scores", "scores beside an answer",
                          "null: scores belong to a rubric `winner`")  # fmt: skip


def read_labels(
    paths: Iterable[str | Path], keys: Iterable[str | Path] | None = None
) -> list[Label]:
    """Every label of the files, in order, each resolved through the page keys `keys` (or,
    when None, every key file beside the labels files); a later row for the same debate
    and annotator replaces the earlier one. A bad row, or an id no key holds, is one
    ConfigError naming file, line and field."""
    files = list(map(Path, paths))
    for path in files:
        if not path.is_file():
            raise ConfigError(
                str(path), "file not found", "a labels file (JSONL) the page exported"
            )
    found = read_keys(keys, files)
    kept: dict[tuple[str, str], Label] = {}
    for path in files:
        for where, row in jsonl_rows(path):
            label = read_label(row, f"{path}: {where}", found)
            kept[label.key] = label
    return list(kept.values())


def read_label(row: Any, where: str, keys: PageKeys) -> Label:
    """One row, checked, with its debate looked up in the keys (an earlier page's row
    names its own)."""
    earlier = isinstance(row, dict) and any(name in row for name in _EARLIER_FIELDS)
    label = parse_file(EarlierLabel if earlier else Label, row, where)
    label._where = where
    check_question(label)
    if isinstance(label, EarlierLabel):
        label._labelled = Labelled(label.item, label.digest, label.a_side)
    else:
        entry = keys.entry(label.item, where)
        label._labelled = Labelled(entry.item, entry.digest, entry.a_side)
    return label


@dataclass(frozen=True)
class Matched:
    """Labels sorted by what the folder holds of their item."""

    matched: list[tuple[Label, Item]]
    # The item is in the folder but its debate is not the one labelled.
    changed: list[Label]
    # The folder has no such item.
    unknown: list[Label]

    def notes(self) -> list[str]:
        """One line per label that was not matched, naming where it was read."""
        lines = [
            f"{label.where}: item {label.debate.name} changed since it was labelled "
            f"(digest {label.debate.digest} then); not used"
            for label in self.changed
        ]
        lines += [
            f"{label.where}: item {label.debate.name} is not in the folder; not used"
            for label in self.unknown
        ]
        return lines


def match_labels(labels: Iterable[Label], items: Iterable[Item]) -> Matched:
    """Each label with its item (same name and digest); the others listed, never dropped.
    A label that answers the other kind's question is an error naming its row."""
    by_name = {item.item: item for item in items}
    matched: list[tuple[Label, Item]] = []
    changed: list[Label] = []
    unknown: list[Label] = []
    for label in labels:
        item = by_name.get(label.debate.name)
        if item is None:
            unknown.append(label)
        elif item.digest != label.debate.digest:
            changed.append(label)
        else:
            check_kind(label, item)
            matched.append((label, item))
    return Matched(matched, changed, unknown)


def check_kind(label: Label, item: Item) -> None:
    if item.kind == "rubric" and label.winner is None:
        raise ConfigError(f"{label.where}: answer", "an answer to a rubric debate",
                          "`winner` (A, B or tie): which side argued better")  # fmt: skip
    if item.kind == "known_answer" and label.answer is None:
        raise ConfigError(f"{label.where}: winner",
                          "a winner for a known-answer debate",
                          "`answer` (A or B) and `confidence`")  # fmt: skip
    # An earlier page's row says itself which side defends answer A; the record fixes it.
    if item.a_side is not None and label.debate.a_side != item.a_side:
        raise ConfigError(f"{label.where}: a_side", repr(label.debate.a_side),
                          f"{item.a_side!r}: the side that defends answer A")  # fmt: skip
