"""What a tournament's debates spent: tokens by model and role, and money where priced.

Read from each debate's own usage in its log (Inspect's per-sample usage by role
and by model): a debater's is its role's (a paired task keeps each model in its
role), a judge's is its model's (less what it spent as a debater, where a model
also judged). Every debate that ran counts, scored or not: its calls were paid
for. A cost is Inspect's own where it priced the calls (`--model-cost-config`
given to the workers, for the models its database knows), else the tokens at the
prices `rate --model-cost-config` gives, else unknown.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

DEBATER, JUDGE = "debater", "judge"


@dataclass(frozen=True)
class Spend:
    """One model's calls in one debate, in one role."""

    model: str
    role: str
    input_tokens: int
    output_tokens: int
    cost: float | None = None  # as Inspect logged it

    def as_dict(self) -> dict[str, Any]:
        return {"model": self.model, "role": self.role, "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens, "cost": self.cost}  # fmt: skip


def debate_spend(
    role_usage: Mapping[str, Any], model_usage: Mapping[str, Any], pair: tuple[str, str]
) -> tuple[Spend, ...]:
    """A debate's spend from its sample's usage (Inspect ModelUsage by role and model)."""
    found = []
    debaters = {"pro": pair[0], "con": pair[1]}
    spent_debating: dict[str, Any] = {}
    for role, model in debaters.items():
        usage = role_usage.get(role)
        if usage is not None:
            found.append(_spend(model, DEBATER, usage))
            spent_debating[model] = usage
    for model, usage in model_usage.items():
        if model in debaters.values():
            usage = _less(usage, spent_debating.get(model))
            if usage is None:
                continue
        found.append(_spend(model, JUDGE, usage))
    return tuple(found)


def _spend(model: str, role: str, usage: Any) -> Spend:
    return Spend(model, role, int(usage.input_tokens), int(usage.output_tokens), usage.total_cost)


def _less(usage: Any, debating: Any) -> Any:
    """A model's usage less its debater role's (None: nothing left, it did not judge)."""
    if debating is None:
        return usage
    left = usage.model_copy(
        update={
            "input_tokens": usage.input_tokens - debating.input_tokens,
            "output_tokens": usage.output_tokens - debating.output_tokens,
            "total_cost": None
            if usage.total_cost is None or debating.total_cost is None
            else usage.total_cost - debating.total_cost,
        }
    )
    return left if left.input_tokens or left.output_tokens else None


def spend_table(
    debates: Sequence[tuple[Spend, ...]], prices: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Tokens and cost by model and role, in all and per debate, over the debates that
    ran (each a debate's spends)."""
    rows: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {
            "debates": 0,
            "input_tokens": 0,
            "output_tokens": 0,
            "cost": 0.0,
            "priced": True,
        }
    )
    for spends in debates:
        for spend in spends:
            row = rows[(spend.model, spend.role)]
            row["debates"] += 1
            row["input_tokens"] += spend.input_tokens
            row["output_tokens"] += spend.output_tokens
            cost = _cost(spend, prices or {})
            row["priced"] = row["priced"] and cost is not None
            row["cost"] += cost or 0.0
    models = [_row(model, role, row) for (model, role), row in sorted(rows.items())]
    ran = len(debates)
    priced = bool(models) and all(m["cost"] is not None for m in models)
    total = sum(m["cost"] for m in models if m["cost"] is not None)
    tokens = sum(m["input_tokens"] + m["output_tokens"] for m in models)
    return {
        "debates": ran,
        "models": models,
        "tokens": tokens,
        "tokens_per_debate": tokens / ran if ran else None,
        "cost": total if priced else None,
        "cost_per_debate": total / ran if priced and ran else None,
        "priced_in_part": not priced and any(m["cost"] is not None for m in models),
    }


def _cost(spend: Spend, prices: Mapping[str, Any]) -> float | None:
    if spend.cost is not None:
        return spend.cost
    price = prices.get(spend.model)
    if price is None:
        return None
    return float(spend.input_tokens * price.input + spend.output_tokens * price.output) / 1e6


def _row(model: str, role: str, row: dict[str, Any]) -> dict[str, Any]:
    debates = row["debates"]
    cost = row["cost"] if row["priced"] else None
    return {
        "model": model,
        "role": role,
        "debates": debates,
        "input_tokens": row["input_tokens"],
        "output_tokens": row["output_tokens"],
        "tokens_per_debate": (row["input_tokens"] + row["output_tokens"]) / debates,
        "cost": cost,
        "cost_per_debate": cost / debates if cost is not None else None,
    }
