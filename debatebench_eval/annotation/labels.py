"""Human labels: the JSONL rows the labelling page exports, read back and matched.

A row labels one item (a debate of a log folder, `annotation.items`) by one
annotator: who argued better (`winner`, optionally the rubric's dimensions for
each shown side) for a rubric debate, which answer is right and how sure for a
known-answer one. Sides are named as the page showed them (A/B), with `a_side`
saying which side A was, so a row can be read without the page.

A later row for the same item and annotator replaces the earlier one (an
annotator who changed their mind, or a file exported twice and merged). A
label whose item is in the folder but whose debate text changed since, and a
label for an item the folder does not hold, are kept apart and listed by the
caller: a label is never dropped without a word.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import PrivateAttr

from debatebench_eval.annotation.items import Item
from debatebench_eval.core.config_file import ConfigFile, checked, choice, parse_file, text
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.row_files import jsonl_rows
from debatebench_eval.judging.rubric import default_rubric

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


class Label(ConfigFile):
    """One row of a labels file: one item labelled by one annotator."""

    KEY_NOUN = "field"

    item: Annotated[str, text("the item id `<log file>:<sample id>:<epoch>`")]
    digest: Annotated[
        str,
        checked(
            "16 lower-case hex digits",
            lambda v: isinstance(v, str) and len(v) == 16 and set(v) <= set("0123456789abcdef"),
            lambda v: v,
        ),
    ]
    annotator: Annotated[str, text("the annotator's name, non-empty")]
    a_side: Annotated[Literal["pro", "con"], choice(("pro", "con"), "pro or con")]
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

    @property
    def where(self) -> str:
        return self._where or self.item

    @property
    def key(self) -> tuple[str, str]:
        return (self.item, self.annotator)

    def row(self) -> dict[str, Any]:
        """The row as the page writes it."""
        return self.model_dump()


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


def read_labels(paths: Iterable[str | Path]) -> list[Label]:
    """Every label of the files, in order, a later row for the same item and annotator
    replacing the earlier one; a bad row is one ConfigError naming file, line and field."""
    kept: dict[tuple[str, str], Label] = {}
    for path in map(Path, paths):
        if not path.is_file():
            raise ConfigError(
                str(path), "file not found", "a labels file (JSONL) the page exported"
            )
        for where, row in jsonl_rows(path):
            label = parse_file(Label, row, f"{path}: {where}")
            label._where = f"{path}: {where}"
            check_question(label)
            kept[label.key] = label
    return list(kept.values())


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
            f"{label.where}: item {label.item} changed since it was labelled "
            f"(digest {label.digest} in the label); not used"
            for label in self.changed
        ]
        lines += [
            f"{label.where}: item {label.item} is not in the folder; not used"
            for label in self.unknown
        ]
        return lines


def match_labels(labels: Iterable[Label], items: Iterable[Item]) -> Matched:
    """Each label with its item (same id and digest); the others listed, never dropped.
    A label that answers the other kind's question is an error naming its row."""
    by_id = {item.item: item for item in items}
    matched: list[tuple[Label, Item]] = []
    changed: list[Label] = []
    unknown: list[Label] = []
    for label in labels:
        item = by_id.get(label.item)
        if item is None:
            unknown.append(label)
        elif item.digest != label.digest:
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
    if item.a_side is not None and label.a_side != item.a_side:
        raise ConfigError(f"{label.where}: a_side", repr(label.a_side),
                          f"{item.a_side!r}: the side that defends answer A")  # fmt: skip
