"""Sample records read their fields with one validator per field, and read them as
Inspect's own StoreModel does."""

from __future__ import annotations

from unittest import mock

import pydantic
from inspect_ai.util import Store, StoreModel
from pydantic import BaseModel, Field

from debatebench_eval.core import store_record
from debatebench_eval.core.store_record import StoreRecord


class Item(BaseModel):
    text: str


class Plain(StoreModel):
    items: list[Item] = Field(default_factory=list)
    label: str = ""
    tags: dict[str, int] = Field(default_factory=dict)


class Record(StoreRecord):
    items: list[Item] = Field(default_factory=list)
    label: str = ""
    tags: dict[str, int] = Field(default_factory=dict)


def filled(kind: type[StoreModel]) -> StoreModel:
    store = Store()
    record = kind(store=store)
    store.set(f"{kind.__name__}:items", [{"text": "a"}, Item(text="b")])  # raw, as a log has it
    store.set(f"{kind.__name__}:tags", {"x": "3"})
    store.set(f"{kind.__name__}:label", "l")
    return record


def test_a_read_returns_what_inspects_store_model_returns() -> None:
    ours, theirs = filled(Record), filled(Plain)
    for field in ("items", "label", "tags"):
        assert getattr(ours, field) == getattr(theirs, field)
    assert all(isinstance(item, Item) for item in ours.items)
    assert ours.tags == {"x": 3}


def test_each_fields_validator_is_built_once_however_often_it_is_read() -> None:
    store_record.field_reader.cache_clear()
    record = filled(Record)
    with mock.patch.object(store_record, "TypeAdapter", wraps=pydantic.TypeAdapter) as built:
        for _ in range(5):
            assert [item.text for item in record.items] == ["a", "b"]
            assert record.tags == {"x": 3}
    # Two fields, two validators: if Inspect stopped reading through _coerce_value
    # (the method overridden) this would be 0, and the saving would be gone unseen.
    assert built.call_count == 2
