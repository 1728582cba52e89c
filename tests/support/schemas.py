"""A sent reply schema with its local references written out, as a server resolves
them: tests read what each rule is, wherever the schema defines it."""

from __future__ import annotations

from typing import Any

from debatebench_eval.servers.kind import ServerKind
from debatebench_eval.servers.schema_forms import server_schema


def resolved(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with each `{"$ref": "#/$defs/NAME"}` replaced by its definition."""
    definitions = schema.get("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, list):
            return [inline(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return inline(definitions[node["$ref"].rsplit("/", 1)[-1]])
        return {key: inline(value) for key, value in node.items() if key != "$defs"}

    found: dict[str, Any] = inline(schema)
    return found


def sent_resolved(schema: dict[str, Any], kind: ServerKind | None) -> dict[str, Any]:
    """What `kind` of server is sent, references written out."""
    return resolved(server_schema(schema, kind))
