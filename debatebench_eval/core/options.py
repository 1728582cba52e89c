"""Option groups: the typed layer every task and scorer option goes through.

A group (the judging settings, say) is one pydantic model, declared once and
taken by every task and scorer that needs it, one flat option per key
(`-T judge_budget=1024`, `-S judge_budget=1024`): the one documented form, the
one that reads best on an `inspect eval` line, as Inspect's own `-T`. A form
the package no longer takes (a grouped mapping, a pre-release name, an option
Inspect has itself) is one error naming the form to give (`REMOVED`). Each
field coerces with the helpers in `arguments`, and the label of a bad value
(the option as the user typed it, with `-T` or `-S`) travels in the
validation context: nothing depends on which call ran first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationInfo

from debatebench_eval.core.arguments import refuse_removed
from debatebench_eval.core.errors import ConfigError


@dataclass(frozen=True)
class Given:
    """A group's values as the user gave them, each key with its label."""

    values: dict[str, Any]
    labels: dict[str, str]


def labelled(info: ValidationInfo, key: str) -> str:
    """A key of the group being validated as the user gave it (`-T judge_budget`)."""
    labels: Mapping[str, str] = (info.context or {}).get("labels", {})
    return labels.get(key, f"-T {key}")


def label_of(info: ValidationInfo) -> str:
    """The label of the field being validated."""
    assert info.field_name is not None
    return labelled(info, info.field_name)


def coerced(convert: Callable[..., Any], *, default: Any = None, **settings: Any) -> Any:
    """A field validator from a coercion of `arguments`; a missing value is `default`."""

    def validate(value: Any, info: ValidationInfo) -> Any:
        if value is None:
            return default
        result = convert(label_of(info), value, **settings)
        return default if result is None else result

    return BeforeValidator(validate)


class OptionGroup(BaseModel):
    """Options that belong together (`GROUP` names them in messages and listings),
    each given as an option of its own."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)
    GROUP: ClassVar[str]

    def given_values(self) -> dict[str, Any]:
        """The values as options would give them again (a loaded file as its path)."""
        return self.model_dump()

    @classmethod
    def option_keys(cls) -> tuple[str, ...]:
        return tuple(cls.model_fields)

    @classmethod
    def options_doc(cls) -> list[str]:
        """One line per key, for `debatebench-eval list`."""
        return [f"{key}: {field.description}" for key, field in cls.model_fields.items()]

    @classmethod
    def gather(cls, flat: Mapping[str, Any], taker: Taker) -> Given:
        """The group's values among the options the taker received (its `**unknown`).

        Any other key is one error: a form no longer taken names the form to give
        (`arguments.REMOVED`), an unknown one the taker's options."""
        keys = cls.option_keys() if taker.accepts is None else taker.accepts
        # Inspect passes the model to every task; None is "not given".
        given = {k: v for k, v in flat.items() if k != "model" and v is not None}
        unknown = sorted(set(given) - set(keys))
        if unknown:
            refuse_removed(unknown, taker.flag)
            raise ConfigError(
                f"{taker.flag} {unknown[0]}",
                f"unknown argument(s) {', '.join(unknown)} for {taker.owner}",
                f"one of {', '.join(sorted({*taker.known, *keys}))}",
            )
        return Given(given, {key: f"{taker.flag} {key}" for key in given})

    @classmethod
    def taken(cls, flat: dict[str, Any], taker: Taker) -> Given:
        """The group's values, its keys moved out of `flat` (a task's `**unknown`),
        which then holds only what other groups may read."""
        keys = cls.option_keys() if taker.accepts is None else taker.accepts
        return cls.gather({key: flat.pop(key) for key in keys if key in flat}, taker)

    @classmethod
    def checked(cls, given: Given, defaults: Mapping[str, Any] | None = None) -> Self:
        """The group, every value coerced; `defaults` fill keys not given."""
        # None is "not given", as a factory's default says; a default the group has
        # no field for belongs to another group of the same file.
        values = {
            key: value
            for source in (defaults or {}, given.values)
            for key, value in source.items()
            if value is not None and key in cls.model_fields
        }
        return cls.model_validate(values, context={"labels": given.labels})

    @classmethod
    def parse(cls, flat: Mapping[str, Any], taker: Taker) -> Self:
        """`gather` then `checked`, for a taker with no defaults of its own."""
        return cls.checked(cls.gather(flat, taker))


@dataclass(frozen=True)
class Taker:
    """What takes a group: `owner` ("task debate"), the flag its options come with,
    its own options (`known`, for the unknown-key message) and the group's keys it
    reads (`accepts`; None: all)."""

    owner: str
    flag: str = "-T"
    known: tuple[str, ...] = ()
    accepts: tuple[str, ...] | None = None


def task_taker(name: str, known: Iterable[str], accepts: Iterable[str] | None = None) -> Taker:
    return Taker(f"task {name}", "-T", tuple(known), None if accepts is None else tuple(accepts))


def scorer_taker(name: str) -> Taker:
    """A scorer takes every key of its group (`inspect score -S judge_budget=900`):
    `inspect score LOG` builds the scorer again from the keys the log recorded, and a
    task narrows the group to what it reads before its scorers see it."""
    return Taker(f"scorer {name}", "-S")
