"""A tournament's cost before it runs (calls and tokens at the caps, priced where a
price is given) and what its debates spent (tokens by model and role)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.model import ModelCost, ModelUsage

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.debating.call_shape import CallBound, debate_bounds, tokens
from debatebench_eval.debating.prompts import debater_prompts
from debatebench_eval.judging.rubric import default_rubric
from debatebench_eval.matches.spend import Spend, debate_spend, spend_table
from debatebench_eval.record.protocol import parse_phases
from debatebench_eval.tournament.cost import (
    DEBATER,
    JUDGE,
    Tokens,
    check_cost_limit,
    estimate,
    lines,
    read_prices,
)

PHASES = tuple(parse_phases(["opening:short", "conclusion:short"], where="test"))
CAPS = {"pro": {"speech": 100, "prep": 100}, "con": {"speech": 300, "prep": 300}}


def price(inp: float, out: float) -> ModelCost:
    return ModelCost(input=inp, output=out, input_cache_write=0, input_cache_read=0)


def test_each_turn_is_shown_every_earlier_speech_at_its_cap_and_judges_all_of_them() -> None:
    bounds = debate_bounds(PHASES, CAPS, default_rubric(), 1000, readings=2, fact_check=True)
    prompts = debater_prompts()
    fixed = tokens(prompts.system) + tokens(prompts.length) + tokens(prompts.cite)
    opening, conclusion = (tokens(prompts.phases[name]) for name in ("opening", "conclusion"))
    turns = bounds[:4]
    assert [(b.caller, b.output_tokens) for b in turns] == [
        ("pro", 100), ("con", 300), ("pro", 100), ("con", 300)
    ]  # fmt: skip
    assert [b.input_tokens for b in turns] == [
        fixed + opening, fixed + opening, fixed + conclusion + 400, fixed + conclusion + 400
    ]  # fmt: skip
    judge, fact_check = bounds[4:]
    assert (judge.caller, judge.times, judge.output_tokens) == ("judge", 2, 1000)
    assert judge.input_tokens > 800 and fact_check.input_tokens > 800  # every speech, and more
    assert (fact_check.caller, fact_check.times) == ("fact_check", 1)
    without = debate_bounds(PHASES, CAPS, default_rubric(), 1000, readings=1, fact_check=False)
    assert [b.caller for b in without[4:]] == ["judge"] and without[4].times == 1


def test_the_estimate_gives_each_model_its_roles_calls_over_the_debates_left() -> None:
    bounds = [CallBound("pro", 1, 10, 100), CallBound("con", 1, 20, 300),
              CallBound("judge", 2, 500, 1000), CallBound("fact_check", 1, 400, 1000)]  # fmt: skip
    found = estimate(bounds, [("a", "b", 4), ("a", "c", 2)], judges=["j1", "j2"])
    assert found["a"] == {DEBATER: Tokens(6, 60, 600)}
    assert found["b"] == {DEBATER: Tokens(4, 80, 1200)}
    assert found["c"] == {DEBATER: Tokens(2, 40, 600)}
    # Each judge reads every debate twice; the first also fact-checks it.
    assert found["j1"] == {JUDGE: Tokens(6 * 3, 6 * 1400, 6 * 3000)}
    assert found["j2"] == {JUDGE: Tokens(6 * 2, 6 * 1000, 6 * 2000)}
    printed = lines(found, {"a": price(1.0, 2.0), "j1": price(10.0, 10.0)}, debates=6)
    assert printed[0].startswith("cost of the 6 debate(s) to run: 42 model calls")
    assert "  a (debater): 6 calls, at most 60 in and 600 out, $0.00" in printed
    assert any(line.startswith("  j2 (judge):") and "not priced" in line for line in printed)
    money = (6 * 1400 * 10 + 6 * 3000 * 10 + 60 * 1 + 600 * 2) / 1e6
    assert printed[-1] == f"  at most ${money:,.2f} in all (b, c, j2 not priced)"


def test_a_prices_file_is_inspects_and_a_bad_entry_is_named(tmp_path: Path) -> None:
    good = tmp_path / "prices.yaml"
    good.write_text("openai/gpt-4o: {input: 2.5, output: 10, input_cache_write: 0, "
                    "input_cache_read: 1.25}\n")  # fmt: skip
    assert read_prices(str(good))["openai/gpt-4o"].output == 10
    bad = tmp_path / "bad.yaml"
    bad.write_text("openai/gpt-4o: {input: 2.5, output: lots, input_cache_write: 0, "
                   "input_cache_read: 0}\n")  # fmt: skip
    with pytest.raises(ConfigError) as error:
        read_prices(str(bad))
    assert f"--model-cost-config {bad}: openai/gpt-4o.output" in str(error.value)
    empty = tmp_path / "empty.yaml"
    empty.write_text("{}\n")
    with pytest.raises(ConfigError, match="no model in it"):
        read_prices(str(empty))


def test_a_cost_limit_needs_every_model_priced_where_inspect_counts() -> None:
    check_cost_limit(None, ["ollama/a"], {})
    with pytest.raises(ConfigError, match="ollama/a has no price Inspect can count"):
        check_cost_limit(1.0, ["ollama/a"], {"ollama/a": price(1, 1)})
    with pytest.raises(ConfigError, match="not in --model-cost-config"):
        check_cost_limit(1.0, ["openai/gpt-4o"], {})
    with pytest.raises(ConfigError, match="more than 0"):
        check_cost_limit(0.0, ["openai/gpt-4o"], {"openai/gpt-4o": price(1, 1)})
    check_cost_limit(0.5, ["openai/gpt-4o"], {"openai/gpt-4o": price(1, 1)})


def usage(inp: int, out: int, cost: float | None = None) -> ModelUsage:
    return ModelUsage(input_tokens=inp, output_tokens=out, total_tokens=inp + out,
                      total_cost=cost)  # fmt: skip


def test_a_debates_spend_splits_roles_and_a_self_judging_models_two_parts() -> None:
    roles = {"pro": usage(100, 50), "con": usage(120, 60), "judge": usage(900, 200)}
    models = {"m1": usage(100, 50), "m2": usage(620, 160), "j": usage(400, 100)}
    found = debate_spend(roles, models, ("m1", "m2"))
    assert set(found) == {
        Spend("m1", "debater", 100, 50), Spend("m2", "debater", 120, 60),
        Spend("m2", "judge", 500, 100), Spend("j", "judge", 400, 100),
    }  # fmt: skip


def test_the_spend_table_prices_logged_costs_first_then_the_prices_given() -> None:
    debates = [
        (Spend("m1", "debater", 1000, 500, cost=0.01), Spend("j", "judge", 3000, 1000)),
        (Spend("m1", "debater", 1000, 500, cost=0.01), Spend("j", "judge", 3000, 1000)),
    ]
    unpriced = spend_table(debates)
    assert unpriced["cost"] is None and unpriced["priced_in_part"]
    assert unpriced["tokens"] == 11000 and unpriced["tokens_per_debate"] == 5500
    table = spend_table(debates, {"j": price(2.0, 8.0)})
    judge = next(row for row in table["models"] if row["model"] == "j")
    assert judge["cost"] == pytest.approx(2 * (3000 * 2 + 1000 * 8) / 1e6)
    assert table["cost"] == pytest.approx(0.02 + judge["cost"])
    assert table["cost_per_debate"] == pytest.approx(table["cost"] / 2)
