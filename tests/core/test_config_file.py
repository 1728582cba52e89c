"""Config files on the typed layer: one ConfigError naming the file, the key path,
the value found and what was expected, for every problem of the file at once."""

from __future__ import annotations

from typing import Annotated, ClassVar

import pytest

from debatebench_eval.core.config_file import (
    ConfigFile,
    VersionOne,
    choice,
    parse_file,
    text,
    whole,
)
from debatebench_eval.core.errors import ConfigError


class Inner(ConfigFile):
    size: Annotated[int, whole()]
    colour: Annotated[str, choice(("red", "blue"))] = "red"


class Outer(ConfigFile):
    KEY_NOUN: ClassVar[str] = "field"
    version: VersionOne
    name: Annotated[str, text()]
    inner: Inner
    items: tuple[Inner, ...] = ()


def _message(data: object) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_file(Outer, data, "f.yaml")
    return str(caught.value)


def test_every_problem_is_one_line_of_one_message() -> None:
    data = {"version": 2, "name": " ", "inner": {"size": 0, "colour": "green"}, "x": 1, "a": 2}
    assert _message(data).splitlines() == [
        "f.yaml: version: version 2; expected version: 1.",
        "f.yaml: name: got ' '; expected a non-empty string.",
        "f.yaml: inner.size: got 0; expected an integer of at least 1.",
        "f.yaml: inner.colour: got 'green'; expected one of red, blue.",
        "f.yaml: a: unknown field(s) ['a', 'x']; expected only version, name, inner, items.",
    ]


def test_a_missing_key_says_what_belongs_there() -> None:
    assert _message({"inner": {}, "items": [{"size": 1}, 3]}).splitlines() == [
        "f.yaml: version: no version; expected version: 1.",
        "f.yaml: name: missing; expected a non-empty string.",
        "f.yaml: inner.size: missing; expected an integer of at least 1.",
        "f.yaml: items[1]: got int; expected a mapping with keys size, colour.",
    ]


def test_a_nested_unknown_key_names_its_path_and_the_keys_allowed_there() -> None:
    data = {"version": 1, "name": "n", "inner": {"size": 1}, "items": [{"size": 1, "z": 0}]}
    assert _message(data) == (
        "f.yaml: items[0].z: unknown key(s) ['z']; expected only size, colour."
    )


def test_a_top_level_that_is_not_a_mapping() -> None:
    assert _message([1]) == (
        "f.yaml: top level is list; expected a mapping with keys version, name, inner, items."
    )


def test_true_is_not_an_integer_and_values_are_stripped() -> None:
    assert "inner.size: got True" in _message({"version": 1, "name": "n", "inner": {"size": True}})
    found = parse_file(Outer, {"version": 1, "name": " n ", "inner": {"size": 2}}, "f.yaml")
    assert (found.name, found.inner.size, found.inner.colour) == ("n", 2, "red")


def test_the_missing_keys_of_one_mapping_are_one_line() -> None:
    assert _message({"version": 1}) == (
        "f.yaml: name: missing key(s) ['name', 'inner']; expected all of name, inner."
    )


def test_a_place_inside_a_file_is_continued_by_the_key_path() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_file(Inner, {"size": 0}, "m.yaml: motions[2]")
    assert str(caught.value).startswith("m.yaml: motions[2].size: got 0;")


class Keyed(ConfigFile):
    entries: dict[str, Inner]


def test_a_mapping_keyed_by_data_names_its_key_and_the_model_below_it() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_file(Keyed, {"entries": {"a motion.": {"sise": 1}}}, "k.yaml")
    assert str(caught.value).splitlines() == [
        "k.yaml: entries['a motion.'].size: missing; expected an integer of at least 1.",
        "k.yaml: entries['a motion.'].sise: unknown key(s) ['sise']; expected only size, colour.",
    ]
