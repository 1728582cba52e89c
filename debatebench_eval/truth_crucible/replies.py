"""Building blocks of the crucible's reply models: ids to pick from, objects keyed by id.

Each crucible reply model (`claims`, `rounds`, `conflicts`, `convergence`,
`neutralize`, `panel`, `audit`) is built per call from these, so the ids a
model may name are the `enum` of this record's ids in the schema sent, and
an object keyed by id (every shown claim scored once) is a set of required
properties rather than a list whose items a grammar cannot keep distinct.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    Field,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
    create_model,
    field_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from debatebench_eval.core.reply_model import ReplyModel, check_reply

# Reply models kept built per kind of call (they are rebuilt from the call's ids
# when evicted): enough for a few topics' turns at once, bounded for long runs.
MODELS_KEPT = 256
# A word character somewhere: the least a text must hold to say anything.
_WORDY = re.compile(r"[^\W_]")


def as_label(value: str) -> str:
    """A label or id as a model may write it ("[K3]", " k3 "), in its canonical form."""
    return value.strip().strip("[]").strip().upper()


def one_of(ids: Iterable[str], normal: Callable[[str], str] = as_label) -> Any:
    """The type of a value that must be one of `ids` (an `enum` in the schema). A value
    written another way (`normal` of it is an id: "[k3]" for K3) is taken as that id;
    any other is reported as it was written."""
    allowed = tuple(dict.fromkeys(ids))
    if not allowed:
        raise ValueError("a choice of ids needs at least one id")
    by_normal = {normal(i): i for i in allowed}

    def canonical(value: Any) -> Any:
        return by_normal.get(normal(value), value) if isinstance(value, str) else value

    # An enum even of one id: pydantic would write a `const`, which not every
    # consumer of a schema knows (an `enum` every server named in schema_forms does).
    listed = WithJsonSchema({"type": "string", "enum": list(allowed)})
    return Annotated[Literal.__getitem__(allowed), BeforeValidator(canonical), listed]


def keyed(name: str, entries: Mapping[str, Any], doc: str | None = None) -> type[ReplyModel]:
    """An object whose keys are exactly `entries` (ids, dimension names), each
    required, with the type given. Keys go in as aliases, so any text is a key."""
    fields: dict[str, Any] = {
        f"key_{i}": (kind, Field(alias=key)) for i, (key, kind) in enumerate(entries.items())
    }
    return create_model(name, __base__=ReplyModel, __doc__=doc, **fields)


# A rule no grammar can carry, checked on one field: (value, info) -> the value kept,
# or ValueError naming what was expected. `info.data` holds the fields before it.
Rule = Callable[[Any, ValidationInfo], Any]


def model(
    name: str, doc: str, rules: Mapping[str, Rule] | None = None, **fields: Any
) -> type[ReplyModel]:
    """A reply model built for a call: `fields` as `(type, Field(...))` or a type, in
    order; `rules` by the field they are checked on (reported under its path)."""
    spec: dict[str, Any] = {
        key: value if isinstance(value, tuple) else (value, ...) for key, value in fields.items()
    }
    validators: dict[str, Any] = {
        f"check_{field}": field_validator(field)(_validator(rule))
        for field, rule in (rules or {}).items()
    }
    built: type[ReplyModel] = create_model(
        name, __base__=ReplyModel, __doc__=doc, __validators__=validators, **spec
    )
    return built


def _validator(rule: Rule) -> Callable[[type[Any], Any, ValidationInfo], Any]:
    def check(cls: type[Any], value: Any, info: ValidationInfo) -> Any:
        return rule(value, info)

    return check


def list_of(item: Any) -> Any:
    """`list[item]` for an item type built at run time."""
    return list[item]


def items(item: Any, low: int = 0, high: int | None = None) -> Any:
    """A list of `low` to `high` items (exactly `low` when high is low): minItems and
    maxItems in the schema. A count out of range is reported with the items' own
    problems, not instead of them (pydantic checks a list's length only once its
    items are valid, and the repair re-ask should name every problem at once)."""

    def counted(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError as exc:
            count = _count_error(value, low, high)
            if count is None or any(not error["loc"] for error in exc.errors()):
                raise  # the length was reported, or the items were never read
            raise ValidationError.from_exception_data(exc.title, [count, *_again(exc)]) from None

    bounds = Field(min_length=low or None, max_length=high)
    return Annotated[list[item], bounds, WrapValidator(counted)]


def _count_error(value: Any, low: int, high: int | None) -> InitErrorDetails | None:
    if not isinstance(value, list):
        return None
    n = len(value)
    if n < low:
        ctx = {"field_type": "List", "min_length": low, "actual_length": n}
        return InitErrorDetails(type="too_short", loc=(), input=value, ctx=ctx)
    if high is not None and n > high:
        ctx = {"field_type": "List", "max_length": high, "actual_length": n}
        return InitErrorDetails(type="too_long", loc=(), input=value, ctx=ctx)
    return None


def _again(exc: ValidationError) -> list[InitErrorDetails]:
    """The errors of `exc` as they were, to raise again with another."""
    return [
        InitErrorDetails(
            type=PydanticCustomError(
                error["type"],
                error["msg"].replace("{", "{{").replace("}", "}}"),
                error.get("ctx"),
            ),
            loc=error["loc"],
            input=error["input"],
        )
        for error in exc.errors(include_url=False)
    ]


def wordy(text: str) -> bool:
    """The text says something: a word character in it, not blank or "..."."""
    return bool(_WORDY.search(text))


def parsed(
    reply_model: type[ReplyModel], reply: Any, placeholders: Iterable[str] = ()
) -> tuple[dict[str, Any] | None, list[str]]:
    """The reply checked by its model, as plain data under the reply's own keys."""
    result, problems = check_reply(reply_model, placeholders)(reply)
    if result is None:
        return None, problems
    return result.model_dump(by_alias=True), []
