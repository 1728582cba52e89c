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
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from types import UnionType
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails, PydanticCustomError

R = TypeVar("R", bound=BaseModel)
# Reply models (and their schemas) built per record, kept for reuse: enough for
# every debate a worker has in flight, in both orientations.
MODELS_KEPT = 64

# A word character somewhere: "..." or "-" copied from a reply shape is not text.
_WORDY = re.compile(r"[^\W_]")
TEXT_MIN_LENGTH = 3
# The pattern sent with text fields. Its first character is a letter or a digit,
# so what the grammar lets a model write, the check (`_prose`) accepts: no
# placeholder ("<turn id>"), "...", ", ," or padding gets past the grammar only
# to be refused after it. It carries the minimum length itself: both llama.cpp
# converters (llama.cpp's common/json-schema-to-grammar.cpp and
# llama-cpp-python's llama_grammar.py) use a string's `pattern` and then ignore
# its `minLength`. Written for llama.cpp's grammar parser, which copies
# character classes as they are: no `\s` or `\w` (an "unknown escape" there, so
# the whole grammar fails to parse), and no `"`, backslash or control character
# anywhere, since the grammar writes the string's characters raw and one of
# those would end or break the JSON.
# A grammar has no "any letter": the letters and digits are the ASCII ones and
# the letter blocks of the scripts a corpus is likely in (every code point in
# these ranges is a word character to Python, which the check tests).
_TEXT_FIRST = (
    r"[0-9A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0391-\u03a1\u03a3-\u03c9"
    r"\u0400-\u0481\u048a-\u052f\u05d0-\u05ea\u0620-\u064a\u0905-\u0939"
    r"\u3041-\u3096\u30a1-\u30fa\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]"
)
_TEXT_CHAR = r'[^"\\\x00-\x1f]'
# Every character Python's `str.split()` splits on, beside the controls: a
# "word" of the words pattern made of these would not count as one.
_UNICODE_SPACES = r"\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"


def text_pattern(max_length: int | None = None, *, empty: bool = False) -> str:
    """The text pattern, with at most `max_length` characters if given, and
    matching "" as well if `empty`."""
    top = "" if max_length is None else str(max_length - 1)
    body = f"{_TEXT_FIRST}{_TEXT_CHAR}{{{TEXT_MIN_LENGTH - 1},{top}}}"
    return f"^({body})?$" if empty else f"^{body}$"


# A "word" of `words_pattern`: no space in it, at most this many characters (the
# longest common English words; a longer cap leaves less room after them).
WORD_CHARS = 16
_WORD_CHAR = rf'[^ "\\\x00-\x1f{_UNICODE_SPACES}]'


def words_pattern(max_length: int, words: int) -> str:
    """The text pattern for a sentence of at least `words` space-separated words
    and at most `max_length` characters. A grammar cannot count words and
    characters at once, so the first `words` words are at most WORD_CHARS
    characters each (fewer when `max_length` is small) and the rest of the text
    takes what is left were they that long: a text whose first words are
    shorter ends that much before `max_length`."""
    size = max(1, min(WORD_CHARS, max_length // words - 1))
    rest = max(0, max_length - size - (words - 1) * (size + 1))
    first = f"{_TEXT_FIRST}{_WORD_CHAR}{{0,{size - 1}}}"
    return f"^{first}( {_WORD_CHAR}{{1,{size}}}){{{words - 1}}}{_TEXT_CHAR}{{0,{rest}}}$"


TEXT_PATTERN = text_pattern()
# The same, or nothing (a reason that is "" when it is not needed).
TEXT_OR_EMPTY_PATTERN = text_pattern(empty=True)
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


def prose(max_length: int | None = None, *, min_words: int | None = None) -> Any:
    """Free text a model writes: at least a few characters with a word in them,
    and at most `max_length` if given (a bound the grammar keeps a small model
    to, so its reply fits its budget). With `min_words` (and a `max_length`) the
    pattern sent asks for that many words; the caller checks the count, in its
    own words."""
    if min_words is not None and max_length is not None:
        pattern = words_pattern(max_length, min_words)
    else:
        pattern = text_pattern(max_length)
    return Annotated[
        str,
        Field(
            min_length=TEXT_MIN_LENGTH,
            max_length=max_length,
            json_schema_extra={"pattern": pattern},
        ),
        AfterValidator(_prose),
    ]


def prose_or_empty(max_length: int | None = None) -> Any:
    """Text that is "" where nothing needs saying, else `prose(max_length)` (the
    caller's own rule says when it must be given)."""
    return Annotated[
        str,
        Field(
            max_length=max_length,
            json_schema_extra={"pattern": text_pattern(max_length, empty=True)},
        ),
        AfterValidator(_prose_or_empty),
    ]


def _prose_or_empty(value: str, info: ValidationInfo) -> str:
    return "" if not value.strip() else _prose(value, info)


Prose = prose()
ProseOrEmpty = prose_or_empty()


def whole_number(low: int, high: int) -> Any:
    """An integer from `low` to `high` (sent as `minimum`/`maximum`, which
    `servers.schema_forms` rewrites as an `enum` where a server ignores them);
    anything else, "7" and 7.5 included, is one problem naming the range."""

    def check(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError:
            raise PydanticCustomError(
                "whole_number_range",
                "expected a whole number from {low} to {high}",
                {"low": low, "high": high},
            ) from None

    return Annotated[int, Field(ge=low, le=high), WrapValidator(check)]


# Marks a branch of `either` in an error's location, which `field_path` leaves out:
# the branch is chosen by the key the reply wrote, so naming it again says nothing.
_BRANCH = "|"


def either(branches: dict[str, type[BaseModel]], expected: str) -> Any:
    """One of several objects, each told by the one key only it has (sent as an
    `anyOf`, which every server kind here honours). An object with none of
    those keys, or more than one, is one problem: `expected`."""

    def pick(value: Any) -> str | None:
        given = [key for key in branches if isinstance(value, dict) and key in value]
        return _BRANCH + given[0] if len(given) == 1 else None

    members = tuple(Annotated[model, Tag(_BRANCH + key)] for key, model in branches.items())
    return Annotated[
        Union.__getitem__(members),
        Discriminator(pick, custom_error_type="either", custom_error_message=expected),
    ]


def one_of(values: Iterable[str]) -> Any:
    """A string that is one of `values` (a `Literal`, sent as an `enum`), for ids
    and choices known only when the call is built."""
    return Literal.__getitem__(tuple(values))


def check_reply(
    model: type[R], placeholders: Iterable[str] = ()
) -> Callable[[Any], tuple[R | None, list[str]]]:
    """A check for `ask_json`: the validated reply, or every problem found."""
    context = {PLACEHOLDERS_KEY: tuple(placeholders)}

    def check(value: Any) -> tuple[R | None, list[str]]:
        try:
            return model.model_validate(value, context=context), []
        except ValidationError as exc:
            return None, reply_problems(exc, model)

    return check


def reply_problems(exc: ValidationError, model: type[BaseModel] | None = None) -> list[str]:
    """Each error as one line: the field path, the value found, what was expected
    (with `model`, an unexpected key also names the keys allowed beside it)."""
    return [_reply_line(problem, model) for problem in problems(exc)]


@dataclass(frozen=True)
class Problem:
    """One of pydantic's errors in the project's words, for a reply's repair re-ask
    and for a config file's message alike: where (`loc`), the value found, and what
    was expected (or why the value is refused, in a validator's own words)."""

    loc: tuple[int | str, ...]
    kind: str
    value: Any
    expected: str  # "expected ...", or a validator's reason
    # A validator's own words for what it found ("unknown participant 'x'").
    found: str | None = None

    @property
    def path(self) -> str:
        return field_path(self.loc)


# The error kind of a validator that says what it expected in its own words: its
# context holds `expected` and, optionally, `found` and a path `at` below `loc`.
EXPECTED_KIND = "expected"


def expected_error(expected: str, found: str | None = None, *at: int | str) -> PydanticCustomError:
    """The error a validator raises to say what it expected (and found), `at` a
    path below the field or model it validates."""
    context: dict[str, Any] = {"expected": expected, "found": found, "at": at}
    return PydanticCustomError(EXPECTED_KIND, "expected {expected}", context)


def problems(exc: ValidationError) -> list[Problem]:
    """The errors of a validation, in order."""
    return [_problem(error) for error in exc.errors(include_url=False)]


def _problem(error: ErrorDetails) -> Problem:
    kind, ctx = error["type"], error.get("ctx") or {}
    loc, found = tuple(error["loc"]), None
    if kind == EXPECTED_KIND:
        loc, found = loc + tuple(ctx.get("at", ())), ctx.get("found")
        return Problem(loc, kind, error.get("input"), f"expected {ctx['expected']}", found)
    expected = _expected(kind, ctx, error["msg"])
    return Problem(loc, kind, error.get("input"), expected)


def field_path(loc: tuple[int | str, ...]) -> str:
    """`("side_a", "clarity", "score")` as side_a.clarity.score, list items as [i]."""
    path = ""
    for part in loc:
        if isinstance(part, str) and part.startswith(_BRANCH):
            continue
        if isinstance(part, int) or not _KEY.fullmatch(part):
            # A list item, or a mapping's own key (a motion's text in a file).
            path += f"[{part}]" if isinstance(part, int) else f"[{part!r}]"
        else:
            path += f".{part}" if path else part
    return path


# A key a path writes after a dot; any other is written as ['...'].
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _reply_line(problem: Problem, model: type[BaseModel] | None) -> str:
    where = f'"{problem.path}"' if problem.loc else "the reply"
    if problem.kind == "missing":
        return f"{where} is missing"
    if problem.kind == "extra_forbidden":
        allowed = keys_at(model, problem.loc[:-1]) if model is not None else None
        only = f"; expected only {', '.join(allowed)}" if allowed else ""
        return f"unexpected key {where}{only}"
    return f"{where} is {_shown(problem.value)}; {problem.expected}"


def keys_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str] | None:
    """The keys of the object at `loc` inside `model`, as a reply writes them (a
    field's alias where it has one); None if `loc` is not an object."""
    found = model_at(model, loc)
    return list(_written(found)) if found is not None else None


def model_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model of the object at `loc` inside `model`; None if it is not one."""
    node: Any = model
    for part in loc:
        if isinstance(part, str) and part.startswith(_BRANCH):
            node = _branch(node, part)
            continue
        values = _mapping_values(node)
        if values is not None:
            node = values  # a key of a mapping (`dict[str, Model]`): its value
            continue
        node = _object_model(node)
        if node is None:
            return None
        if isinstance(part, int):
            continue  # a list item: its model is the list's item type, found below
        field = _written(node).get(str(part))
        if field is None:
            return None
        node = field.annotation
    return _object_model(node)


def field_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> FieldInfo | None:
    """The field at `loc` inside `model` (None at the top, or where none is)."""
    owner = model_at(model, loc[:-1]) if loc else None
    return None if owner is None else _written(owner).get(str(loc[-1]))


def _branch(node: Any, tag: str) -> Any:
    """The member of an `either` union that `tag` names (None if there is none)."""
    while get_origin(node) is Annotated:
        node = get_args(node)[0]
    for member in get_args(node):
        if any(getattr(meta, "tag", None) == tag for meta in getattr(member, "__metadata__", ())):
            return get_args(member)[0]
    return None


def _written(model: type[BaseModel]) -> dict[str, Any]:
    """A model's fields keyed as a reply writes them (alias, else name)."""
    return {field.alias or name: field for name, field in model.model_fields.items()}


def _mapping_values(node: Any) -> Any:
    """The value type of a `dict[str, X]` field's type, else None."""
    while get_origin(node) in (Annotated, Union, UnionType):
        members = [arg for arg in get_args(node) if arg is not type(None)]
        if len(members) != 1 and get_origin(node) is not Annotated:
            return None
        node = members[0]
    return get_args(node)[1] if get_origin(node) is dict else None


def _object_model(node: Any) -> type[BaseModel] | None:
    """The model a field's type holds, through `list[...]`, `tuple[..., ...]`,
    `Annotated[...]` and `X | None`."""
    while get_origin(node) in (list, tuple, Annotated, Union, UnionType):
        members = [arg for arg in get_args(node) if arg not in (type(None), Ellipsis)]
        if len(members) != 1 and get_origin(node) in (Union, UnionType):
            return None  # an `either`: its member is named by the error's branch
        node = members[0]
    return node if isinstance(node, type) and issubclass(node, BaseModel) else None


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
    if value is None or isinstance(value, bool):
        return json.dumps(value)  # null, true, false: as the model wrote them
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def reply_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema as servers take it: references inlined, no titles
    or defaults, every property required, no other allowed."""
    return copy.deepcopy(_schema_of(model))


@lru_cache(maxsize=MODELS_KEPT)
def _schema_of(model: type[BaseModel]) -> dict[str, Any]:
    # pydantic makes the schema anew on each call: some 7 ms for the rubric's.
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
    if "const" in plain and "enum" not in plain:
        # An id list of one: Inspect's JSONSchema has no `const`, and every server
        # kind honours an `enum`.
        plain["enum"] = [plain.pop("const")]
    if "oneOf" in plain:
        # `either`'s branches differ by a required key, so one-of is any-of; OpenAI's
        # strict mode and Inspect's JSONSchema take only `anyOf`.
        plain["anyOf"] = plain.pop("oneOf")
    if "properties" in node:
        # The properties' own names are data, not keywords: keep them as they are.
        plain["properties"] = {name: _plain(sub) for name, sub in node["properties"].items()}
        plain["required"] = list(node["properties"])
        plain["additionalProperties"] = False
    return plain
