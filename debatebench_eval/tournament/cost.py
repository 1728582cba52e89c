"""What a tournament's debates cost: calls and tokens before they run, and money where
the models are priced.

The estimate multiplies one debate's calls at their caps (`debate.call_shape`:
each turn's and each judge call's most tokens in and out) by the debates each
pair still has to run: the pro role's model makes the pro calls (a paired task
keeps each model in its role, sides exchanged), every judge makes its readings,
the first judge the fact-check. It is a ceiling (replies stop short of their
caps), counted in tokens per model and per role.

Prices are Inspect's model-cost file (`--model-cost-config`, as `inspect eval`
takes it: per model, US dollars per million input, output, cache-write and
cache-read tokens). Inspect itself prices only the models its database knows
(hosted ones); the file's other models (a local server's, say) are priced here
from their tokens, and only the known ones are passed to Inspect, where
`--cost-limit` can stop a debate that goes over.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.debating.call_shape import CallBound

DEBATER, JUDGE = "debater", "judge"


@dataclass(frozen=True)
class Tokens:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: Tokens) -> Tokens:
        return Tokens(self.calls + other.calls, self.input_tokens + other.input_tokens,
                      self.output_tokens + other.output_tokens)  # fmt: skip

    def times(self, n: int) -> Tokens:
        return Tokens(self.calls * n, self.input_tokens * n, self.output_tokens * n)

    def cost(self, price: Any) -> float:
        """US dollars at `price` (an Inspect ModelCost: dollars per million tokens)."""
        return float(self.input_tokens * price.input + self.output_tokens * price.output) / 1e6


# model -> role -> tokens
Estimate = dict[str, dict[str, Tokens]]


def debate_tokens(
    bounds: Sequence[CallBound], pro: str, con: str, judges: Sequence[str]
) -> Estimate:
    """One debate's calls at their caps, by model and role."""
    found: dict[str, dict[str, Tokens]] = defaultdict(lambda: defaultdict(Tokens))
    for bound in bounds:
        one = Tokens(1, bound.input_tokens, bound.output_tokens).times(bound.times)
        if bound.caller in ("pro", "con"):
            model = pro if bound.caller == "pro" else con
            found[model][DEBATER] += one
        elif bound.caller == "judge":
            for judge in judges:
                found[judge][JUDGE] += one
        elif judges:  # the fact-check: the first judge's
            found[judges[0]][JUDGE] += one
    return {model: dict(roles) for model, roles in found.items()}


def estimate(
    bounds: Sequence[CallBound], pairs: Iterable[tuple[str, str, int]], judges: Sequence[str]
) -> Estimate:
    """Every debate still to run, `pairs` giving (pro role's model, con role's, debates)."""
    total: dict[str, dict[str, Tokens]] = defaultdict(lambda: defaultdict(Tokens))
    for a, b, debates in pairs:
        for model, roles in debate_tokens(bounds, a, b, judges).items():
            for role, tokens in roles.items():
                total[model][role] += tokens.times(debates)
    return {model: dict(roles) for model, roles in sorted(total.items())}


def read_prices(path: str, where: str = "--model-cost-config") -> dict[str, Any]:
    """The model-cost file: model name -> Inspect ModelCost, every entry checked."""
    from inspect_ai.model import ModelCost

    data = load_yaml(Path(path).expanduser(), "model prices")
    if not isinstance(data, dict) or not data:
        raise ConfigError(
            f"{where} {path}",
            "no model in it",
            "a mapping of model name to its prices (input, output, input_cache_write, "
            "input_cache_read: dollars per million tokens)",
        )
    prices = {}
    for model, entry in data.items():
        try:
            prices[str(model)] = ModelCost.model_validate(entry)
        except ValidationError as exc:
            problem = exc.errors()[0]
            field = ".".join(map(str, problem["loc"])) or "the entry"
            raise ConfigError(
                f"{where} {path}: {model}.{field}", problem["msg"].lower(),
                "input, output, input_cache_write and input_cache_read, each a number of "
                "dollars per million tokens",
            ) from None  # fmt: skip
    return prices


def known_to_inspect(prices: Mapping[str, Any]) -> dict[str, Any]:
    """The prices of the models Inspect's database knows: the ones Inspect itself takes
    (it refuses to price any other)."""
    from inspect_ai.model import get_model_info

    return {model: price for model, price in prices.items() if get_model_info(model) is not None}


def check_cost_limit(limit: float | None, models: Iterable[str], prices: Mapping[str, Any]) -> None:
    """A cost limit needs every model priced where Inspect counts the cost."""
    if limit is None:
        return
    if limit <= 0:
        raise ConfigError("--cost-limit", f"got {limit:g}", "dollars per debate, more than 0")
    counted = known_to_inspect(prices)
    unpriced = [model for model in models if model not in counted]
    if unpriced:
        raise ConfigError(
            "--cost-limit",
            f"{unpriced[0]} has no price Inspect can count"
            + ("" if unpriced[0] in prices else " (not in --model-cost-config)"),
            "every debater and judge priced in --model-cost-config and known to Inspect's "
            "model database (a hosted model); or no --cost-limit",
        )


def lines(found: Estimate, prices: Mapping[str, Any], debates: int) -> list[str]:
    """The estimate as the plan prints it: one line per model and role, then the total."""
    calls = sum(t.calls for roles in found.values() for t in roles.values())
    out = [f"cost of the {debates} debate(s) to run: {calls:,} model calls; tokens at the "
           "budgets (a ceiling: replies stop short of their caps):"]  # fmt: skip
    total_cost, unpriced = 0.0, []
    for model, roles in found.items():
        for role, tokens in roles.items():
            price = prices.get(model)
            money = f"${tokens.cost(price):,.2f}" if price is not None else "not priced"
            out.append(f"  {model} ({role}): {tokens.calls:,} calls, at most "
                       f"{_count(tokens.input_tokens)} in and {_count(tokens.output_tokens)} "
                       f"out, {money}")  # fmt: skip
            if price is None:
                unpriced.append(model)
            else:
                total_cost += tokens.cost(price)
    if prices:
        left = f" ({', '.join(sorted(set(unpriced)))} not priced)" if unpriced else ""
        out.append(f"  at most ${total_cost:,.2f} in all{left}")
    return out


def _count(tokens: int) -> str:
    return f"{tokens / 1e6:.2f}M" if tokens >= 1e5 else f"{tokens:,}"
