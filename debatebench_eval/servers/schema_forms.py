"""A reply schema in the strongest form each kind of server enforces.

Servers turn a JSON schema into a grammar (llama.cpp's and llama-cpp-python's
servers, Ollama) or a constrained decoder (OpenAI's strict structured output),
and each honours a different set of keywords. A keyword a server ignores is a
rule the model may break; a keyword it refuses fails the call. So every rule
is sent in a form the server keeps:

- llama-cpp-python (`llama_cpp/llama_grammar.py`, 0.3.x) ignores `minimum`
  and `maximum` on integers and numbers; it honours `enum`, `const`,
  `minItems`/`maxItems`, `minLength`/`maxLength` and `pattern`. Ranges are
  sent as an `enum` of their values.
- llama.cpp's `llama-server` and Ollama (which uses llama.cpp's converter,
  `common/json-schema-to-grammar.cpp`) honour `minimum`/`maximum` on integers
  only; number ranges are sent as an `enum`.
- OpenAI's strict mode and other hosted providers get the schema as built;
  OpenAI documents `pattern`, `minimum`/`maximum` and `minItems`/`maxItems`
  as supported in strict mode.

The check of the reply (`core.reply_model.check_reply`) keeps every rule in
any case: a server that ignores one only costs a repair re-ask.
"""

from __future__ import annotations

from typing import Any

from debatebench_eval.servers.kind import ServerKind

# The most values a range may expand to; wider ranges keep their bounds only.
MAX_ENUM_VALUES = 1001
# A number range (a confidence from 0 to 1, say) as an enum: in these steps.
NUMBER_STEPS = 20


def server_schema(schema: dict[str, Any], kind: ServerKind | None) -> dict[str, Any]:
    """`schema` rewritten for `kind` (None: a hosted provider, sent as built)."""
    rewritten: dict[str, Any] = schema
    if kind == "llama-cpp-python":
        rewritten = _rewrite(schema, integers=True)
    elif kind in ("llama.cpp", "ollama"):
        rewritten = _rewrite(schema, integers=False)
    return rewritten


def _rewrite(node: Any, *, integers: bool) -> Any:
    if isinstance(node, list):
        return [_rewrite(item, integers=integers) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _rewrite(value, integers=integers) for key, value in node.items()}
    if "properties" in node:
        out["properties"] = {
            name: _rewrite(sub, integers=integers) for name, sub in node["properties"].items()
        }
    kind = node.get("type")
    values: list[int] | list[float] | None
    if "enum" in node or "const" in node or not ("minimum" in node and "maximum" in node):
        return out
    if kind == "integer" and integers:
        values = _integers(node["minimum"], node["maximum"])
    elif kind == "number":
        values = _numbers(node["minimum"], node["maximum"])
    else:
        return out
    if values is not None:
        out["enum"] = values
    return out


def _integers(low: int, high: int) -> list[int] | None:
    if high - low + 1 > MAX_ENUM_VALUES:
        return None
    return list(range(int(low), int(high) + 1))


def _numbers(low: float, high: float) -> list[float]:
    step = (high - low) / NUMBER_STEPS
    return [round(low + step * i, 6) for i in range(NUMBER_STEPS + 1)]
