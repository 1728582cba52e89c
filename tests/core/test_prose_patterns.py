"""What a text field's grammar lets a model write, its check accepts (issue 24).

A text field's `pattern` is what a grammar server holds the model to; its check
(`_prose`, and a field's own rule such as a reason's word count) is what
refuses a reply after it. The two are written apart, so here every text field
with a pattern, of every reply model, is given hostile text: whatever its
pattern matches must pass the whole reply's check. Seen on SmolLM2-135M before
the patterns began with a letter or digit: a justification ", ," passed the
grammar and was refused by the check, so the debate went unscored.
"""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from debatebench_eval.core.reply_model import TEXT_MIN_LENGTH, text_pattern, words_pattern

from support.reply_models import REPLIES

# Text a small model writes in place of an answer: punctuation, a shown
# placeholder, padding. No pattern may match these.
SAYS_NOTHING = (
    ", ,", "...", "- -", "…", "— —", "_ _ _", "___", ", , , ,", "-- a", ". . .",
    "<turn id>", "<a sentence on why the side made no factual claim>", "<empty>",
    "  leading spaces", " x y z", "\u00a0abc", "\u3000中文",
)  # fmt: skip
# Unicode spaces standing in for words: text, but not the words a reason needs.
HOSTILE = (*SAYS_NOTHING, "a \u00a0 \u00a0", "a \u2003 \u3000", "a\u00a0b\u2003c")
# Every text of three of these, and every three "words" of one each: letters,
# punctuation, a shown placeholder's brackets, ASCII and Unicode spaces, an
# underscore (kept few: each text is a whole reply's check).
ALPHABET = ("a", "é", ",", ".", " ", "<", ">", "_", "\u00a0")
GENERATED = [
    *("".join(chars) for chars in itertools.product(ALPHABET, repeat=3)),
    *(" ".join(chars) for chars in itertools.product(ALPHABET, repeat=3)),
]
SAMPLE_TEXT = "Echo says this."


def instance(schema: dict[str, Any], branch: int = 0) -> Any:
    """A reply that follows `schema`: the first enum value, the `branch` of an `anyOf`, the
    least value of a range, one item of an array that may hold one (else the
    fewest allowed; ids the first listed), the same short sentence for every text."""
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return instance(schema["anyOf"][branch], branch)
    kind = schema.get("type")
    if kind == "object":
        return {key: instance(sub, branch) for key, sub in schema["properties"].items()}
    if kind == "array":
        count = max(schema.get("minItems", 0), min(1, schema.get("maxItems", 1)))
        items = schema["items"]
        if "enum" in items:  # ids in an array: distinct, in the order listed
            return items["enum"][:count]
        return [instance(items, branch) for _ in range(count)]
    if kind in ("number", "integer"):
        return schema.get("minimum", 0)
    if kind == "boolean":
        return False
    return SAMPLE_TEXT


def text_fields(
    schema: dict[str, Any], reply: Any, branch: int = 0, path: tuple[Any, ...] = ()
) -> Iterator[Any]:
    """(path, pattern) of every text with a pattern in `reply` (`instance(schema,
    branch)`), as `schema` has it."""
    if "anyOf" in schema:
        yield from text_fields(schema["anyOf"][branch], reply, branch, path)
    elif schema.get("type") == "object":
        for key, sub in schema["properties"].items():
            yield from text_fields(sub, reply[key], branch, (*path, key))
    elif schema.get("type") == "array":
        for index, item in enumerate(reply):
            yield from text_fields(schema["items"], item, branch, (*path, index))
    elif schema.get("type") == "string" and "pattern" in schema:
        yield path, schema["pattern"]


def replaced(reply: Any, path: tuple[Any, ...], text: str) -> Any:
    changed = copy.deepcopy(reply)
    node = changed
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = text
    return changed


Field = tuple[str, int, tuple[Any, ...], str]
# The first `anyOf` branch and the last: a side's claims, and why it made none.
BRANCHES = (0, -1)


def fields() -> list[Field]:
    """Every text field of every reply model: (model, branch, path, pattern)."""
    found: dict[Field, None] = {}
    for name, (schema, _check) in REPLIES.items():
        for branch in BRANCHES:
            for path, pattern in text_fields(schema, instance(schema, branch), branch):
                found[(name, branch if "anyOf" in str(schema) else 0, path, pattern)] = None
    return list(found)


FIELDS = fields()


@pytest.mark.parametrize("branch", BRANCHES)
@pytest.mark.parametrize("name", list(REPLIES))
def test_the_sample_reply_passes_so_a_refusal_below_is_the_texts(name: str, branch: int) -> None:
    schema, check = REPLIES[name]
    assert check(instance(schema, branch))[1] == []


def test_every_reply_model_with_text_has_its_fields_here() -> None:
    with_text = {field[0] for field in FIELDS}
    assert with_text == set(REPLIES)
    patterns = {pattern for *_, pattern in FIELDS}
    assert any("( " in pattern for pattern in patterns)  # a words pattern: a side's reason


@pytest.mark.parametrize("text", SAYS_NOTHING)
def test_no_pattern_lets_a_model_write_text_that_says_nothing(text: str) -> None:
    for name, _branch, path, pattern in FIELDS:
        assert not re.fullmatch(pattern, text), (name, path)


@pytest.mark.parametrize("name", list(REPLIES))
def test_whatever_a_text_pattern_matches_the_replys_check_accepts(name: str) -> None:
    schema, check = REPLIES[name]
    for field_name, branch, path, pattern in FIELDS:
        if field_name != name:
            continue
        reply = instance(schema, branch)
        for text in HOSTILE:
            if re.fullmatch(pattern, text):
                assert check(replaced(reply, path, text))[1] == [], (path, text)


def first_of_each_pattern() -> dict[str, Field]:
    first: dict[str, Field] = {}
    for field in FIELDS:
        first.setdefault(field[3], field)
    return first


@pytest.mark.parametrize("field", list(first_of_each_pattern().values()))
def test_every_short_text_a_pattern_matches_its_check_accepts(field: Field) -> None:
    # One field of each pattern, every short text: the checks are whole replies'.
    name, branch, path, pattern = field
    schema, check = REPLIES[name]
    reply = instance(schema, branch)
    matched = [text for text in GENERATED if re.fullmatch(pattern, text)]
    assert matched  # the pattern is met by some short text, so this checks something
    for text in matched:
        assert check(replaced(reply, path, text))[1] == [], (name, path, text)


def test_every_pattern_sent_is_a_text_pattern_of_reply_model() -> None:
    # So the texts above meet every kind of text pattern a reply model sends.
    lengths = [None, *range(TEXT_MIN_LENGTH, 1001)]
    made = {text_pattern(n) for n in lengths} | {text_pattern(n, empty=True) for n in lengths}
    made |= {words_pattern(n, words) for n in range(8, 1001) for words in range(2, 6)}
    for name, _branch, path, pattern in FIELDS:
        assert pattern in made, (name, path, pattern)


def test_the_first_characters_allowed_are_all_word_characters_to_python() -> None:
    # A grammar has no "any letter": the ranges listed must hold nothing else, or
    # a text of one such character and punctuation would pass it and fail the check.
    first = re.match(r"\^(\[[^\]]*\])", text_pattern())
    assert first is not None
    allowed = re.compile(first.group(1))
    wordy = re.compile(r"[^\W_]")
    assert allowed.fullmatch("A") and allowed.fullmatch("中") and not allowed.fullmatch(",")
    every = "".join(chr(code) for code in range(0x10000) if not 0xD800 <= code < 0xE000)
    admitted = "".join(allowed.findall(every))
    assert len(admitted) > 30_000  # the CJK blocks and Hangul among them
    assert [hex(ord(char)) for char in admitted if not wordy.match(char)] == []
