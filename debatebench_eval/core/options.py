"""Option groups: the typed layer every task and scorer option goes through.

A group (the judging settings, say) is one pydantic model, declared once and
taken by every task and scorer that needs it as one option holding a mapping
(`-T judging="{judge_budget: 1024}"`), or, under the names it had before it
was a group, one flat option per key (`-T judge_budget=1024`, still accepted
with a message naming the group form). A group whose flat form is the primary,
documented one (`FLAT_PRIMARY`: the run settings, `-T seed=3`) takes its flat
keys with no message. Each field coerces with the helpers
in `arguments`, and the label of a bad value (the option as the user typed
it, with `-T` or `-S`) travels in the validation context: nothing depends on
which call ran first.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationInfo

from debatebench_eval.core.errors import ConfigError

logger = logging.getLogger(__name__)


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
    """Options that belong together, given as one mapping option named `GROUP`."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)
    GROUP: ClassVar[str]
    # The flat form (`-T seed=3`) is the documented one: accepted with no message.
    FLAT_PRIMARY: ClassVar[bool] = False

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
    def gather(cls, group: Any, flat: Mapping[str, Any], taker: Taker) -> Given:
        """The group's values from its mapping option and any key given flat.

        `flat` holds the other options the taker received (its `**unknown`): a key
        of the group among them is accepted with a message naming the group form;
        any other key is one error naming the taker and its own options."""
        keys = cls.option_keys() if taker.accepts is None else taker.accepts
        values, labels = _from_mapping(cls, group, taker.flag, keys)
        for key, value in flat.items():
            if key == "model" or value is None:  # Inspect passes the model to every task
                continue
            where = f"{taker.flag} {key}"
            if key not in keys:
                raise ConfigError(
                    where,
                    f"unknown argument(s) {', '.join(sorted(set(flat) - {'model'}))} "
                    f"for {taker.owner}",
                    f"one of {', '.join(sorted((*taker.known, cls.GROUP)))}, "
                    f"or a key of {taker.flag} {cls.GROUP}: {', '.join(keys)}",
                )
            if key in values:
                raise ConfigError(where, f"given also as {labels[key]}", "each setting once")
            if not cls.FLAT_PRIMARY:
                logger.warning(
                    '%s is accepted as %s %s="{%s: ...}"; give it in that form.',
                    where, taker.flag, cls.GROUP, key,
                )  # fmt: skip
            values[key], labels[key] = value, where
        return Given(values, labels)

    @classmethod
    def taken(cls, flat: dict[str, Any], taker: Taker) -> Given:
        """The group's values, its mapping option and its flat keys moved out of `flat`
        (a task's `**unknown`), which then holds only what other groups may read."""
        keys = cls.option_keys() if taker.accepts is None else taker.accepts
        group = flat.pop(cls.GROUP, None)
        own = {key: flat.pop(key) for key in keys if key in flat}
        return cls.gather(group, own, taker)

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
    def parse(cls, group: Any, flat: Mapping[str, Any], taker: Taker) -> Self:
        """`gather` then `checked`, for a taker with no defaults of its own."""
        if isinstance(group, cls) and not flat:
            return group  # already checked, by the task that built this scorer
        return cls.checked(cls.gather(group, flat, taker))


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
    """A scorer's only option is the group (`inspect score -S judging=...`), all of it:
    `inspect score LOG` builds the scorer again from the whole group the log recorded,
    and a task narrows the group to what it reads before its scorers see it."""
    return Taker(f"scorer {name}", "-S", ("judging",))


def _from_mapping(
    cls: type[OptionGroup], group: Any, flag: str, keys: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, str]]:
    where = f"{flag} {cls.GROUP}"
    if group is None:
        return {}, {}
    if isinstance(group, OptionGroup):
        group = group.given_values()
    if not isinstance(group, Mapping):
        raise ConfigError(
            where, f"got {group!r}", f'a mapping such as {where}="{{{keys[0]}: ...}}"'
        )
    unknown = sorted(str(key) for key in group if key not in keys)
    if unknown:
        raise ConfigError(
            f"{where}.{unknown[0]}",
            f"unknown key(s) {', '.join(unknown)}",
            f"one of {', '.join(keys)}",
        )
    values = {str(key): value for key, value in group.items()}
    return values, {key: f"{where}.{key}" for key in values}
