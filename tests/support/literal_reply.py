"""The reply a model gives that follows a schema at its most literal.

Whether a grammar server could emit a reply at all is `support.grammar`'s.
"""

from __future__ import annotations

from typing import Any

from support.schemas import resolved


def first_instance(schema: dict[str, Any]) -> Any:
    """The first enum value, the least value of a range, the fewest items allowed, a
    short word for text (protocols.echo.schema_instance, honouring minItems); a
    schema's `$defs` are written out first, as a server resolves them."""
    if "$defs" in schema:
        schema = resolved(schema)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {key: first_instance(sub) for key, sub in schema["properties"].items()}
    if kind == "array":
        return [first_instance(schema["items"]) for _ in range(schema.get("minItems", 0))]
    if kind == "boolean":
        return False
    if kind in ("number", "integer"):
        return schema.get("minimum", 0)
    return "echo"
