"""One typed model per structured model reply: its JSON schema and its check.

A reply model is a pydantic model; the schema sent to the server
(`reply_schema`) and the check of what came back (`check_reply`) are both
derived from it, so they cannot disagree. Rules that depend on the call (the
rubric's maxima, this record's turn ids, the number of claims asked for) are
put into the model when it is built for the call (`pydantic.create_model`
with `Literal` ids and `Field` bounds). Rules no schema can carry (a claim's
turn belongs to its side, a quote matches its source) stay in validators and
are listed in each model's docstring.

The check is strict (no "4" for 4, no 4.0 for a whole number, no unknown
key) and reports every problem at once, each naming the field path, the value
found and what was expected, in the words the repair re-ask shows the model.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable
from typing import Annotated, Any, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
)
from pydantic_core import ErrorDetails

R = TypeVar("R", bound=BaseModel)

# A word character somewhere: "..." or "-" copied from a reply shape is not text.
_WORDY = re.compile(r"[^\W_]")
TEXT_MIN_LENGTH = 3
# The pattern sent with text fields: it refuses a first character of "<" or
# "." (how placeholders and "..." begin) or a blank. A grammar matches it on the
# raw characters between the JSON string's quotes, so it admits no `"` or `\`
# (either would let the grammar write invalid JSON) and no newline. Kept to what
# llama.cpp's grammar parser takes: no `\s` (it refuses that escape, and with it
# the whole grammar, which crashed llama-cpp-python's server). The length is in
# the pattern too: llama-cpp-python drops minLength when a pattern is given.
TEXT_PATTERN = r'^[^<. \t\n"\\][^"\\\n]' + f"{{{TEXT_MIN_LENGTH - 1},}}$"
PLACEHOLDERS_KEY = "placeholders"


class ReplyModel(BaseModel):
    """Base of every reply model: strict types, no unknown keys, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _prose(value: str, info: ValidationInfo) -> str:
    """Text that says something: not "...", not a `<placeholder>` or a line of the
    shape shown to the model (the call passes those as context)."""
    text = value.strip()
    if not _WORDY.search(text):
        raise ValueError("it has no words (a placeholder such as ... is not an answer)")
    if text.startswith("<") and text.endswith(">"):
        raise ValueError("it is a placeholder from the reply shape, not an answer")
    shown = (info.context or {}).get(PLACEHOLDERS_KEY, ())
    if _normal(text) in {_normal(p) for p in shown}:
        raise ValueError("it repeats the reply shape's placeholder instead of answering")
    return text


def _normal(text: str) -> str:
    return " ".join(text.strip().strip("<>").lower().split())


# Free text a model writes: at least a few characters with a word in them.
Prose = Annotated[
    str,
    Field(min_length=TEXT_MIN_LENGTH, json_schema_extra={"pattern": TEXT_PATTERN}),
    AfterValidator(_prose),
]


def check_reply(
    model: type[R], placeholders: Iterable[str] = ()
) -> Callable[[Any], tuple[R | None, list[str]]]:
    """A check for `ask_json`: the validated reply, or every problem found."""
    context = {PLACEHOLDERS_KEY: tuple(placeholders)}

    def check(value: Any) -> tuple[R | None, list[str]]:
        try:
            return model.model_validate(value, context=context), []
        except ValidationError as exc:
            return None, reply_problems(exc)

    return check


def reply_problems(exc: ValidationError) -> list[str]:
    """Each error as one line: the field path, the value found, what was expected."""
    return [_problem(error) for error in exc.errors(include_url=False)]


def field_path(loc: tuple[int | str, ...]) -> str:
    """`("side_a", "clarity", "score")` as side_a.clarity.score, list items as [i]."""
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def _problem(error: ErrorDetails) -> str:
    kind, ctx, found = error["type"], error.get("ctx") or {}, error.get("input")
    where = f'"{field_path(error["loc"])}"' if error["loc"] else "the reply"
    if kind == "missing":
        return f"{where} is missing"
    if kind == "extra_forbidden":
        return f"unexpected key {where}"
    return f"{where} is {_shown(found)}; {_expected(kind, ctx, error['msg'])}"


_EXPECTED = {
    "int_type": "expected a whole number",
    "int_from_float": "expected a whole number",
    "float_type": "expected a number",
    "string_type": "expected a string",
    "bool_type": "expected true or false",
    "list_type": "expected an array",
    "model_type": "expected an object",
    "dict_type": "expected an object",
    "model_attributes_type": "expected an object",
}


def _expected(kind: str, ctx: dict[str, Any], message: str) -> str:
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    bounds = {
        "less_than_equal": "expected at most {le}",
        "greater_than_equal": "expected at least {ge}",
        "less_than": "expected less than {lt}",
        "greater_than": "expected more than {gt}",
        "too_short": "expected at least {min_length} item(s)",
        "too_long": "expected at most {max_length} item(s)",
        "string_too_short": "expected at least {min_length} characters",
        "string_too_long": "expected at most {max_length} characters",
        "literal_error": "expected one of {expected}",
        "enum": "expected one of {expected}",
    }
    if kind in bounds:
        return bounds[kind].format(**ctx)
    if kind == "string_pattern_mismatch":
        return "expected text that starts with a word, not a placeholder"
    return message.removeprefix("Value error, ").removeprefix("Assertion failed, ")


def _shown(value: Any) -> str:
    """The value found, short enough for one line of a repair re-ask."""
    if isinstance(value, dict):
        return "an object" if value else "an empty object"
    if isinstance(value, list):
        return f"an array of {len(value)}"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def reply_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema as servers take it: references inlined, no titles
    or defaults, every property required, no other allowed."""
    schema = model.model_json_schema()
    definitions = schema.pop("$defs", {})
    plain: dict[str, Any] = _plain(_inline(schema, definitions))
    return plain


def _inline(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            target = definitions[node["$ref"].rsplit("/", 1)[-1]]
            return _inline(copy.deepcopy(target), definitions)
        return {key: _inline(value, definitions) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline(item, definitions) for item in node]
    return node


_DROPPED = ("title", "default", "description")


def _plain(node: Any) -> Any:
    if isinstance(node, list):
        return [_plain(item) for item in node]
    if not isinstance(node, dict):
        return node
    plain = {key: _plain(value) for key, value in node.items() if key not in _DROPPED}
    if "properties" in node:
        # The properties' own names are data, not keywords: keep them as they are.
        plain["properties"] = {name: _plain(sub) for name, sub in node["properties"].items()}
        plain["required"] = list(node["properties"])
        plain["additionalProperties"] = False
    return plain
