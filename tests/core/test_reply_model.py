"""`either`: one of several objects, told apart by the one key only each has;
sent as an `anyOf` every server kind takes, checked with one problem per fault."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from inspect_ai.util import JSONSchema
from inspect_ai.util._json import json_schema_dump
from pydantic import Field, create_model

from debatebench_eval.core.reply_model import (
    ReplyModel,
    check_reply,
    either,
    one_of,
    prose,
    reply_schema,
)

EXPECTED = 'expected {"items": [...]} or {"why": "..."}, not both'


def model() -> type[ReplyModel]:
    items = create_model(
        "Items",
        __base__=ReplyModel,
        items=(Annotated[list[one_of(("x", "y"))], Field(min_length=1)], ...),  # type: ignore[misc]
    )
    why = create_model("Why", __base__=ReplyModel, why=(prose(), ...))
    return create_model(
        "Reply", __base__=ReplyModel, side=(either({"items": items, "why": why}, EXPECTED), ...)
    )


def problems(reply: Any) -> list[str]:
    return check_reply(model())(reply)[1]


def test_each_branch_is_checked_under_the_fields_own_path() -> None:
    assert problems({"side": {"items": ["x"]}}) == []
    assert problems({"side": {"why": "Nothing to list."}}) == []
    # The branch's name is no part of the path: the key the reply wrote already says it.
    assert problems({"side": {"items": ["z"]}}) == [
        "\"side.items[0]\" is 'z'; expected one of 'x' or 'y'"
    ]
    assert problems({"side": {"why": "..."}}) == [
        "\"side.why\" is '...'; it has no words (a placeholder such as ... is not an answer)"
    ]


@pytest.mark.parametrize(
    ("side", "shown"),
    [({}, "an empty object"), ({"items": ["x"], "why": "Both given."}, "an object"),
     ({"other": 1}, "an object"), ("x", "'x'")],
)  # fmt: skip
def test_neither_both_or_no_object_is_one_problem_naming_the_forms(side: Any, shown: str) -> None:
    assert problems({"side": side}) == [f'"side" is {shown}; {EXPECTED}']


def test_an_unknown_key_beside_a_branch_names_the_keys_of_that_branch() -> None:
    assert problems({"side": {"items": ["x"], "extra": 1}}) == [
        'unexpected key "side.extra"; expected only items'
    ]


def test_the_schema_sends_the_branches_as_any_of_and_a_single_value_as_an_enum() -> None:
    schema = reply_schema(model())
    items, why = schema["properties"]["side"]["anyOf"]
    assert "oneOf" not in schema["properties"]["side"]
    assert items["required"] == ["items"] and why["required"] == ["why"]
    assert items["additionalProperties"] is why["additionalProperties"] is False
    one = reply_schema(create_model("One", __base__=ReplyModel, id=(one_of(("t1",)), ...)))
    assert one["properties"]["id"] == {"type": "string", "enum": ["t1"]}
    # Inspect's own JSONSchema (hosted providers) keeps both: it has anyOf and enum.
    kept = json_schema_dump(JSONSchema.model_validate(schema))
    assert [branch["required"] for branch in kept["properties"]["side"]["anyOf"]] == [
        ["items"],
        ["why"],
    ]


def _package_models() -> list[type[Any]]:
    import importlib
    import inspect
    import pkgutil

    from pydantic import BaseModel

    import debatebench_eval

    found = []
    for info in pkgutil.walk_packages(debatebench_eval.__path__, "debatebench_eval."):
        if info.name.endswith("__main__"):
            continue  # running it is the command line
        module = importlib.import_module(info.name)
        found += [
            obj
            for obj in vars(module).values()
            if inspect.isclass(obj) and issubclass(obj, BaseModel) and obj.__module__ == info.name
        ]
    return found


def test_no_field_hides_a_bounded_type_in_its_metadata() -> None:
    # Annotated[int, whole_number(50, 100)] puts a whole annotated type where pydantic
    # expects metadata: it drops the bounds unseen, so neither the schema sent nor the
    # check holds the reply to them (the oversight judge's confidence once went
    # unchecked this way: a reply of 4 turned its pick around).
    hidden = [
        f"{model.__module__}.{model.__name__}.{name}"
        for model in _package_models()
        for name, field in model.model_fields.items()
        if any(hasattr(meta, "__metadata__") for meta in field.metadata)
    ]
    assert _package_models() and not hidden
