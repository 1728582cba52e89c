"""The base of every sample record kept in Inspect's store (debates, crucibles,
deliberations): Inspect's `StoreModel`, with each field's reader built once.

`StoreModel` validates a non-scalar field on every read (`_coerce_value`) with a
pydantic `TypeAdapter` it builds anew each time, about 0.6 ms for a list of
turns; prompts, scorers and the blind view read a record's turns, passages and
settings dozens of times a debate, which came to 4% of a tournament worker's
CPU. The adapter depends only on the field's annotation, so here it is built
once per record class and field; what a read returns is what Inspect's returns.
This overrides a private method: tests/core/test_store_record.py fails if an
Inspect release stops reading fields through it.
"""

from __future__ import annotations

import functools
from typing import Any

from inspect_ai.util import StoreModel
from pydantic import TypeAdapter


class StoreRecord(StoreModel):
    """A `StoreModel` whose field reads reuse one `TypeAdapter` per field."""

    def _coerce_value(self, field_name: str, value: Any) -> Any:
        field = type(self).model_fields.get(field_name)
        if field is None or field.annotation is None or value is None or self._is_scalar(value):
            return value
        try:
            return field_reader(type(self), field_name).validate_python(value)
        except Exception:  # as Inspect does: a value that does not fit is read raw
            return value


@functools.cache
def field_reader(record: type[StoreModel], field_name: str) -> TypeAdapter[Any]:
    """The validator of one record class's field (built once: it costs ~0.6 ms)."""
    annotation = record.model_fields[field_name].annotation
    assert annotation is not None  # the caller reads only annotated fields
    return TypeAdapter(annotation)
