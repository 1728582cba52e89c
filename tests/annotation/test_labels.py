"""The label rows the page exports, read back: every rule of the contract, each bad row
one message naming file, line and field, and labels matched to the folder's items."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.annotation.items import Item, ItemSpeech
from debatebench_eval.annotation.labels import dimension_keys, match_labels, read_labels
from debatebench_eval.core.errors import ConfigError


def row(**changes: Any) -> dict[str, Any]:
    found: dict[str, Any] = {
        "item": "log.eval:m0:1", "digest": "0123456789abcdef", "annotator": "ada",
        "a_side": "pro", "winner": "A", "scores": None, "answer": None, "confidence": None,
        "labelled_at": "2026-12-05T09:00:00.000Z", "page": "seed-0-items-3",
    }  # fmt: skip
    found.update(changes)
    return {k: v for k, v in found.items() if v is not ...}


def write(tmp_path: Path, *rows: dict[str, Any], name: str = "labels.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def item(name: str = "log.eval:m0:1", digest: str = "0123456789abcdef", **kw: Any) -> Item:
    return Item(item=name, digest=digest, kind=kw.pop("kind", "rubric"), log="log.eval",
                sample_id="m0", epoch=1, models=("a", "b"), topic="m0", prompt="A motion.",
                speeches=(ItemSpeech(speaker="pro", stage="opening", text="Hi."),),
                **kw)  # fmt: skip


def scores(value: int = 7) -> dict[str, int]:
    return {key: value for key in dimension_keys()}


def test_a_good_file_reads_and_a_later_row_replaces_an_earlier_one(tmp_path: Path) -> None:
    path = write(tmp_path, row(winner="A"), row(annotator="bo", winner="tie"),
                 row(winner="B", scores={"A": scores(3), "B": scores(9)}))  # fmt: skip
    labels = read_labels([path])
    assert [(lb.annotator, lb.winner) for lb in labels] == [("ada", "B"), ("bo", "tie")]
    assert labels[0].scores == {"A": scores(3), "B": scores(9)}
    assert labels[0].where == f"{path}: line 3"
    assert set(labels[0].row()) == set(row())


def test_a_known_answer_row_needs_its_confidence(tmp_path: Path) -> None:
    good = write(tmp_path, row(winner=None, answer="B", confidence=65))
    assert read_labels([good])[0].confidence == 65
    bad = write(tmp_path, row(winner=None, answer="B"), name="bad.jsonl")
    with pytest.raises(ConfigError, match=r"bad.jsonl: line 1.*confidence"):
        read_labels([bad])


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"winner": "C"}, "winner"),
        ({"a_side": "A"}, "a_side"),
        ({"annotator": " "}, "annotator"),
        ({"digest": "xyz"}, "digest"),
        ({"scores": {"A": {"clarity": 5}, "B": {}}}, "scores"),
        ({"scores": {"A": scores(11), "B": scores()}}, "scores"),
        ({"winner": None, "answer": "A", "confidence": 40}, "confidence"),
        ({"winner": None, "answer": "A", "confidence": True}, "confidence"),
        ({"labelled_at": "yesterday"}, "labelled_at"),
        ({"page": ...}, "page"),
        ({"extra": 1}, "extra"),
        ({"winner": None}, "winner"),
        ({"answer": "A", "confidence": 60}, "winner"),
    ],
)
def test_each_bad_row_names_file_line_and_field(
    tmp_path: Path, changes: dict[str, Any], field: str
) -> None:
    path = write(tmp_path, row(), row(**changes))
    with pytest.raises(ConfigError) as caught:
        read_labels([path])
    message = str(caught.value)
    assert f"{path}: line 2" in message and field in message, message


def test_bad_json_and_a_missing_file_are_named(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps(row()) + "\n{not json\n")
    with pytest.raises(ConfigError, match=r"broken.jsonl: line 2: invalid JSON"):
        read_labels([path])
    with pytest.raises(ConfigError, match=r"nowhere.jsonl: file not found"):
        read_labels([tmp_path / "nowhere.jsonl"])


def test_labels_are_matched_changed_or_unknown_never_dropped(tmp_path: Path) -> None:
    path = write(tmp_path, row(), row(item="log.eval:m1:1"), row(item="gone.eval:m0:1"))
    labels = read_labels([path])
    items = [item(), item("log.eval:m1:1", digest="fedcba9876543210")]
    found = match_labels(labels, items)
    assert [(lb.item, it.item) for lb, it in found.matched] == [("log.eval:m0:1",) * 2]
    assert [lb.item for lb in found.changed] == ["log.eval:m1:1"]
    assert [lb.item for lb in found.unknown] == ["gone.eval:m0:1"]
    notes = found.notes()
    assert f"{path}: line 2: item log.eval:m1:1 changed" in notes[0]
    assert f"{path}: line 3: item gone.eval:m0:1 is not in the folder" in notes[1]


def test_a_label_of_the_other_kind_is_refused(tmp_path: Path) -> None:
    rubric_label = read_labels([write(tmp_path, row())])
    with pytest.raises(ConfigError, match=r"line 1: winner.*`answer`"):
        match_labels(rubric_label, [item(kind="known_answer", a_side="pro", answers=("x", "y"))])
    known = read_labels([write(tmp_path, row(winner=None, answer="A", confidence=90), name="k")])
    with pytest.raises(ConfigError, match=r"line 1: answer.*`winner`"):
        match_labels(known, [item()])
    with pytest.raises(ConfigError, match=r"line 1: a_side.*'con'"):
        match_labels(known, [item(kind="known_answer", a_side="con", answers=("x", "y"))])
