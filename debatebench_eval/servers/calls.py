"""One model call's settings, and what of its reply is text.

Shared by debaters, judges and the validation judge, so every call applies
the same rules.
"""

from __future__ import annotations

import re

from inspect_ai.model import GenerateConfig, Model

from debatebench_eval.core._inspect import active_generate_config

# Some servers leave reasoning inside the content; it is never speech.
_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL | re.IGNORECASE)


def call_config(
    model: Model, budget: int, seed: int, reasoning_budget: int | None = None
) -> GenerateConfig:
    """The settings for one call: the command line's generate settings (which
    Inspect gives only to the main model), then the role's own settings, then
    the turn's budget and seed, which always win.

    With a reasoning budget, `budget` is the answer's: providers count thinking
    inside max_tokens (OpenAI's completion_tokens, Anthropic's max_tokens,
    Gemini's output), so the cap sent is both together, and the reasoning
    budget goes as Inspect's reasoning_tokens to the providers that take it.
    """
    base = active_generate_config().merge(model.config)
    if reasoning_budget is None:
        return base.merge(GenerateConfig(max_tokens=budget, seed=seed))
    return base.merge(
        GenerateConfig(
            max_tokens=completion_cap(budget, reasoning_budget),
            reasoning_tokens=reasoning_budget,
            seed=seed,
        )
    )


def completion_cap(budget: int, reasoning_budget: int | None) -> int:
    """The max_tokens a call is sent: the answer's budget plus any reasoning budget."""
    return budget + (reasoning_budget or 0)


def without_reasoning(text: str) -> str:
    """The text with any <think> block (closed or cut off) removed."""
    return _THINK.sub("", text)
