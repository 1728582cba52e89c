"""Every call of a run is checked against the server's context before the first call:
the debaters' turns with every earlier turn at its budget, the judge's and the
fact-check's over a transcript of every turn at its budget, and the crucible's
calls at their budgets. A server that reports its context (llama.cpp's /props)
needs no -T context_window."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import get_model

from debatebench_eval.debating.config import DebateSettings
from debatebench_eval.debating.context_plan import DebatePlan, JudgedCalls, planned_calls
from debatebench_eval.debating.speech import Speaker
from debatebench_eval.judging.options import JudgingOptions
from debatebench_eval.record.motions import single_motion
from debatebench_eval.record.protocol import parse_phases, speaking_order
from debatebench_eval.record.store import Passage, RunSettings
from debatebench_eval.record.teams import resolve_team
from debatebench_eval.servers.context_window import reported_context
from debatebench_eval.truth_crucible.context_plan import skeleton

from support.commands import only_log, run
from support.stub_server import StubBehaviour, StubServer

# The tests that run DEBATE are whole `inspect eval` commands: marked `command`, so slow.
DEBATE = ["eval", "debatebench/debate", "--model", "ollama/stub", "--limit", "1"]


def llama_cpp(n_ctx: int = 4096) -> StubBehaviour:
    """A llama.cpp server holding `n_ctx` tokens a request, with its tokenizer."""
    props = {"default_generation_settings": {"n_ctx": n_ctx}}
    return StubBehaviour(
        server="llama.cpp", tokenizer="llama.cpp", fill_schemas=True, pages={"/props": (200, props)}
    )


def failure(log_dir: Path) -> str:
    sample = (only_log(log_dir).samples or [])[0]
    assert sample.error is not None and not sample.scores
    return sample.error.message


@pytest.mark.command
def test_defaults_on_a_4096_token_server_stop_before_the_first_call(tmp_path: Path) -> None:
    """The reported case: default budgets (2,000 a turn, 6,000 for the judge) and no
    -T context_window, on a server whose /props says 4096."""
    with StubServer(llama_cpp(4096)) as stub:
        run(DEBATE, stub.base_url, tmp_path)
    message = failure(tmp_path)
    assert stub.behaviour.requests == []  # no model was asked anything
    assert "the window is 4096 (reported by the server at" in message
    assert "This is an estimate, made before any call" in message
    assert "so nothing was called: lower -T budget or -T judge_budget" in message


@pytest.mark.command
def test_a_judge_that_cannot_fit_the_worst_transcript_is_named(tmp_path: Path) -> None:
    """Turns that fit, a judge that cannot: the debate is not spoken for nothing."""
    with StubServer(llama_cpp(3000)) as stub:
        run([*DEBATE, "-T", "format=lightning", "-T", "budget=500", "-T", "fact_check=false"],
            stub.base_url, tmp_path)  # fmt: skip
    message = failure(tmp_path)
    assert message.startswith("DebateError(\"the rubric's reading by judge ollama/stub cannot fit")
    assert "2000 for turns not yet spoken (each at its budget)" in message  # 4 turns x 500
    assert "the call's budget of 6000" in message
    assert "lower -T judge_budget, or shorten" in message
    assert stub.behaviour.requests == []


@pytest.mark.command
def test_a_debate_that_fits_the_reported_context_runs_and_counts_once_per_call(
    tmp_path: Path,
) -> None:
    with StubServer(llama_cpp(4096)) as stub:
        run([*DEBATE, "-T", "format=lightning", "-T", "budget=100", "-T", "judge_budget=500"],
            stub.base_url, tmp_path)  # fmt: skip
    sample = (only_log(tmp_path).samples or [])[0]
    assert sample.error is None and sample.scores
    # 4 turns, the rubric's reading and the fact-check, each counted once before the first
    # call; with no -T context_window, the turns are not counted again.
    assert len(stub.behaviour.count_requests) == 6
    # Once for the context, for every sample and call; once by servers.kind (the judge's
    # JSON mode).
    assert stub.behaviour.get_paths.count("/props") == 2


@pytest.mark.command
def test_a_given_context_window_wins_over_a_server_that_reports_none(tmp_path: Path) -> None:
    behaviour = StubBehaviour(tokenizer="llama.cpp")  # counts tokens, reports no context
    with StubServer(behaviour) as stub:
        run([*DEBATE, "-T", "format=lightning", "-T", "budget=100", "-T", "judge_budget=500",
             "-T", "context_window=900"], stub.base_url, tmp_path)  # fmt: skip
    message = failure(tmp_path)
    assert "the window is 900 (-T context_window)" in message
    assert stub.behaviour.requests == []


@pytest.mark.command
def test_the_crucible_at_its_default_budgets_stops_before_its_first_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEBATEBENCH_EVAL_CACHE", str(tmp_path / "index-cache"))
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))
    with StubServer(llama_cpp(4096)) as stub:
        run(["eval", "debatebench/crucible", "--model", "ollama/stub"], stub.base_url, tmp_path)
    message = failure(tmp_path)
    assert stub.behaviour.requests == []
    assert "the pro side's calls (ollama/stub) cannot fit the context window" in message
    assert "at worst it needs at least about" in message and "part of its prompt" in message
    assert "the call's budget of 4000" in message
    assert "lower -T budget or -T judge_budget" in message  # the judges' 6,000 too


@pytest.mark.parametrize(
    ("page", "context"),
    [
        ((200, {"default_generation_settings": {"n_ctx": 2048}, "n_ctx": 8192}), 2048),
        ((200, {"n_ctx": 1024}), 1024),
        ((200, {"default_generation_settings": {"n_ctx": "big"}}), None),
        ((404, {"error": "not found"}), None),
    ],
)
def test_the_context_a_server_reports_is_its_slots(
    page: tuple[int, dict[str, Any]], context: int | None
) -> None:
    """A request gets one slot's context (default_generation_settings), not the server's
    total, which its parallel slots share."""
    with StubServer(StubBehaviour(pages={"/props": page})) as stub:
        model = get_model("ollama/stub", base_url=stub.base_url, memoize=False)
        assert asyncio.run(reported_context(model)) == context


def _plan(phases: str, budgets: dict[str, int], prep: int | None = None) -> DebatePlan:
    settings = DebateSettings(
        motions=(single_motion("Cities should ban cars."),),
        phases=parse_phases(phases),
        teams={"pro": resolve_team("advocate"), "con": resolve_team("skeptic")},
        budgets=budgets,
        prep_budgets={"pro": prep, "con": prep},
    )
    model = get_model("mockllm/model")
    speakers = {side: Speaker(side, side, model, settings.teams[side], budgets[side])
                for side in ("pro", "con")}  # type: ignore[arg-type]  # fmt: skip
    run_settings = RunSettings(
        motion_id="m", motion="Cities should ban cars.", topic="cars", phases=[phases],
        initiative=[], seed=7, seed_source="test", paired=False, swapped=False, sides=[],
    )  # fmt: skip
    orders = speaking_order(settings.phases)
    passages = [Passage(id=f"P{n}", pool="example", row_id=f"r{n}", side=side, text="Evidence.")
                for n, side in enumerate(("pro", "con"), 1)] if prep else []  # fmt: skip
    return DebatePlan(settings, speakers, orders, run_settings, passages, "s1", 1)  # type: ignore[arg-type]


def test_each_turn_is_planned_with_every_earlier_turn_it_is_shown_at_its_budget() -> None:
    plan = _plan("[opening:short, rebuttal:short, conclusion:short]", {"pro": 100, "con": 70})
    calls = planned_calls(plan, [], None)
    spoken = [(call.where.split(" (ollama")[0].split(" (mockllm")[0], call.unwritten)
              for call in calls]  # fmt: skip
    assert [call.budget for call in calls] == [100, 70, 70, 100, 100, 70]
    assert [unwritten for _, unwritten in spoken] == [0, 100, 170, 240, 340, 440]
    assert all(call.option == "-T budget" for call in calls)


def test_a_reasoning_budget_is_planned_into_the_turns_cap_and_every_later_speech() -> None:
    """A model that thinks less than its reasoning budget may speak for the rest, so at
    its worst a speech is the whole cap sent (budget + reasoning budget)."""
    plan = _plan("[opening:short, conclusion:short]", {"pro": 100, "con": 70})
    speakers = {**plan.speakers, "pro": replace(plan.speakers["pro"], reasoning_budget=50)}
    calls = planned_calls(replace(plan, speakers=speakers), [], None)  # type: ignore[arg-type]
    assert [call.budget for call in calls] == [150, 70, 70, 150]
    assert [call.unwritten for call in calls] == [0, 150, 220, 290]
    assert [call.option for call in calls] == [
        "-T budget or -T reasoning_budget", "-T budget", "-T budget",
        "-T budget or -T reasoning_budget",
    ]  # fmt: skip


def test_an_opponents_prep_is_not_in_a_turn_but_every_turn_is_in_the_judges() -> None:
    plan = _plan("[prep, opening:short]", {"pro": 100, "con": 70}, prep=300)
    judges = [get_model("mockllm/model")]
    judging = JudgedCalls(JudgingOptions(judge_budget=900), fact_check=True)
    calls = planned_calls(plan, judges, judging)
    turns, (rubric, fact_check) = calls[:4], calls[4:]
    assert [call.budget for call in turns] == [300, 300, 100, 70]
    assert [call.option for call in turns[:2]] == ["-T prep_budget"] * 2
    # Pro's opening is shown its own notes (300) only; con's, its notes and pro's opening.
    assert [call.unwritten for call in turns] == [0, 0, 300, 400]
    for judge_call in (rubric, fact_check):
        assert judge_call.unwritten == 300 + 300 + 100 + 70 and judge_call.budget == 900
        assert judge_call.option == "-T judge_budget"
    text = "\n".join(m.text for m in rubric.messages)
    assert "unwritten turn" not in text and "Side A" in text


def test_a_crucible_calls_floor_is_its_templates_fixed_words() -> None:
    """What a crucible call is planned with: never more than it sends."""
    template = "File {count} claims from {hits} as {{json}}."
    assert skeleton(template) == "File  claims from  as {json}."
