"""Scripted Inspect models: every call recorded, usage always set (so no
tokenizer data is needed, which mockllm would otherwise download)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.model import GenerateConfig, Model, ModelOutput, ModelUsage, get_model


@dataclass
class Call:
    messages: list[Any]
    config: GenerateConfig


@dataclass
class Script:
    """A scripted model that records every call it receives."""

    name: str
    reply: Callable[[int, list[Any], GenerateConfig], ModelOutput] | None = None
    calls: list[Call] = field(default_factory=list)

    def model(self, config: GenerateConfig | None = None) -> Model:
        def respond(
            input: list[Any], tools: Any, tool_choice: Any, config: GenerateConfig
        ) -> ModelOutput:
            self.calls.append(Call(list(input), config))
            if self.reply is not None:
                return self.reply(len(self.calls), input, config)
            return output(self.name, f"{self.name} speaks, call {len(self.calls)}.")

        return get_model(
            f"mockllm/{self.name}", config=config or GenerateConfig(), custom_outputs=respond
        )


def output(model: str, text: str, *, tokens: int = 12, stop: str = "stop") -> ModelOutput:
    out = ModelOutput.from_content(model, text, stop_reason=stop)  # type: ignore[arg-type]
    out.usage = ModelUsage(input_tokens=50, output_tokens=tokens, total_tokens=50 + tokens)
    return out
