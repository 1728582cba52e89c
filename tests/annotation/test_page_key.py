"""The page's key: opaque ids that say nothing of the debate, the file `annotate` writes
beside the page mapping each id to its debate, read back with one message per problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.annotation.items import Item, ItemSpeech
from debatebench_eval.annotation.page_key import (
    blind_id,
    key_of,
    key_path,
    page_key,
    read_key,
    read_keys,
    write_key,
)
from debatebench_eval.annotation.selection import a_side
from debatebench_eval.core.errors import ConfigError

NAME = "2026-12-05T09-02-07-00-00_ollama-a-vs-ollama-b_KBkR55W8.eval:carbon-tax.swapped:1"


def item(name: str = NAME, **kw: Any) -> Item:
    log, sample_id, epoch = name.rsplit(":", 2)
    found: dict[str, Any] = {
        "item": name, "digest": "0123456789abcdef", "kind": "rubric", "log": log,
        "sample_id": sample_id, "epoch": int(epoch), "models": ("ollama/a", "ollama/b"),
        "topic": "carbon-tax", "prompt": "A motion.", "uuid": "Uu1dOfTheSample0000000",
        "speeches": (ItemSpeech(speaker="pro", stage="opening", text="Hi."),),
    }  # fmt: skip
    found.update(kw)
    return Item(**found)


def test_an_id_is_opaque_and_changes_with_the_debate_its_text_and_its_sides() -> None:
    blind = blind_id(item(), "pro")
    assert len(blind) == 16 and set(blind) <= set("0123456789abcdef")
    assert blind == blind_id(item(), "pro")  # the same page is written the same way
    for part in ("ollama", "swapped", "carbon", "KBkR55W8", "0123456789abcdef"):
        assert part not in blind
    others = {
        blind_id(item(), "con"),  # shown the other way round: a label must not cross over
        blind_id(item(digest="fedcba9876543210"), "pro"),  # the text changed
        blind_id(item(NAME.replace(":1", ":2")), "pro"),  # another epoch
        # The sample's uuid, which only the log holds, salts it: a log's name and the page
        # are not enough to compute the id.
        blind_id(item(uuid="AnotherSampleUuid00000"), "pro"),
    }
    assert blind not in others and len(others) == 4


def test_the_key_maps_each_id_to_its_debate_in_page_order(tmp_path: Path) -> None:
    items = [item(), item(NAME.replace("carbon-tax.swapped", "ubi")), item(kind="known_answer",
             a_side="con", answers=("x", "y"), item=NAME.replace(":1", ":3"), epoch=3)]  # fmt: skip
    key = page_key(items, 5)
    assert [entry.item for entry in key.items.values()] == [i.item for i in items]
    for (blind, entry), shown in zip(key.items.items(), items, strict=True):
        assert blind == blind_id(shown, a_side(shown, 5))
        assert entry.a_side == a_side(shown, 5) and entry.digest == shown.digest
        assert (entry.log, entry.sample_id, entry.epoch) == (shown.log, shown.sample_id,
                                                             shown.epoch)  # fmt: skip
    assert list(key.items.values())[2].a_side == "con"  # the record's, for a known answer
    assert key.page.startswith("seed-5-items-3-") and key.seed == 5
    assert page_key(items, 5) == key and page_key(items[:2], 5).page != key.page

    path = write_key(key, key_path(tmp_path / "labels.html"))
    assert path == tmp_path / "labels.key.json"
    assert read_key(path) == key
    assert json.loads(path.read_text())["items"][next(iter(key.items))]["item"] == NAME


def test_a_bad_key_file_is_named_with_what_is_wrong(tmp_path: Path) -> None:
    key = key_of([(item(), "pro")], 0).model_dump()
    with pytest.raises(ConfigError, match=r"nowhere.key.json: file not found"):
        read_key(tmp_path / "nowhere.key.json")
    broken = tmp_path / "broken.key.json"
    broken.write_text("{not json")
    with pytest.raises(ConfigError, match=r"broken.key.json: invalid JSON"):
        read_key(broken)
    bad = tmp_path / "bad.key.json"
    entry = next(iter(key["items"]))
    key["items"][entry]["a_side"] = "A"
    bad.write_text(json.dumps(key))
    expected = rf"bad.key.json: items\['{entry}'\].a_side: got 'A'; expected pro or con"
    with pytest.raises(ConfigError, match=expected):
        read_key(bad)


def test_keys_are_those_named_or_else_every_key_beside_the_labels(tmp_path: Path) -> None:
    first = write_key(key_of([(item(), "pro")], 0), tmp_path / "a.key.json")
    write_key(key_of([(item(), "con")], 0), tmp_path / "b.key.json")
    labels = tmp_path / "labels.jsonl"
    beside = read_keys(None, [labels])
    assert {e.a_side for e in beside.entries.values()} == {"pro", "con"}
    named = read_keys([first], [labels])
    assert [e.a_side for e in named.entries.values()] == ["pro"]
    with pytest.raises(ConfigError) as caught:
        named.entry(blind_id(item(), "con"), "labels.jsonl: line 4")
    said = f"id {blind_id(item(), 'con')} is on none of the pages whose keys were read"
    assert str(caught.value).startswith(f"labels.jsonl: line 4: item: {said} (named: {first})")
    nothing = read_keys(None, [tmp_path / "elsewhere" / "labels.jsonl"])
    with pytest.raises(ConfigError, match=r"beside the labels: none was found"):
        nothing.entry("0" * 16, "x.jsonl: line 1")
