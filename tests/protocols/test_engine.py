"""Deliberations run end to end with scripted Inspect models: convergence, the
record, what each participant saw, the judge's rounds, undecided judges, model
roles, and the deliberate solver on stock tasks."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, ModelOutput, get_model
from inspect_ai.scorer import choice, match
from inspect_ai.solver import generate

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.protocols.record import DeliberationRecord
from debatebench_eval.protocols.scorer import outcome_keys
from debatebench_eval.protocols.solver import deliberate
from debatebench_eval.protocols.tasks import adjudicate, panel

from support.deliberation import (
    DONE,
    last_user_text,
    objecting,
    persona,
    system_text,
    table,
    workspace,
)
from support.scripted import Script, output

ROLES = ("proposer", "skeptic", "counterevidence_miner", "validity_critic")


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Runs start in an empty folder: no workspace is found above it."""
    folder = tmp_path / "run"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def run(task: Task | str, tmp_path: Path, model: Any, **kwargs: Any) -> EvalLog:
    logs = eval(task, model=model, log_dir=str(tmp_path / "logs"), display="none", **kwargs)
    return logs[0]


def record_of(log: EvalLog, index: int = 0) -> DeliberationRecord:
    sample = (log.samples or [])[index]
    assert sample.error is None, sample.error
    return sample.store_as(DeliberationRecord)


def replying(text: Callable[[list[Any], GenerateConfig], str]) -> Script:
    return Script("m", reply=lambda n, messages, config: output("m", text(messages, config)))


def test_a_panel_that_agrees_settles_after_two_rounds(tmp_path: Path) -> None:
    script = replying(
        lambda m, c: (
            "Synthesis: do it." if "Synthesize" in last_user_text(m) else f"Fine.\n\n{DONE}"
        )
    )
    log = run(panel(task="Migrate now?"), tmp_path, script.model())
    record = record_of(log)
    assert record.complete and record.outcome is not None
    assert (record.outcome.stop_reason, record.outcome.rounds) == ("settled", 2)
    assert [(t.round, t.participant) for t in record.turns] == [
        (1, "proposer"), (1, "skeptic"), (2, "proposer"), (2, "skeptic"), (3, "synthesizer"),
    ]  # fmt: skip
    assert record.turns[-1].final and record.outcome.answer == "Synthesis: do it."
    sample = (log.samples or [])[0]
    assert sample.output.completion == "Synthesis: do it."
    assert sample.output.usage is not None and sample.output.usage.output_tokens == 5 * 12
    # sequential rounds: the skeptic saw the proposer's turn of the same round
    skeptic = record.turns[1]
    assert (
        skeptic.shown == [record.turns[0].id] and skeptic.signal is not None and skeptic.signal.done
    )
    assert all(
        t.usage.total_tokens == 62 and t.latency_ms >= 0 and t.started_at for t in record.turns
    )
    score = (sample.scores or {})["outcome"]
    assert score.value["decided"] == 1 and score.value["converged"] == 1  # type: ignore[index]
    # Only what can apply to a panel: no decision keys.
    assert set(score.value) == {"decided", "rounds", "converged", "stalemate", "repairs",  # type: ignore[arg-type]
                                "turns", "over_word_limit", "tokens"}  # fmt: skip
    assert tuple(score.value) == outcome_keys("synthesis")  # type: ignore[arg-type]
    assert score.answer == "CONVERGED after 2 round(s) · Synthesis: do it."


def test_rounds_are_spans_and_turns_are_headed_messages(tmp_path: Path) -> None:
    script = replying(lambda m, c: f"Fine.\n\n{DONE}")
    log = run(panel(task="Migrate now?"), tmp_path, script.model())
    sample = (log.samples or [])[0]
    spans = [e for e in sample.events if e.event == "span_begin"]
    names = [(e.name, e.type) for e in spans]
    assert ("Round 1: discussion", "round") in names and ("Round 2: discussion", "round") in names
    assert ("Synthesis", "final") in names and ("skeptic", "participant") in names
    infos = [e.data for e in sample.events if e.event == "info" and e.source == "deliberation"]
    assert [i["round"] for i in infos] == [1, 2] and all(i["clean"] for i in infos)  # type: ignore[index]
    headed = [m for m in sample.messages if m.role == "assistant"]
    assert headed[1].text.startswith(
        "### Round 1 · discussion — skeptic\n*skeptic · m · role skeptic"
    )
    assert "saw 1 turns (all)" in headed[1].text and "signal: done" in headed[1].text
    assert headed[1].metadata == {
        "round": 1,
        "participant": "skeptic",
        "turn_id": headed[1].metadata["turn_id"],
    }  # type: ignore[index]
    assert headed[-1].text.startswith("### Synthesis (round 3) — synthesizer")
    assert "**Synthesis** · settled after 2 round(s)" in headed[-1].text


def test_a_panel_that_keeps_the_same_objection_stalls(tmp_path: Path) -> None:
    script = replying(
        lambda m, c: "S" if "Synthesize" in last_user_text(m) else objecting("no rollback plan")
    )
    log = run(panel(task="T"), tmp_path, script.model())
    record = record_of(log)
    assert record.outcome is not None and (record.outcome.stop_reason, record.outcome.rounds) == (
        "stalemate",
        4,
    )
    assert [r.progress for r in record.rounds] == [True, False, False, False]
    score = ((log.samples or [])[0].scores or {})["outcome"]
    assert score.answer == "STALEMATE after 4 round(s) · S"
    assert score.value["stalemate"] == 1 and score.value["converged"] == 0  # type: ignore[index]


def test_a_panel_whose_signals_are_never_parsed_is_undecided(tmp_path: Path) -> None:
    # Without a readable signal every round looks unclean and unchanged: the stop
    # rule fires as "stalemate", which would say the panel disagreed.
    script = replying(
        lambda m, c: "Summary." if "Synthesize" in last_user_text(m) else "I have views."
    )
    log = run(panel(task="T"), tmp_path, script.model())
    record = record_of(log)
    outcome = record.outcome
    assert outcome is not None and (outcome.status, outcome.stop_reason, outcome.rounds) == (
        "undecided",
        "stalemate",
        3,
    )
    assert outcome.undecided_reason == (
        "no participant's signal was parsed in 3 round(s) (6 turns), so whether the panel "
        "converged is unknown (the loop stopped on stalemate); each turn must end with a "
        "fenced ```signal block holding a JSON object"
    )
    assert outcome.answer == "Summary."  # the synthesis is still kept
    sample = (log.samples or [])[0]
    assert sample.output.completion == "Summary."
    score = (sample.scores or {})["outcome"]
    assert score.value["decided"] == 0 and score.value["converged"] == 0  # type: ignore[index]
    assert score.value["stalemate"] == 0  # type: ignore[index]  # the stop rule's guess, not a finding
    assert score.explanation == f"**Undecided** after 3 round(s): {outcome.undecided_reason}"
    assert score.answer.startswith("UNDECIDED: no participant's signal was parsed in 3 round(s)")
    assert len(score.answer) <= 160


def test_one_parsed_signal_keeps_the_panel_decided(tmp_path: Path) -> None:
    def reply(messages: list[Any], config: GenerateConfig) -> str:
        if "Synthesize" in last_user_text(messages):
            return "Summary."
        return objecting("no plan") if "You are the Proposer" in system_text(messages) else "Views."

    record = record_of(run(panel(task="T"), tmp_path, replying(reply).model()))
    assert record.outcome is not None and record.outcome.status == "decided"
    assert record.outcome.undecided_reason is None


def test_unparsed_signals_without_convergence_stay_decided(tmp_path: Path) -> None:
    script = replying(lambda m, c: "Views.")
    record = record_of(run(panel(task="T", rounds=2, converge=False), tmp_path, script.model()))
    assert record.outcome is not None and (record.outcome.status, record.outcome.stop_reason) == (
        "decided",
        "max",
    )


def test_a_panel_that_keeps_moving_stops_at_the_limit(tmp_path: Path) -> None:
    script = replying(lambda m, c: objecting(f"objection {len(m[-1].text)}"))
    record = record_of(run(panel(task="T", rounds=3), tmp_path, script.model()))
    assert record.outcome is not None and (record.outcome.stop_reason, record.outcome.rounds) == (
        "max",
        3,
    )


def test_without_convergence_every_round_runs(tmp_path: Path) -> None:
    script = replying(lambda m, c: f"Fine.\n\n{DONE}")
    record = record_of(run(panel(task="T", rounds=3, converge=False), tmp_path, script.model()))
    assert record.outcome is not None and (record.outcome.stop_reason, record.outcome.rounds) == (
        "max",
        3,
    )


def judge_reply(**changes: Any) -> str:
    base = {
        "final_decision": "accept", "proposal": "One survey item", "reasoning_summary": "Sound.",
        "competing_options": ["single item", "full scale"], "supporting_evidence": ["cheap"],
        "opposing_evidence": ["low reliability"], "unresolved_concerns": ["validity"],
        "confidence": 0.6, "dissent": "The skeptic doubts reliability.", "revisions": [],
        "request_round": False, "round_question": "",
    }  # fmt: skip
    return json.dumps({**base, **changes})


def role_of(messages: list[Any]) -> str:
    system = system_text(messages)
    for role in (*ROLES, "judge"):
        if role.replace("_", " ").lower() in system.lower():
            return role
    raise AssertionError(system)


def adjudication_script(judge: Callable[[int], str]) -> Script:
    calls = {"judge": 0}

    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        role = role_of(messages)
        if role == "judge":
            calls["judge"] += 1
            return output("m", judge(calls["judge"]))
        round_ = "R2" if "Cross-critique" in last_user_text(messages) else "R1"
        return output("m", f"{role} says {round_}.")

    return Script("m", reply=reply)


@pytest.fixture
def proposal(tmp_path: Path) -> Path:
    path = tmp_path / "proposal.md"
    path.write_text("Measure burnout with one survey item.\n", encoding="utf-8")
    return path


def test_adjudication_rounds_see_what_ar_debate_allows(tmp_path: Path, proposal: Path) -> None:
    script = adjudication_script(lambda n: judge_reply())
    log = run(
        adjudicate(proposal=str(proposal), debate_type="method_fit"), tmp_path, script.model()
    )
    record = record_of(log)
    first = [c for c in script.calls if "Independent positions" in last_user_text(c.messages)]
    second = [c for c in script.calls if "Cross-critique" in last_user_text(c.messages)]
    assert len(first) == len(second) == 4
    for call in first:
        prompt = last_user_text(call.messages)
        assert "Measure burnout" in prompt and "method_fit" in prompt
        assert not any(f"{role} says" in prompt for role in ROLES)
    for call in second:
        assert all(f"{role} says R1" in last_user_text(call.messages) for role in ROLES)
    assert record.outcome is not None and record.outcome.answer == "accept"
    assert (record.outcome.rounds, record.outcome.stop_reason) == (3, "max")
    judge_turn = record.turns[-1]
    assert judge_turn.round == 3 and judge_turn.final and len(judge_turn.shown) == 8
    assert [t.max_words for t in record.turns[:8]] == [250] * 4 + [150] * 4
    score = ((log.samples or [])[0].scores or {})["outcome"]
    assert score.value["accept"] == 1 and score.value["confidence"] == 0.6  # type: ignore[index]
    # Only what can apply to an adjudication: no convergence keys.
    assert "converged" not in score.value and "stalemate" not in score.value  # type: ignore[operator]
    assert tuple(score.value) == outcome_keys("decision")  # type: ignore[arg-type]
    assert score.answer == "ACCEPT (confidence 0.6) · 3 round(s)"
    assert "| final_decision | accept |" in (score.explanation or "")


def test_a_fourth_round_runs_only_when_the_judge_asks(tmp_path: Path, proposal: Path) -> None:
    asks = judge_reply(request_round=True, round_question="Is one item reliable enough?")
    revise = judge_reply(final_decision="revise", revisions=["Use a validated three-item scale."])
    script = adjudication_script(lambda n: asks if n == 1 else revise)
    record = record_of(
        run(adjudicate(proposal=str(proposal), debate_type="method_fit"), tmp_path, script.model())
    )
    outcome = record.outcome
    assert outcome is not None and (outcome.answer, outcome.rounds, outcome.stop_reason) == (
        "revise",
        4,
        "judge_request",
    )
    assert not outcome.forced_escalate and len(outcome.exchanges) == 2
    fourth = [t for t in record.turns if t.round == 4]
    assert [t.participant for t in fourth] == [*ROLES, "judge"]
    question = "## The judge's question\n\nIs one item reliable enough?"
    asked = [role_of(c.messages) for c in script.calls if question in last_user_text(c.messages)]
    assert asked == list(ROLES)  # the four roles got the judge's question


def test_a_judge_that_asks_again_ends_in_escalate(tmp_path: Path, proposal: Path) -> None:
    asks = judge_reply(request_round=True, round_question="More?")
    script = adjudication_script(lambda n: asks)
    log = run(
        adjudicate(proposal=str(proposal), debate_type="method_fit"), tmp_path, script.model()
    )
    outcome = record_of(log).outcome
    assert outcome is not None and (outcome.answer, outcome.forced_escalate, outcome.rounds) == (
        "escalate",
        True,
        4,
    )
    assert (
        outcome.decision is not None and outcome.decision["final_decision"] == "accept"
    )  # the judge's own, kept
    sample = (log.samples or [])[0]
    # The judge's 0.6 was for its own "accept": the escalate shows none, and says whose it was.
    note = (
        "forced: the extra round did not resolve it; "
        "no confidence — the judge's 0.6 was for its own 'accept'"
    )
    assert sample.output.completion.startswith(f"DECISION: escalate\n({note})")
    score = (sample.scores or {})["outcome"]
    assert math.isnan(score.value["confidence"])  # type: ignore[index]
    assert score.value["escalate"] == 1 and score.value["forced_escalate"] == 1  # type: ignore[index]
    heading, table = (score.explanation or "").split("\n\n", 1)
    assert heading == f"**Decision: escalate** ({note}) · judge_request after 4 round(s)"
    assert table.startswith("| field | value |\n|---|---|\n") and "| confidence | 0.6 |" in table
    assert score.answer == "ESCALATE (forced) · 4 round(s)"


def test_an_unusable_judge_leaves_the_deliberation_undecided(
    tmp_path: Path, proposal: Path
) -> None:
    bad = judge_reply(final_decision="reject")
    script = adjudication_script(lambda n: bad if n == 1 else "I would accept it.")
    log = run(
        adjudicate(proposal=str(proposal), debate_type="method_fit"), tmp_path, script.model()
    )
    outcome = record_of(log).outcome
    assert outcome is not None and outcome.status == "undecided" and outcome.decision is None
    assert outcome.answer is None and "not valid JSON" in (outcome.undecided_reason or "")
    assert outcome.exchanges[0]["replies"] == [bad, "I would accept it."]
    named = "\"final_decision\" is 'reject'; expected one of 'accept', 'revise' or 'escalate'"
    assert outcome.exchanges[0]["problems"][0] == [named]
    # the repair re-ask named the allowed set
    repair = [c for c in script.calls if len(c.messages) > 2]
    assert f"- {named}" in last_user_text(repair[0].messages)
    sample = (log.samples or [])[0]
    assert sample.output.completion.startswith("UNDECIDED:")
    value = (sample.scores or {})["outcome"].value
    assert value["decided"] == 0 and value["accept"] == value["revise"] == value["escalate"] == 0  # type: ignore[index]


def test_roles_bind_personas_by_id_and_final_step(tmp_path: Path, in_tmp: Path) -> None:
    ws = workspace(in_tmp)
    persona(ws, "reviewers/security", model="sonnet")  # heurema's alias: unmappable
    persona(ws, "final-judge", role="synthesizer", model="haiku")
    main = replying(lambda m, c: f"main\n\n{DONE}")
    security = replying(lambda m, c: f"security\n\n{DONE}")
    final = replying(lambda m, c: "final word")
    with pytest.raises(ConfigError) as caught:
        panel(task="T", synth="final-judge", **{"with": ["reviewers/security", "skeptic"]})
    assert "reviewers/security.md: model: 'sonnet' names no Inspect model" in str(caught.value)
    log = run(
        "debatebench/panel",
        tmp_path,
        main.model(),
        task_args={"task": "T", "with": ["reviewers/security", "skeptic"], "synth": "final-judge"},
        model_roles={"reviewers/security": security.model(), "final_judge": final.model()},
    )
    record = record_of(log)
    spoke = {t.participant: t.text.split("\n")[0] for t in record.turns}
    assert spoke == {
        "reviewers/security": "security",
        "skeptic": "main",
        "final-judge": "final word",
    }
    seats = {s.id: s.inspect_role for s in record.run.participants}  # type: ignore[union-attr]
    assert seats == {
        "reviewers/security": "reviewers/security",
        "skeptic": "skeptic",
        "final-judge": "final_judge",
    }


def test_persona_models_are_used_unless_turned_off(tmp_path: Path, in_tmp: Path) -> None:
    ws = workspace(in_tmp)
    persona(ws, "proposer", model="smoke", backend="echo")
    table(ws, "default", ["proposer", "skeptic"])  # a workspace's panel is its own
    record = record_of(
        run(panel(task="T"), tmp_path, replying(lambda m, c: f"main\n\n{DONE}").model())
    )
    models = {t.participant: t.model for t in record.turns}
    assert models["proposer"] == "debatebench-echo/smoke" and models["skeptic"] == "m"
    off = record_of(
        run(
            panel(task="T", persona_models=False),
            tmp_path,
            replying(lambda m, c: f"x\n\n{DONE}").model(),
        )
    )
    assert {t.model for t in off.turns} == {"m"}


def test_no_model_is_one_message_naming_the_participant(tmp_path: Path) -> None:
    log = eval(panel(task="T"), log_dir=str(tmp_path / "logs"), display="none")[0]
    error = (log.samples or [])[0].error
    assert error is not None and "no model for participant 'proposer'" in error.message


def numeric_task() -> Task:
    return Task(
        dataset=MemoryDataset([Sample(input="What is 6 times 7?", target="42")]),
        solver=[generate()],
        scorer=match(numeric=True),
    )


def test_deliberate_answers_a_stock_task_for_its_own_scorer(tmp_path: Path) -> None:
    def text(messages: list[Any], config: GenerateConfig) -> str:
        prompt = last_user_text(messages)
        if "Synthesize" in prompt:
            assert "ANSWER: <answer>" in prompt
            return "We agree it is 6 x 7.\nANSWER: 42"
        assert "What is 6 times 7?" in prompt and "ANSWER:" in prompt
        return f"ANSWER: 42\n\n{DONE}"

    script = replying(text)
    log = run(numeric_task(), tmp_path, script.model(), solver=deliberate(rounds=2))
    sample = (log.samples or [])[0]
    assert sample.output.completion == "We agree it is 6 x 7.\nANSWER: 42"
    assert (sample.scores or {})["match"].value == "C"
    record = sample.store_as(DeliberationRecord)
    assert record.outcome is not None and record.outcome.answer == "42"
    assert record.run is not None and record.run.task_source == "sample"


def test_deliberate_marks_the_choices_of_a_multiple_choice_task(tmp_path: Path) -> None:
    task = Task(
        dataset=MemoryDataset(
            [Sample(input="Closest planet to the Sun?", choices=["Venus", "Mercury"], target="B")]
        ),
        solver=[generate()],
        scorer=choice(),
    )
    script = replying(
        lambda m, c: "ANSWER: B" if "Synthesize" in last_user_text(m) else f"B) Mercury\n\n{DONE}"
    )
    log = run(task, tmp_path, script.model(), solver=deliberate())
    sample = (log.samples or [])[0]
    assert "A) Venus\nB) Mercury" in last_user_text(script.calls[0].messages)
    assert (sample.scores or {})["choice"].value == "C"


def test_deliberate_refuses_a_decision_protocol_and_unknown_keys() -> None:
    with pytest.raises(ConfigError, match="-S protocol: protocol adjudication ends in a decision"):
        deliberate(protocol="adjudication")
    with pytest.raises(ConfigError, match="-S rouns: unknown argument"):
        deliberate(rouns=2)
    with pytest.raises(ConfigError, match="-S with: an empty persona selector in 'proposer,'"):
        deliberate(**{"with": ["proposer", ""]})


def test_the_echo_provider_is_an_inspect_model() -> None:
    import asyncio

    from debatebench_eval.judging.options import judge_config
    from debatebench_eval.protocols import echo
    from debatebench_eval.protocols.decision import decision_schema

    model = get_model("debatebench-echo/smoke")
    out = asyncio.run(model.generate("Hi", config=GenerateConfig(max_tokens=100)))
    assert (
        out.completion == echo.CANNED_REPLY
        and out.usage is not None
        and out.usage.output_tokens == len(echo.CANNED_REPLY.split())
    )
    cut = asyncio.run(model.generate("Hi", config=GenerateConfig(max_tokens=3)))
    assert cut.completion == "I agree with" and cut.stop_reason == "max_tokens"
    schema = decision_schema(("accept", "revise"))
    for mode in ("true", "object"):
        reply = asyncio.run(
            model.generate("Decide", config=judge_config(model, 500, 1, schema, "decision", mode))
        )
        data = json.loads(reply.completion)
        assert (
            data["final_decision"] == "accept"
            and data["confidence"] == 0.5
            and data["request_round"] is False
        )


def test_the_task_comes_inline_from_a_file_or_a_quoted_at_path(in_tmp: Path) -> None:
    from debatebench_eval.protocols.tasks import task_text

    (in_tmp / "plan.md").write_text("Ship on Friday?\n")
    assert task_text("Ship it?", None) == ("Ship it?", "inline")
    assert task_text(["Ship it", " now?"], None) == ("Ship it, now?", "inline")  # comma-split
    assert task_text(None, "plan.md") == ("Ship on Friday?", "file")
    assert task_text("@plan.md", None) == ("Ship on Friday?", "file")  # -T 'task="@plan.md"'
    assert task_text({"Decide": "now or later?"}, None) == ("Decide: now or later?", "inline")
    for task, file, says in [
        ("a", "plan.md", "both were given"),
        (None, None, "-T task: missing"),
        ({True: "do it"}, None, "YAML read the value as {True: 'do it'}"),
        ([None], None, "YAML read the value as [None]"),
        ("@missing.md", None, "-T task: file not found"),
    ]:
        with pytest.raises(ConfigError) as caught:
            task_text(task, file)
        assert says in str(caught.value)


def test_a_judge_prompt_too_long_for_the_context_names_the_options_that_size_it(
    tmp_path: Path, proposal: Path
) -> None:
    # adjudicate has no judge_budget: its judge is capped by final_budget and reads
    # turns capped by budget, so those are what the failure tells the user to lower.
    refused = "This model's maximum context length is 4096 tokens."
    script = adjudication_script(lambda n: refused)
    judge_output = script.reply

    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        answer = judge_output(n, messages, config)
        if answer.completion == refused:
            return output("m", refused, stop="model_length")
        return answer

    script.reply = reply
    log = run(
        adjudicate(proposal=str(proposal), debate_type="method_fit"), tmp_path, script.model()
    )
    error = (log.samples or [])[0].error
    assert error is not None
    message = error.message
    assert "do not fit the judge's context window" in message
    assert "maximum context length" in message
    assert "lower -T final_budget, or -T budget" in message and "judge_budget" not in message
