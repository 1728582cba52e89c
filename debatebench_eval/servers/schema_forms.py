"""A reply schema in the strongest form each kind of server enforces.

Servers turn a JSON schema into a grammar (llama.cpp's and llama-cpp-python's
servers, Ollama) or a constrained decoder (OpenAI's strict structured output),
and each honours a different set of keywords. A keyword a server ignores is a
rule the model may break; a keyword it refuses fails the call. So every rule
is sent in a form the server keeps (each established from the server's source):

- llama-cpp-python 0.3.x (`llama_cpp/llama_grammar.py`, its `SchemaConverter`)
  honours `enum`, `const`, `minItems`/`maxItems`, `pattern` and, on a string
  without a pattern, `minLength`/`maxLength`; it ignores `minimum`/`maximum`
  on integers and numbers ("TODO: support minimum, maximum"). Ranges are sent
  as an `enum` of their values.
- llama.cpp's `llama-server` (`common/json-schema-to-grammar.cpp`) honours the
  same and also `minimum`/`maximum` (and the exclusive forms) on integers, not
  on numbers: number ranges are sent as an `enum`. Ollama converts a `format`
  schema with the same C++ converter (`llama.SchemaToGrammar`), so it gets the
  same form; Inspect's Ollama provider would strip `pattern`, lengths and
  ranges from a response schema, so `judging.options.judge_config` sends
  Ollama the schema itself.
- In both converters a string's `pattern` wins over its `minLength` and
  `maxLength`, so text patterns carry their lengths themselves
  (`core.reply_model.text_pattern`).
- Hosted providers (no server URL) and other servers get Inspect's structured
  output with `strict` on. OpenAI's strict mode accepts `enum`, `pattern`,
  `minimum`/`maximum` and `minItems`/`maxItems` and refuses `minLength`/
  `maxLength` (the keywords pydantic-ai strips for OpenAI strict mode), so the
  lengths are dropped (the pattern keeps them). Inspect's `JSONSchema` has no
  `minItems`/`maxItems` and its OpenAI-compatible and Anthropic providers
  strip `pattern`, lengths and ranges, so integer ranges also go as an
  `enum`, the one form every provider passes on (number ranges keep their
  bounds, which OpenAI enforces); counts reach those servers only through the
  prompt and the check.

The check of the reply (`core.reply_model.check_reply`) keeps every rule in
any case: a server that ignores one only costs a repair re-ask.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from debatebench_eval.servers.kind import ServerKind

# The most values a range may expand to; wider ranges keep their bounds only.
MAX_ENUM_VALUES = 1001
# A number range (a confidence from 0 to 1, say) as an enum: in these steps.
NUMBER_STEPS = 20
# Keywords OpenAI's strict structured output refuses with an "Invalid schema".
STRICT_REFUSED = frozenset({"minLength", "maxLength"})


def server_schema(schema: dict[str, Any], kind: ServerKind | None) -> dict[str, Any]:
    """`schema` rewritten for `kind` (None: a hosted provider): a copy of its own."""
    rewritten: dict[str, Any] = json.loads(_rewritten(json.dumps(schema), kind))
    return rewritten


@functools.lru_cache(maxsize=256)  # a crucible's evidence enums make a schema per debate
def _rewritten(text: str, kind: ServerKind | None) -> str:
    # Rewritten once per content: a judge's schema is the same for every debate.
    form = _form(kind)
    rewritten = _rewrite(json.loads(text), form)
    return json.dumps(factored(rewritten) if form.references else rewritten)


def _form(kind: ServerKind | None) -> _Form:
    if kind == "llama-cpp-python":
        return _Form(integers=True, numbers=True, references=True)
    if kind in ("llama.cpp", "ollama"):
        return _Form(integers=False, numbers=True, references=True)
    # Number ranges stay bounds here: OpenAI enforces them, and an enum would
    # round a confidence of 0.83 to a step. Inspect's JSONSchema has no `$ref`.
    return _Form(integers=True, numbers=False, dropped=STRICT_REFUSED)


@dataclass(frozen=True)
class _Form:
    """What a kind of server needs rewritten: which ranges go as an enum, which
    keywords it refuses."""

    integers: bool
    numbers: bool
    dropped: frozenset[str] = frozenset()
    # A subschema used more than once is defined once (`$defs`) and referred to.
    references: bool = False


# Keywords a node's other keywords already carry: a text pattern its lengths (both
# converters and OpenAI's strict mode let the pattern win), a range sent as an enum
# its bounds.
_CARRIED_BY = {"pattern": ("minLength", "maxLength"), "enum": ("minimum", "maximum")}


def _rewrite(node: Any, form: _Form) -> Any:
    if isinstance(node, list):
        return [_rewrite(item, form) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _rewrite(value, form) for key, value in node.items() if key not in form.dropped}
    if "properties" in node:
        # The properties' own names are data, not keywords: never dropped.
        out["properties"] = {name: _rewrite(sub, form) for name, sub in node["properties"].items()}
    values = _range_values(node, form)
    if values is not None:
        out["enum"] = values
    for carrier, carried in _CARRIED_BY.items():
        if carrier in out and out.get("type") in ("string", "integer"):
            for key in carried:
                out.pop(key, None)
    return out


# A subschema shorter than this (as JSON) is written out where it is used: a
# reference and its definition would be about as long.
_SHORTEST_DEFINED = 60


def factored(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with each subschema it holds more than once defined once in `$defs`
    and referred to by `$ref` (both llama.cpp converters resolve local references, and
    turn each definition into one grammar rule). The longest repeat goes first, so a
    repeat inside a repeat is defined inside its definition."""
    body = dict(schema)
    definitions: dict[str, Any] = {}
    while (repeated := _longest_repeat([body, *definitions.values()])) is not None:
        text, first = repeated
        name = f"d{len(definitions)}"
        reference = {"$ref": f"#/$defs/{name}"}
        body = _replaced(body, text, reference)
        definitions = {key: _replaced(value, text, reference)
                       for key, value in definitions.items()}  # fmt: skip
        # As written (not as compared): a grammar writes properties in their order.
        definitions[name] = first
    return {**body, "$defs": definitions} if definitions else body


def _longest_repeat(roots: list[Any]) -> tuple[str, Any] | None:
    counts: dict[str, int] = {}
    nodes: dict[str, Any] = {}
    for root in roots:
        for text, node in _subschemas(root, top=True):
            counts[text] = counts.get(text, 0) + 1
            nodes.setdefault(text, node)
    repeats = [text for text, n in counts.items() if n > 1 and len(text) >= _SHORTEST_DEFINED]
    longest = max(repeats, key=lambda text: (len(text), text), default=None)
    return None if longest is None else (longest, nodes[longest])


def _subschemas(node: Any, top: bool = False) -> list[tuple[str, Any]]:
    """Every subschema under `node` (not `node` itself when `top`): its canonical JSON
    (what two equal subschemas share whatever their keys' order) and itself."""
    found: list[tuple[str, Any]] = []
    if isinstance(node, list):
        for item in node:
            found += _subschemas(item)
        return found
    if not isinstance(node, dict):
        return found
    if not top:
        found.append((json.dumps(node, sort_keys=True), node))
    for key, value in node.items():
        if key == "properties":  # a map of names to subschemas, not a subschema
            for sub in value.values():
                found += _subschemas(sub)
        elif key in ("items", "anyOf", "additionalProperties"):
            found += _subschemas(value)
    return found


def _replaced(node: Any, target: str, reference: dict[str, str]) -> Any:
    if isinstance(node, list):
        return [_replaced(item, target, reference) for item in node]
    if not isinstance(node, dict):
        return node
    if json.dumps(node, sort_keys=True) == target:
        return dict(reference)
    return {key: _replaced(value, target, reference) for key, value in node.items()}


def _range_values(node: dict[str, Any], form: _Form) -> list[Any] | None:
    """The values of a bounded range the server would not enforce, else None."""
    if "enum" in node or "const" in node or not ("minimum" in node and "maximum" in node):
        return None
    if node.get("type") == "integer" and form.integers:
        return _integers(node["minimum"], node["maximum"])
    if node.get("type") == "number" and form.numbers:
        return _numbers(node["minimum"], node["maximum"])
    return None


def _integers(low: int, high: int) -> list[int] | None:
    if high - low + 1 > MAX_ENUM_VALUES:
        return None
    return list(range(int(low), int(high) + 1))


def _numbers(low: float, high: float) -> list[float]:
    step = (high - low) / NUMBER_STEPS
    return [round(low + step * i, 6) for i in range(NUMBER_STEPS + 1)]
