"""A reasoning budget per side: `budget` caps the speech and `reasoning_budget` the
thinking. The call is sent both (max_tokens = budget + reasoning budget, and
Inspect's reasoning_tokens), each turn records its answer tokens beside its
reasoning tokens, the sides are compared on their speeches, and a server that
reports more reasoning than the budget is refused as one ignoring max_tokens is."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    ChatMessageUser,
    ContentReasoning,
    ContentText,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
)

from debatebench_eval.core.errors import ConfigError, ServerError
from debatebench_eval.debating.task import DEBATE_ARGS, debate
from debatebench_eval.judging.figures import figures_of
from debatebench_eval.judging.run_summary import reasoning_lines
from debatebench_eval.record.display import turn_heading
from debatebench_eval.record.store import DebateRecord, TurnUsage
from debatebench_eval.servers.calls import call_config
from debatebench_eval.servers.replies import check_reasoning_budget, generate_reply
from debatebench_eval.tournament.debate_kind import OWNED
from debatebench_eval.tournament.schedule import parse_task_args

from support.scripted import Script

RunDebate = Callable[..., EvalLog]
WHERE = "opening, pro"


def thinking(model: str, speech: int, reasoning: int) -> ModelOutput:
    """A reply that thought `reasoning` tokens and spoke `speech` tokens."""
    out = ModelOutput.from_content(
        model, [ContentReasoning(reasoning="weighing both sides"), ContentText(text="My case.")]
    )
    out.usage = ModelUsage(
        input_tokens=40,
        output_tokens=speech + reasoning,
        reasoning_tokens=reasoning,
        total_tokens=40 + speech + reasoning,
    )
    return out


def thinker(name: str, speech: int, reasoning: int) -> Script:
    return Script(name, lambda _n, _input, _config: thinking(name, speech, reasoning))


def record_of(log: EvalLog) -> DebateRecord:
    assert log.samples is not None
    return log.samples[0].store_as(DebateRecord)


def test_each_call_is_sent_the_speech_budget_plus_reasoning_and_reasoning_tokens(
    run_debate: RunDebate,
) -> None:
    pro, con = Script("pro"), Script("con")
    run_debate(
        roles={"pro": pro.model(), "con": con.model()},
        phases="[opening, conclusion]",
        budget=200,
        reasoning_budget={"pro": 500, "con": 300},
        fact_check=False,
    )
    assert {(c.config.max_tokens, c.config.reasoning_tokens) for c in pro.calls} == {(700, 500)}
    assert {(c.config.max_tokens, c.config.reasoning_tokens) for c in con.calls} == {(500, 300)}


def test_without_a_reasoning_budget_thinking_shares_the_budget_as_before(
    run_debate: RunDebate,
) -> None:
    pro = Script("pro")
    log = run_debate(roles={"pro": pro.model()}, phases="[opening]", budget=200)
    assert {(c.config.max_tokens, c.config.reasoning_tokens) for c in pro.calls} == {(200, None)}
    assert log.eval.metadata is not None and "reasoning_budgets" not in log.eval.metadata
    assert "reasoning_budgets" not in (log.samples or [])[0].metadata


def test_a_roles_reasoning_budget_goes_with_its_model_when_sides_are_exchanged(
    run_debate: RunDebate,
) -> None:
    a, b = Script("A"), Script("B")
    log = run_debate(roles={"pro": a.model(), "con": b.model()}, paired=True,
                     phases="[opening]", budget=100, reasoning_budget={"pro": 40},
                     fact_check=False, swap_judging=False)  # fmt: skip
    assert {c.config.reasoning_tokens for c in a.calls} == {40}  # pro's, on either side
    assert {c.config.reasoning_tokens for c in b.calls} == {None}
    swapped = next(s for s in log.samples or [] if s.metadata["swapped"])
    assert swapped.metadata["reasoning_budgets"] == {"pro": None, "con": 40}


def test_each_turn_records_its_answer_tokens_beside_its_reasoning_tokens(
    run_debate: RunDebate,
) -> None:
    log = run_debate(
        roles={"pro": thinker("pro", speech=30, reasoning=250).model()},
        phases="[opening]",
        budget=100,
        reasoning_budget=300,
    )
    record = record_of(log)
    turn = record.turn(0, "pro")
    assert turn is not None and turn.text == "My case."
    assert (turn.usage.output_tokens, turn.usage.reasoning_tokens) == (280, 250)
    assert turn.usage.answer_tokens == 30
    assert (turn.budget, turn.reasoning_budget) == (100, 300)
    assert record.run is not None
    assert {s.side: s.reasoning_budget for s in record.run.sides} == {"pro": 300, "con": 300}
    assert (log.samples or [])[0].metadata["reasoning_budgets"] == {"pro": 300, "con": 300}
    assert log.eval.metadata is not None
    assert log.eval.metadata["reasoning_budgets"] == {"pro": 300, "con": 300}
    assert "30/100 tokens · reasoning 250/300" in turn_heading(turn)


def test_the_sides_are_compared_on_their_speeches_not_their_thinking(
    run_debate: RunDebate,
) -> None:
    # Pro thinks 250 tokens, con not at all; both speak 30. Against the 100-token
    # budget alone pro's 280 completion tokens would be refused as an ignored budget.
    log = run_debate(
        roles={
            "pro": thinker("pro", speech=30, reasoning=250).model(),
            "con": thinker("con", speech=30, reasoning=0).model(),
        },
        phases="[opening, conclusion]",
        budget=100,
        reasoning_budget=300,
    )
    sample = (log.samples or [])[0]
    assert sample.error is None
    stats = figures_of(sample.scores["turn_stats"])  # type: ignore[index]
    assert stats["pro_answer_tokens"] == stats["con_answer_tokens"] == 60.0
    assert (stats["pro_output_tokens"], stats["con_output_tokens"]) == (560.0, 60.0)
    assert stats["reasoning_tokens"] == 500.0


def test_a_server_that_ignores_the_reasoning_budget_fails_the_debate(
    run_debate: RunDebate,
) -> None:
    log = run_debate(
        roles={"pro": thinker("pro", speech=20, reasoning=317).model()},
        phases="[opening]",
        budget=100,
        reasoning_budget=300,
    )
    error = (log.samples or [])[0].error
    assert error is not None
    assert (
        "phase 0 (opening:medium), side pro (mockllm/pro): the server at mockllm/pro "
        "returned 317 reasoning tokens for a reasoning budget of 300; it ignores the "
        "reasoning budget (reasoning_tokens), so speeches cannot be held to -T budget on it"
    ) in error.message
    assert not record_of(log).complete


def test_the_reasoning_budget_allows_exactly_sixteen_tokens_more() -> None:
    model = Script("a").model()
    check_reasoning_budget(model, 300, thinking("a", 10, 316), WHERE)
    with pytest.raises(ServerError, match="returned 317 reasoning tokens"):
        check_reasoning_budget(model, 300, thinking("a", 10, 317), WHERE)


def test_the_completion_cap_is_the_sum_so_a_long_thought_is_not_an_ignored_budget() -> None:
    def reply(model: Script, budget: int, reasoning: int | None) -> str:
        prompt = [ChatMessageUser(content="Argue.")]
        call = generate_reply(
            model.model(), prompt, budget=budget, seed=1, retries=0, where=WHERE,
            reasoning_budget=reasoning,
        )  # fmt: skip
        return asyncio.run(call).text

    assert reply(thinker("a", speech=100, reasoning=300), 100, 300) == "My case."
    # 416 + 1 completion tokens are past the whole cap: max_tokens itself was ignored.
    with pytest.raises(ServerError, match="417 completion tokens for a budget of 400"):
        reply(thinker("a", speech=117, reasoning=300), 100, 300)
    # Without a reasoning budget the same thinking counts against the budget, as before.
    with pytest.raises(ServerError, match="400 completion tokens for a budget of 100"):
        reply(thinker("a", speech=100, reasoning=300), 100, None)


def test_the_turn_budget_and_seed_still_win_over_the_roles_settings() -> None:
    model = Script("a").model(GenerateConfig(max_tokens=9, reasoning_tokens=9, temperature=0.5))
    config = call_config(model, 100, 7, reasoning_budget=50)
    assert (config.max_tokens, config.reasoning_tokens, config.seed) == (150, 50, 7)
    assert config.temperature == 0.5


def test_a_record_written_before_answer_tokens_still_reads_them() -> None:
    old = TurnUsage.model_validate({"output_tokens": 80, "reasoning_tokens": 30})
    assert old.answer_tokens == 50
    assert TurnUsage.model_validate({"output_tokens": 8, "reasoning_tokens": 30}).answer_tokens == 0
    kept = TurnUsage.model_validate({"output_tokens": 80, "answer_tokens": 70})
    assert kept.answer_tokens == 70


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"reasoning_budget": "lots"},
         r"^-T reasoning_budget: got 'lots'; expected an integer of at least 1\.$"),
        ({"reasoning_budget": 0}, r"^-T reasoning_budget: got 0; expected an integer of at"),
        ({"reasoning_budget": {"pro": -5}},
         r"^-T reasoning_budget\.pro: got -5; expected an integer"),
        ({"reasoning_budget": {"con": True}},
         r"^-T reasoning_budget\.con: got True; expected an"),
        ({"reasoning_budget": {"judge": 5}},
         r"^-T reasoning_budget: has the key\(s\) judge; expected a number, or a mapping of pro"),
    ],
)  # fmt: skip
def test_bad_reasoning_budgets_get_one_precise_message(args: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        debate(**args)


def test_a_tournament_takes_one_reasoning_budget_for_every_slot() -> None:
    allowed = parse_task_args(["reasoning_budget=400"], DEBATE_ARGS, OWNED)
    assert allowed == {"reasoning_budget": 400}
    with pytest.raises(ConfigError, match=r"-T pro_reasoning_budget: unknown option"):
        parse_task_args(["pro_reasoning_budget=400"], DEBATE_ARGS, OWNED)


def test_the_run_summary_names_the_reasoning_budgets() -> None:
    assert reasoning_lines({}) == []
    assert reasoning_lines({"reasoning_budgets": {"con": None, "pro": 400}}) == [
        "  reasoning budgets (tokens, beside each speech's budget): pro 400, con none"
    ]
