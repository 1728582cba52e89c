"""Coerce and check task and scorer arguments as they arrive from `-T` / `-S`.

Inspect hands `-T` values over YAML-parsed and comma-split, coerces nothing
and only warns about unknown keys (an unknown `-S` key is a TypeError with a
traceback). These helpers turn each value into its declared type or raise
one ConfigError naming the argument as the user typed it. The label is
always given, never read from process state: `text`, `boolean`, ... take it
whole (`-S judging.judge_budget`); the `as_*` forms name a task's `-T NAME`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from debatebench_eval.core.errors import ConfigError

# Inspect passes the model to every task factory whether or not it asks.
_ALWAYS_PASSED = frozenset({"model"})

# Forms this package no longer takes, each with the one to give instead ({flag}: -T
# or -S). The package was never released, so nothing depends on them: each is one
# error, never accepted in silence.
REMOVED = {
    "judging": "each judging setting as an option of its own, e.g. {flag} judge_budget=1024",
    "run": "each run setting as an option of its own, e.g. {flag} probe=false",
    "deliberation": "each setting as an option of its own, e.g. {flag} final_budget=1500",
    "pro_budget": '{flag} budget="{{pro: N, con: M}}" (a role left out gets the default)',
    "con_budget": '{flag} budget="{{pro: N, con: M}}" (a role left out gets the default)',
    "seed": "Inspect's own --seed (each sample's seed derives from it)",
    "timeout": "Inspect's own --timeout (seconds to wait for one model reply)",
}


def label(name: str, flag: str = "-T") -> str:
    """An argument as the user typed it: `-T budget` or `-S rounds`."""
    return f"{flag} {name}"


def reject_unknown(
    owner: str, extra: Mapping[str, Any], known: Iterable[str], flag: str = "-T"
) -> None:
    """`owner` is what takes the arguments, e.g. "task debate" or "solver deliberate"."""
    unknown = sorted(set(extra) - _ALWAYS_PASSED)
    refuse_removed(unknown, flag)
    if unknown:
        raise ConfigError(
            label(unknown[0], flag),
            f"unknown argument(s) {', '.join(unknown)} for {owner}",
            f"one of {', '.join(sorted(known))}",
        )


def as_text(name: str, value: Any, *, optional: bool = True) -> str | None:
    return text(label(name), value, optional=optional)


def as_bool(name: str, value: Any) -> bool:
    return boolean(label(name), value)


def as_choice(name: str, value: Any, choices: Iterable[str]) -> str:
    return choice(label(name), value, choices)


def as_int(name: str, value: Any, *, minimum: int = 1, optional: bool = True) -> int | None:
    return integer(label(name), value, minimum=minimum, optional=optional)


def as_list(name: str, value: Any) -> list[str] | None:
    return listed(label(name), value)


def refuse_removed(keys: Iterable[str], flag: str = "-T") -> None:
    """One error for the first key given in a form this package no longer takes."""
    for key in keys:
        if key in REMOVED:
            raise ConfigError(
                label(key, flag),
                "a form this package no longer takes",
                REMOVED[key].format(flag=flag),
            )


# The coercions themselves. `where` is the option as the user typed it
# (`-T budget`, `-S judging.judge_budget`).


def text(where: str, value: Any, *, optional: bool = True) -> str | None:
    """A string argument; a comma-split list is joined back as typed."""
    if value is None:
        if optional:
            return None
        raise ConfigError(where, "no value", "a string")
    if isinstance(value, list):
        # Inspect split on bare commas without stripping, so "," restores it.
        return ",".join(str(part) for part in value)
    if isinstance(value, bool):
        raise ConfigError(
            where,
            f"YAML read the value as {value}",
            f"a string; quote it inside the argument, e.g. {where}='\"no\"'",
        )
    return str(value)


def boolean(where: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise ConfigError(where, f"got {value!r}", "true or false")


def choice(where: str, value: Any, choices: Iterable[str]) -> str:
    """One of a fixed set of words."""
    word = value.strip().lower() if isinstance(value, str) else None
    if word is None or word not in choices:
        raise ConfigError(where, f"got {value!r}", " or ".join(choices))
    return word


def integer(where: str, value: Any, *, minimum: int = 1, optional: bool = True) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(where, f"got {value!r}", f"an integer of at least {minimum}")
    return value


def listed(where: str, value: Any) -> list[str] | None:
    """A list argument given as a YAML list, a comma-split list or one string."""
    if value is None:
        return None
    if isinstance(value, str):
        inner = value.strip()
        if inner.startswith("[") and inner.endswith("]"):
            inner = inner[1:-1]
        return [part.strip() for part in inner.split(",") if part.strip()]
    if isinstance(value, list):
        # "-T phases=[a, b]" arrives as ["[a", " b]"] after Inspect's comma split.
        return listed(where, ",".join(str(part) for part in value))
    raise ConfigError(where, f"got {value!r}", "a list such as [a, b]")
