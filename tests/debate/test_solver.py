"""The debate solver against scripted models: order, budgets, roles, seeds,
pairing and the hard invariant."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import ContentReasoning, ContentText, GenerateConfig, ModelOutput, ModelUsage

from debatebench_eval.debating.log_figures import log_figures
from debatebench_eval.record.store import DebateRecord

from support.scripted import Script, output

RunDebate = Callable[..., EvalLog]


def record_of(log: EvalLog, index: int = 0) -> DebateRecord:
    assert log.samples is not None
    return log.samples[index].store_as(DebateRecord)


def test_every_phase_gets_a_turn_from_each_side_in_alternating_order(run_debate: RunDebate) -> None:
    log = run_debate(phases="[opening:short, rebuttal:long, retort, conclusion:short]")
    record = record_of(log)
    assert record.complete
    spoken = [(t.phase_index, t.phase, t.side, t.order) for t in record.turns]
    assert spoken == [
        (0, "opening", "pro", 0), (0, "opening", "con", 1),
        (1, "rebuttal", "con", 0), (1, "rebuttal", "pro", 1),
        (2, "retort", "pro", 0), (2, "retort", "con", 1),
        (3, "conclusion", "con", 0), (3, "conclusion", "pro", 1),
    ]  # fmt: skip
    assert record.run is not None and record.run.initiative == ["pro", "con", "pro", "con"]
    assert [t.length for t in record.turns[:4]] == ["short", "short", "long", "long"]
    assert len({t.id for t in record.turns}) == 8


def test_second_speaker_sees_the_first_and_length_is_asked(run_debate: RunDebate) -> None:
    pro, con = Script("pro"), Script("con")
    run_debate(roles={"pro": pro.model(), "con": con.model()}, phases="[opening:long]")
    con_prompt = con.calls[0].messages[-1].text
    assert "pro speaks, call 1." in con_prompt
    assert "about 10 sentences" in con_prompt
    assert "Nothing has been said yet" in pro.calls[0].messages[-1].text
    assert "against the motion" in con.calls[0].messages[0].text


def test_budget_is_applied_to_every_call_per_role(run_debate: RunDebate) -> None:
    pro, con = Script("pro"), Script("con")
    log = run_debate(roles={"pro": pro.model(), "con": con.model()},
                     budget={"pro": 300, "con": 900})  # fmt: skip
    assert {c.config.max_tokens for c in pro.calls} == {300}
    assert {c.config.max_tokens for c in con.calls} == {900}
    assert {(t.side, t.budget) for t in record_of(log).turns} == {("pro", 300), ("con", 900)}


def test_hit_budget_and_finish_reason_are_recorded(run_debate: RunDebate) -> None:
    def capped(n: int, messages: Any, config: GenerateConfig) -> ModelOutput:
        return output("pro", "cut off mid", tokens=config.max_tokens or 0, stop="max_tokens")

    log = run_debate(roles={"pro": Script("pro", capped).model()}, budget=64, phases="[opening]")
    turns = {t.side: t for t in record_of(log).turns}
    assert turns["pro"].hit_budget and turns["pro"].finish_reason == "max_tokens"
    assert not turns["con"].hit_budget and turns["con"].finish_reason == "stop"
    assert turns["pro"].usage.output_tokens == 64


def test_roles_default_to_the_main_model(run_debate: RunDebate) -> None:
    main = Script("main")
    log = run_debate(main=main.model(), phases="[opening]")
    spoke = [c for c in main.calls if "debater in a formal" in str(c.messages[0].content)]
    assert len(spoke) == 2
    assert len(main.calls) > 2  # and the main model judged too (unusable prose: unscored)
    assert {t.model for t in record_of(log).turns} == {"main"}


def test_command_line_settings_reach_role_models_and_role_settings_win(
    run_debate: RunDebate,
) -> None:
    pro = Script("pro")
    con_script = Script("con")
    con = con_script.model(GenerateConfig(temperature=0.9))
    run_debate(
        roles={"pro": pro.model(), "con": con},
        phases="[opening]",
        eval_args={"temperature": 0.2, "top_p": 0.5},
    )
    assert pro.calls[0].config.temperature == 0.2 and pro.calls[0].config.top_p == 0.5
    assert con_script.calls[0].config.temperature == 0.9 and con_script.calls[0].config.top_p == 0.5


def test_seed_derives_from_command_line_seed_and_reaches_every_call(run_debate: RunDebate) -> None:
    pro, con = Script("pro"), Script("con")
    log = run_debate(roles={"pro": pro.model(), "con": con.model()}, eval_args={"seed": 42})
    record = record_of(log)
    assert record.run is not None and "42" in record.run.seed_source
    assert {c.config.seed for c in pro.calls + con.calls} == {record.run.seed}
    again = run_debate(
        roles={"pro": Script("pro").model(), "con": Script("con").model()}, eval_args={"seed": 42}
    )
    assert record_of(again).run.seed == record.run.seed  # type: ignore[union-attr]


def test_without_a_seed_one_is_drawn_and_recorded(run_debate: RunDebate) -> None:
    record = record_of(run_debate(phases="[opening]"))
    assert record.run is not None and record.run.seed_source == "generated"


def test_paired_runs_each_motion_twice_with_models_exchanged(run_debate: RunDebate) -> None:
    log = run_debate(
        roles={"pro": Script("A").model(), "con": Script("B").model()},
        paired=True,
        phases="[opening]",
    )
    assert log.samples is not None and len(log.samples) == 2
    by_id = {s.id: s.store_as(DebateRecord) for s in log.samples}
    plain, swapped = sorted(by_id.items(), key=lambda kv: ".swapped" in str(kv[0]))
    assert {t.side: t.model for t in plain[1].turns} == {"pro": "A", "con": "B"}
    assert {t.side: t.model for t in swapped[1].turns} == {"pro": "B", "con": "A"}
    assert plain[1].run.pair_id == swapped[1].run.pair_id is not None  # type: ignore[union-attr]
    assert swapped[1].run.swapped and not plain[1].run.swapped  # type: ignore[union-attr]


def test_an_empty_turn_fails_only_its_sample_naming_phase_and_side(
    run_debate: RunDebate, tmp_path: Any
) -> None:
    motions = tmp_path / "m.yaml"
    motions.write_text(
        "- {id: fine, motion: Fine motion.}\n- {id: broken, motion: Broken motion.}\n"
    )

    def con_reply(n: int, messages: Any, config: GenerateConfig) -> ModelOutput:
        broken = "Broken motion" in messages[0].text and "rebuttal" in messages[-1].text.lower()
        return output("con", "" if broken else f"con {n}")

    log = run_debate(
        roles={"con": Script("con", con_reply).model()},
        motions=str(motions),
        motion=None,
        empty_retries=1,
    )
    assert log.status == "success"
    samples = {s.id: s for s in log.samples or []}
    assert samples["fine"].error is None and samples["fine"].scores
    broken = samples["broken"]
    assert broken.error is not None and not broken.scores
    assert "phase 1 (rebuttal:medium), side con" in broken.error.message
    assert "no speech text in 2 attempts" in broken.error.message
    assert not broken.store_as(DebateRecord).complete


def test_a_server_that_ignores_the_budget_is_an_error(run_debate: RunDebate) -> None:
    def verbose(n: int, messages: Any, config: GenerateConfig) -> ModelOutput:
        return output("pro", "far too long", tokens=(config.max_tokens or 0) + 500)

    log = run_debate(roles={"pro": Script("pro", verbose).model()}, budget=100, phases="[opening]")
    error = log.samples[0].error  # type: ignore[index]
    assert (
        error is not None
        and "ignores max_tokens" in error.message
        and "budget of 100" in error.message
    )


def test_reasoning_is_kept_out_of_the_speech_and_counted(run_debate: RunDebate) -> None:
    def thinker(n: int, messages: Any, config: GenerateConfig) -> ModelOutput:
        out = ModelOutput.from_content(
            "pro",
            [
                ContentReasoning(reasoning="secret plan"),
                ContentText(text="<think>more</think>The speech."),
            ],
        )
        out.usage = ModelUsage(
            input_tokens=5, output_tokens=30, total_tokens=35, reasoning_tokens=20
        )
        return out

    log = run_debate(roles={"pro": Script("pro", thinker).model()}, phases="[opening]")
    turn = next(t for t in record_of(log).turns if t.side == "pro")
    assert turn.text == "The speech."
    assert turn.usage.reasoning_tokens == 20 and turn.reasoning_chars == len("secret plan") + len(
        "<think>more</think>"
    )


def test_viewer_messages_carry_phase_side_team_and_model(run_debate: RunDebate) -> None:
    log = run_debate(roles={"pro": Script("A").model()}, phases="[opening]")
    texts = [m.text for m in log.samples[0].messages if m.role == "assistant"]  # type: ignore[index]
    assert texts[0].startswith("### 1. Opening (medium) — PRO\n*turn t")
    assert " · reform-advocate · A · role pro · 12/2000 tokens*" in texts[0]
    assert "— CON" in texts[1] and "cautious-skeptic" in texts[1]


def test_turn_stats_shows_the_budget_hit_rate_and_reports_the_rest(run_debate: RunDebate) -> None:
    log = run_debate(phases="[opening]")
    assert log.results is not None
    scores = {score.name: score.metrics for score in log.results.scores}
    # the terminal's row is the budget-hit rate; every figure is the report's
    assert list(scores["turn_stats"]) == ["hit_budget_rate"] and "hit_budget_rate" not in scores
    assert scores["turn_stats"]["hit_budget_rate"].value == 0.0
    reported = log_figures(log)["turn_stats"]
    assert reported["turns"] == 2.0 and reported["pro_output_tokens"] == 12.0


def test_every_call_is_attributed_to_its_role_with_only_a_main_model(run_debate) -> None:  # type: ignore[no-untyped-def]
    log = run_debate(phases="[opening]")
    assert log.status == "success"
    sample = (log.samples or [])[0]
    assert set(sample.role_usage) == {"pro", "con", "judge"}
    assert set(log.stats.role_usage) == {"pro", "con", "judge"}
    roles = [e.role for e in sample.events if e.event == "model"]
    assert roles and None not in roles


def test_every_prompt_names_the_sides_own_position(run_debate: RunDebate) -> None:
    pro, con = Script("pro"), Script("con")
    run_debate(
        roles={"pro": pro.model(), "con": con.model()},
        phases="[opening, rebuttal, retort, conclusion]",
        paired=True,
        fact_check=False,
        swap_judging=False,
    )
    for script in (pro, con):
        for call in script.calls:
            system, prompt = str(call.messages[0].content), str(call.messages[1].content)
            side = "PRO" if "You are on the PRO side" in system else "CON"
            position = "for" if side == "PRO" else "against"
            other = "against" if side == "PRO" else "for"
            assert f"you argue {position} the motion" in system
            instruction = prompt.rsplit("\n\n", 1)[-1]
            assert (
                f"{position} the motion" in instruction and f"{other} the motion" not in instruction
            )
            if side == "CON":  # the old "make your strongest case for it" misled the con side
                assert "for it" not in instruction


def test_a_retry_after_an_empty_reply_uses_the_next_seed(run_debate: RunDebate) -> None:
    def empty_first(n: int, messages: Any, config: GenerateConfig) -> ModelOutput:
        return output("pro", "" if n == 1 else "Now I speak.")

    pro = Script("pro", reply=empty_first)
    log = run_debate(roles={"pro": pro.model()}, phases="[opening]", seed=7, fact_check=False)
    first, retry = (call.config.seed for call in pro.calls[:2])
    assert first is not None and retry == first + 1
    turn = (log.samples or [])[0].store_as(DebateRecord).turn(0, "pro")
    assert turn is not None and turn.attempts == 2


def test_a_roles_budget_goes_with_its_model_when_sides_are_exchanged(
    run_debate: RunDebate,
) -> None:
    a, b = Script("A"), Script("B")
    run_debate(roles={"pro": a.model(), "con": b.model()}, paired=True, phases="[opening]",
               budget={"pro": 30, "con": 50}, fact_check=False, swap_judging=False)  # fmt: skip
    assert {c.config.max_tokens for c in a.calls} == {30}  # the pro role's, on either side
    assert {c.config.max_tokens for c in b.calls} == {50}


def test_a_judge_server_that_is_down_fails_the_debate_before_any_turn(
    run_debate: RunDebate,
) -> None:
    # Found at scoring time instead, every debate would be spoken for nothing.
    from inspect_ai.model import get_model

    from support.stub_server import closed_url

    dead = closed_url()
    judge = get_model("openai-api/local/judge", base_url=dead, api_key="k", memoize=False)
    pro, con = Script("pro"), Script("con")
    log = run_debate(roles={"pro": pro.model(), "con": con.model(), "judge": judge})
    sample = (log.samples or [])[0]
    assert sample.error is not None
    assert f"model server for role 'judge' (openai-api/local/judge) at {dead}" in (
        sample.error.message
    )
    assert "-T probe=false" in sample.error.message
    assert (len(pro.calls), len(con.calls)) == (0, 0)


def test_a_roles_own_budget_is_a_key_of_budget(run_debate: RunDebate) -> None:
    pro = Script("pro")
    run_debate(roles={"pro": pro.model()}, budget={"pro": 300}, phases="[opening]")
    assert {c.config.max_tokens for c in pro.calls} == {300}


def test_a_role_budget_given_twice_or_an_unknown_role_is_refused() -> None:
    from debatebench_eval.core.errors import ConfigError
    from debatebench_eval.debating.task import debate

    with pytest.raises(ConfigError, match=r"^-T pro_budget: a form this package no longer"):
        debate(budget={"pro": 300}, pro_budget=200)
    with pytest.raises(ConfigError, match=r"^-T budget: has the key\(s\) judge; expected a"):
        debate(budget={"judge": 300})
