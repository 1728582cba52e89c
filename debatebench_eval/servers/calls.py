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


def call_config(model: Model, budget: int, seed: int) -> GenerateConfig:
    """The settings for one call: the command line's generate settings (which
    Inspect gives only to the main model), then the role's own settings, then
    the turn's budget and seed, which always win."""
    base = active_generate_config().merge(model.config)
    return base.merge(GenerateConfig(max_tokens=budget, seed=seed))


def without_reasoning(text: str) -> str:
    """The text with any <think> block (closed or cut off) removed."""
    return _THINK.sub("", text)
