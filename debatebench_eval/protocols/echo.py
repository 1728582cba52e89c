"""The echo model: a real Inspect model provider for smoke runs, offline.

heurema's `echo` backend, as an Inspect provider: `--model
debatebench-echo/smoke`, or `backend: echo` in a persona. Every reply is
heurema's canned agreement with a `done` signal, so a panel settles after
two rounds; a call that asks for JSON by schema (structured output, or a
llama.cpp-style `json_object` with a schema) gets an instance of the schema
instead. `max_tokens` is honoured by cutting words, and usage is always
reported (a word is a token), so nothing needs a tokenizer.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

# heurema's cannedReply, verbatim.
CANNED_REPLY = (
    "I agree with the current approach.\n\n"
    "```signal\n"
    '{"position": "agree", "objections": [], "done": true}\n'
    "```"
)


@modelapi(name="debatebench-echo")
class EchoModel(ModelAPI):
    """Replies without a model: heurema's canned agreement, or a schema instance."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        schema = requested_schema(config)
        text = CANNED_REPLY if schema is None else json.dumps(schema_instance(schema))
        stop = "stop"
        words = text.split(" ")
        if config.max_tokens is not None and len(words) > config.max_tokens:
            text, stop = " ".join(words[: config.max_tokens]), "max_tokens"
        output = ModelOutput.from_content(
            model=f"debatebench-echo/{self.model_name}",
            content=text,
            stop_reason=stop,  # type: ignore[arg-type]
        )
        prompt = sum(len(message.text.split()) for message in input)
        reply = len(text.split())
        output.usage = ModelUsage(
            input_tokens=prompt, output_tokens=reply, total_tokens=prompt + reply
        )
        return output


def requested_schema(config: GenerateConfig) -> dict[str, Any] | None:
    """The JSON Schema a call asks its reply to follow, if any."""
    if config.response_schema is not None and config.response_schema.json_schema is not None:
        dumped: dict[str, Any] = config.response_schema.json_schema.model_dump(exclude_none=True)
        return dumped
    response_format = (config.extra_body or {}).get("response_format") or {}
    schema = response_format.get("schema")
    return schema if isinstance(schema, dict) else None


def schema_instance(schema: dict[str, Any]) -> Any:
    """A value valid under the schema: the first enum value (or the const), false,
    the middle of a number's range, "echo" (repeated up to `minLength`), arrays of
    `minItems` items, and objects filled the same way."""
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties") or {}
        return {key: schema_instance(sub) for key, sub in props.items()}
    if kind == "array":
        return [schema_instance(schema.get("items") or {})] * schema.get("minItems", 0)
    if kind == "boolean":
        return False
    if kind in ("number", "integer"):
        low, high = schema.get("minimum", 0), schema.get("maximum", 1)
        middle = (low + high) / 2
        return int(middle) if kind == "integer" else middle
    # k words joined by spaces are 5k - 1 characters: enough of them for minLength.
    words = -(-(schema.get("minLength", 0) + 1) // len("echo "))
    return " ".join(["echo"] * max(words, 1))
