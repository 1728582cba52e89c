"""Option groups: the typed layer every task and scorer option goes through.

A group (the judging settings, say) is one pydantic model, declared once and
taken by every task and scorer that needs it as one option holding a mapping
(`-T judging="{judge_budget: 1024}"`), or, under the names it had before it
was a group, one flat option per key (`-T judge_budget=1024`, still accepted
with a message naming the group form). Each field coerces with the helpers
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


def label_of(info: ValidationInfo) -> str:
    """The label of the field being validated (`-T judge_budget`)."""
    assert info.field_name is not None
    labels: Mapping[str, str] = (info.context or {}).get("labels", {})
    return labels.get(info.field_name, f"-T {info.field_name}")


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
    def gather(
        cls,
        group: Any,
        flat: Mapping[str, Any],
        *,
        flag: str = "-T",
        owner: str,
        known: Iterable[str] = (),
        accepts: Iterable[str] | None = None,
    ) -> Given:
        """The group's values from its mapping option and any key given flat.

        `flat` holds the other options the task or scorer received (its `**unknown`):
        a key of the group among them is accepted with a message naming the group
        form; any other key is one error naming `owner` and its `known` options.
        `accepts` narrows the group to the keys `owner` reads (default: all)."""
        keys = cls.option_keys() if accepts is None else tuple(accepts)
        values, labels = _from_mapping(cls, group, flag, keys)
        for key, value in flat.items():
            if key == "model" or value is None:  # Inspect passes the model to every task
                continue
            if key not in keys:
                raise ConfigError(
                    f"{flag} {key}",
                    f"unknown argument(s) {', '.join(sorted(set(flat) - {'model'}))} for {owner}",
                    f"one of {', '.join(sorted((*known, cls.GROUP)))}, "
                    f"or a key of {flag} {cls.GROUP}: {', '.join(keys)}",
                )
            if key in values:
                raise ConfigError(
                    f"{flag} {key}", f"given also as {labels[key]}", "each setting once"
                )
            logger.warning(
                "%s %s is accepted as %s %s=\"{%s: ...}\"; give it in that form.",
                flag, key, flag, cls.GROUP, key,
            )  # fmt: skip
            values[key], labels[key] = value, f"{flag} {key}"
        return Given(values, labels)

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
    def parse(
        cls,
        group: Any,
        flat: Mapping[str, Any],
        *,
        flag: str = "-T",
        owner: str,
        known: Iterable[str] = (),
        accepts: Iterable[str] | None = None,
    ) -> Self:
        """`gather` then `checked`, for a caller with no defaults of its own."""
        if isinstance(group, cls) and not flat:
            return group  # already checked, by the task that built this scorer
        given = cls.gather(group, flat, flag=flag, owner=owner, known=known, accepts=accepts)
        return cls.checked(given)


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
