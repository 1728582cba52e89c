"""The label rows the page exports, read back: every rule of the contract, each bad row
one message naming file, line and field, each row's opaque id looked up in the page's
key, and labels matched to the folder's items."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.annotation.items import Item, ItemSpeech
from debatebench_eval.annotation.labels import dimension_keys, match_labels, read_labels
from debatebench_eval.annotation.page_key import KEY_SUFFIX, blind_id, key_of, write_key
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.record.protocol import Side


def item(name: str = "log.eval:m0:1", digest: str = "0123456789abcdef", **kw: Any) -> Item:
    return Item(item=name, digest=digest, kind=kw.pop("kind", "rubric"), log="log.eval",
                sample_id=name.split(":")[1], epoch=1, models=("a", "b"), topic="m0",
                prompt="A motion.", uuid=f"uuid-of-{name}",
                speeches=(ItemSpeech(speaker="pro", stage="opening", text="Hi."),),
                **kw)  # fmt: skip


KNOWN = item("log.eval:q0:1", kind="known_answer", a_side="con", answers=("x", "y"))
# The page showed m0 with con as A, m1 with pro as A.
SHOWN: list[tuple[Item, Side]] = [(item(), "con"), (item("log.eval:m1:1"), "pro"), (KNOWN, "con")]
M0, M1, Q0 = (blind_id(shown, side) for shown, side in SHOWN)


def row(**changes: Any) -> dict[str, Any]:
    found: dict[str, Any] = {
        "item": M0, "annotator": "ada", "winner": "A", "scores": None, "answer": None,
        "confidence": None, "labelled_at": "2026-12-05T09:00:00.000Z",
        "page": "seed-0-items-3-0a1b2c3d",
    }  # fmt: skip
    found.update(changes)
    return {k: v for k, v in found.items() if v is not ...}


def write(tmp_path: Path, *rows: dict[str, Any], name: str = "labels.jsonl") -> Path:
    """A labels file, with the page's key beside it."""
    write_key(key_of(SHOWN, 0), tmp_path / f"page{KEY_SUFFIX}")
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def scores(value: int = 7) -> dict[str, int]:
    return {key: value for key in dimension_keys()}


def test_a_good_file_reads_through_the_key_and_a_later_row_replaces_an_earlier_one(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, row(winner="A"), row(annotator="bo", winner="tie"),
                 row(winner="B", scores={"A": scores(3), "B": scores(9)}),
                 row(item=M1))  # fmt: skip
    labels = read_labels([path])
    assert [(lb.annotator, lb.winner) for lb in labels] == [("ada", "B"), ("bo", "tie"),
                                                             ("ada", "A")]  # fmt: skip
    assert labels[0].scores == {"A": scores(3), "B": scores(9)}
    assert labels[0].where == f"{path}: line 3"
    assert set(labels[0].row()) == set(row())
    # The key, not the row, says which debate it is and which side was shown as A.
    assert (labels[0].debate.name, labels[0].debate.a_side) == ("log.eval:m0:1", "con")
    assert (labels[2].debate.name, labels[2].debate.a_side) == ("log.eval:m1:1", "pro")
    assert labels[0].debate.digest == "0123456789abcdef"


def test_a_known_answer_row_needs_its_confidence(tmp_path: Path) -> None:
    good = write(tmp_path, row(item=Q0, winner=None, answer="B", confidence=65))
    assert read_labels([good])[0].confidence == 65
    bad = write(tmp_path, row(item=Q0, winner=None, answer="B"), name="bad.jsonl")
    with pytest.raises(ConfigError, match=r"bad.jsonl: line 1.*confidence"):
        read_labels([bad])


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"winner": "C"}, "winner"),
        ({"item": "log.eval:m0:1"}, "item"),
        ({"item": "ABCDEF0123456789"}, "item"),
        ({"annotator": " "}, "annotator"),
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


def test_an_id_on_no_page_whose_key_was_read_is_named_by_its_line(tmp_path: Path) -> None:
    stray = blind_id(item("log.eval:m7:1"), "pro")
    path = write(tmp_path, row(), row(item=stray))
    with pytest.raises(ConfigError) as caught:
        read_labels([path])
    message = str(caught.value)
    assert message.startswith(f"{path}: line 2: item: id {stray} is on none of the pages "
                              f"whose keys were read (beside the labels: {tmp_path / 'page'}"
                              f"{KEY_SUFFIX})")  # fmt: skip
    # Without a key beside the labels, or with another page's key named, no id resolves.
    alone = tmp_path / "alone"
    alone.mkdir()
    moved = alone / "labels.jsonl"
    moved.write_text(json.dumps(row()) + "\n")
    with pytest.raises(ConfigError, match=r"line 1: item: .*beside the labels: none was found"):
        read_labels([moved])
    other = write_key(key_of([(item("log.eval:m7:1"), "pro")], 0), alone / "other.key.json")
    with pytest.raises(ConfigError, match=rf"line 1: item: .*\(named: {other}\)"):
        read_labels([moved], [other])
    assert read_labels([moved], [tmp_path / f"page{KEY_SUFFIX}"])[0].debate.a_side == "con"


def test_rows_of_an_earlier_page_name_their_debate_and_side_and_are_read_as_they_are(
    tmp_path: Path,
) -> None:
    earlier = row(item="log.eval:m1:1", digest="0123456789abcdef", a_side="con")
    path = write(tmp_path, earlier)
    [label] = read_labels([path])
    assert (label.debate.name, label.debate.a_side) == ("log.eval:m1:1", "con")
    assert set(label.row()) == set(earlier)
    bad = write(tmp_path, {**earlier, "a_side": "A"}, name="bad.jsonl")
    with pytest.raises(ConfigError, match=r"bad.jsonl: line 1.a_side: got 'A'; expected pro"):
        read_labels([bad])


def test_bad_json_and_a_missing_file_are_named(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps(row()) + "\n{not json\n")
    with pytest.raises(ConfigError, match=r"broken.jsonl: line 2: invalid JSON"):
        read_labels([path])
    with pytest.raises(ConfigError, match=r"nowhere.jsonl: file not found"):
        read_labels([tmp_path / "nowhere.jsonl"])


def test_labels_are_matched_changed_or_unknown_never_dropped(tmp_path: Path) -> None:
    path = write(tmp_path, row(), row(item=M1), row(item=Q0, winner=None, answer="A",
                 confidence=70))  # fmt: skip
    labels = read_labels([path])
    # Since the page was written, m1's text changed and q0's log left the folder.
    items = [item(), item("log.eval:m1:1", digest="fedcba9876543210")]
    found = match_labels(labels, items)
    assert [(lb.item, it.item) for lb, it in found.matched] == [(M0, "log.eval:m0:1")]
    assert [lb.item for lb in found.changed] == [M1]
    assert [lb.item for lb in found.unknown] == [Q0]
    notes = found.notes()
    assert notes[0] == (f"{path}: line 2: item log.eval:m1:1 changed since it was labelled "
                        "(digest 0123456789abcdef then); not used")  # fmt: skip
    assert notes[1] == f"{path}: line 3: item log.eval:q0:1 is not in the folder; not used"


def test_a_label_of_the_other_kind_is_refused(tmp_path: Path) -> None:
    rubric_label = read_labels([write(tmp_path, row())])
    with pytest.raises(ConfigError, match=r"line 1: winner.*`answer`"):
        match_labels(rubric_label, [item(kind="known_answer", a_side="pro", answers=("x", "y"))])
    known = read_labels([write(tmp_path, row(item=Q0, winner=None, answer="A", confidence=90),
                               name="k")])  # fmt: skip
    with pytest.raises(ConfigError, match=r"line 1: answer.*`winner`"):
        match_labels(known, [item("log.eval:q0:1")])
    earlier = row(item="log.eval:q0:1", digest=KNOWN.digest, a_side="pro", winner=None,
                  answer="A", confidence=90)  # fmt: skip
    with pytest.raises(ConfigError, match=r"line 1: a_side.*'con'"):
        match_labels(read_labels([write(tmp_path, earlier, name="e")]), [KNOWN])
