"""Shared helpers: scripted Inspect models (usage always set, so no tokenizer
data is needed) and a fresh log directory per test."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, Model, ModelOutput, ModelUsage, get_model

from debatebench_eval.task import debate


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


@pytest.fixture(autouse=True)
def private_trust_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Judge trust records go to a per-test folder, never the user's own."""
    folder = tmp_path / "trust"
    monkeypatch.setenv("DEBATEBENCH_EVAL_TRUST_DIR", str(folder))
    return folder


@pytest.fixture
def run_debate(tmp_path: Path) -> Callable[..., EvalLog]:
    def run(
        *,
        roles: dict[str, Model] | None = None,
        main: Model | None = None,
        eval_args: dict[str, Any] | None = None,
        **task_args: Any,
    ) -> EvalLog:
        task_args.setdefault("motion", "Cities should ban cars from their centres.")
        logs = eval(
            debate(**task_args),
            model=main or Script("main").model(),
            model_roles=roles or {},
            log_dir=str(tmp_path / "logs"),
            display="none",
            **(eval_args or {}),
        )
        return logs[0]

    return run
