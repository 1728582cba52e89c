"""The crucible's prompt templates and scoring dimensions, read from the shipped data.

Debater prompts live in tasks/crucible/prompts.yaml, judge prompts with the six
scoring dimensions and their weights in scorers/crucible.yaml. Both are fixed
text: prompts must be byte-stable from run to run, so a retried sample's calls
are found in Inspect's cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from debatebench_eval.core.resources import data_file
from debatebench_eval.core.yamlio import load_yaml

SIDE_LABELS = {"pro": "PRO", "con": "CON"}


@dataclass(frozen=True)
class SidePrompts:
    system: str
    queries: str
    claims: str
    turn: str
    tasks: dict[str, str]
    steelman: str
    repair: str


@dataclass(frozen=True)
class JudgePrompts:
    system: str
    dimensions: dict[str, str]
    weights: dict[str, float]
    bias_dimensions: dict[str, str]
    neutral: str
    conflicts: str
    review: str
    review_steelman: str
    scores: str
    audit: str
    repair: str

    def dimension_text(self) -> str:
        return "\n".join(f"- {name}: {text}" for name, text in self.dimensions.items())

    def bias_text(self) -> str:
        return "\n".join(f"- {name}: {text}" for name, text in self.bias_dimensions.items())


@cache
def side_prompts() -> SidePrompts:
    data: dict[str, Any] = load_yaml(data_file("tasks", "crucible", "prompts.yaml"), "prompts")
    return SidePrompts(**data)


@cache
def judge_prompts() -> JudgePrompts:
    data: dict[str, Any] = load_yaml(data_file("scorers", "crucible.yaml"), "judge prompts")
    total = sum(data["weights"].values())
    data["weights"] = {name: weight / total for name, weight in data["weights"].items()}
    assert list(data["weights"]) == list(data["dimensions"]), "a weight for every dimension"
    return JudgePrompts(**data)


def side_system(side: str, question: str, positions: dict[str, str], context: str) -> str:
    other = "con" if side == "pro" else "pro"
    return side_prompts().system.format(
        label=SIDE_LABELS[side],
        question=question,
        position=positions[side],
        opponent=positions[other],
        context=context or "(none given)",
    )
