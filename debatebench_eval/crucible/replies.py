"""Small value checks shared by the crucible's reply checkers.

JSON from a model is untyped: a score may arrive as `true`, `"4"` or `4.5`.
These say whether a value is exactly what a reply shape asks for.
"""

from __future__ import annotations

from typing import Any


def whole(value: Any, low: int, high: int) -> int | None:
    """The value if it is a whole number (not a bool) from low to high, else None."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def text(value: Any) -> str | None:
    """The value stripped, if it is a non-empty string, else None."""
    return value.strip() if isinstance(value, str) and value.strip() else None


def label(value: Any) -> str:
    """A label or id as a model may write it ("[K3]", " k3 "), for lookup."""
    return value.strip().strip("[]").strip() if isinstance(value, str) else repr(value)


TEXT: dict[str, Any] = {"type": "string"}
INTEGER: dict[str, Any] = {"type": "integer"}
NUMBER: dict[str, Any] = {"type": "number"}


def obj(properties: dict[str, Any]) -> dict[str, Any]:
    """A JSON Schema object whose every property is required and no other allowed
    (what providers' strict structured output demands)."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}
