"""The rules, without a model: visibility, heurema's signals and stop rules, the
decision check, persona models and role names, answers."""

from __future__ import annotations

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.protocols.answers import choice_index, parse_answer, question_text
from debatebench_eval.protocols.decision import check_decision, decision_schema, next_step
from debatebench_eval.protocols.models import inspect_role, persona_model, role_candidates
from debatebench_eval.protocols.personas import Persona
from debatebench_eval.protocols.prompts import SIGNAL_INSTRUCTION, board, round_prompt
from debatebench_eval.protocols.record import DeliberationTurn, RoundResult, Signal
from debatebench_eval.protocols.signals import (
    assess,
    parse_signal,
    stop_reason,
    unheard,
    without_signal,
)
from debatebench_eval.protocols.spec import Converge, load_protocol
from debatebench_eval.protocols.visibility import shown_turns
from debatebench_eval.record.store import TurnUsage

from support.deliberation import DONE, objecting


def turn(round_: int, who: str, text: str = "text") -> DeliberationTurn:
    return DeliberationTurn(
        id=f"{round_}{who}", round=round_, round_name="r", participant=who, persona_id=who,
        inspect_role=who, model="m", text=text, words=1, budget=10, hit_budget=False,
        finish_reason="stop", usage=TurnUsage(), latency_ms=1, started_at="t", visibility="all",
    )  # fmt: skip


TURNS = [turn(1, "a"), turn(1, "b"), turn(2, "a"), turn(2, "b"), turn(3, "a")]


@pytest.mark.parametrize(
    ("visibility", "sequential", "shown"),
    [
        ("none", False, []),
        ("none", True, ["3a"]),
        ("previous", False, ["2a", "2b"]),
        ("previous", True, ["2a", "2b", "3a"]),
        ("all", False, ["1a", "1b", "2a", "2b"]),
        ("all", True, ["1a", "1b", "2a", "2b", "3a"]),
    ],
)
def test_visibility(visibility: str, sequential: bool, shown: list[str]) -> None:
    assert [t.id for t in shown_turns(TURNS, 3, visibility, sequential)] == shown


def test_signal_parsing_follows_heurema() -> None:
    assert parse_signal(f"I agree.\n\n{DONE}") == Signal(
        position="ship it", objections=[], done=True
    )
    # done with objections is not done; the last complete block counts
    text = f"{DONE}\nlater:\n" + objecting("no tests")
    assert parse_signal(text) == Signal(position="wait", objections=["no tests"], done=False)
    both = '```signal\n{"position": "x", "objections": ["o"], "done": true}\n```'
    assert parse_signal(both) == Signal(position="x", objections=["o"], done=False)
    assert parse_signal(f'{DONE}\n```signal\n{{"done": true}}') is not None  # unclosed ignored
    for bad in (
        "no block",
        "```signal\nnot json\n```",
        '```signal\n["x"]\n```',
        '```signal\n{"objections": "one"}\n```',
        '```signal\n{"done": "yes"}\n```',
    ):
        assert parse_signal(bad) is None, bad  # fmt: skip
    assert parse_signal('```signal\n{"objections": null}\n```') == Signal()


def test_a_panel_with_no_signal_read_is_unheard() -> None:
    assert unheard([None, None], 1, "max") == (
        "no participant's signal was parsed in 1 round(s) (2 turns), so whether the panel "
        "converged is unknown (the loop stopped on max); each turn must end with a fenced "
        "```signal block holding a JSON object"
    )
    assert unheard([None, Signal()], 1, "max") is None  # one signal read is a panel heard
    assert unheard([], 0, "max") is None  # no signalled round: nothing to hear


def test_word_counts_leave_out_the_signal_block() -> None:
    assert without_signal(f"one two three\n\n{DONE}").split() == ["one", "two", "three"]


def test_round_verdict() -> None:
    done, objecting_a = parse_signal(DONE), parse_signal(objecting("a"))
    clean = assess(1, "r", [done, done], "all", None)
    assert clean.clean and clean.done == 2 and not clean.progress  # first round, no objections
    unparsed = assess(2, "r", [done, None], "all", clean)
    assert not unparsed.clean and unparsed.done == 1
    quorum = assess(2, "r", [done, done, None], "quorum", clean)
    assert quorum.clean
    half = assess(2, "r", [done, None], "quorum", clean)
    assert not half.clean  # more than half, not half
    moved = assess(3, "r", [objecting_a, done], "all", clean)
    assert moved.progress and moved.objections == ["a"]
    assert not assess(4, "r", [objecting_a, done], "all", moved).progress


def result(clean: bool, progress: bool = False) -> RoundResult:
    return RoundResult(round=1, name="r", clean=clean, progress=progress, done=0)


HEUREMA = Converge(until="all", settle=2, patience=3)


@pytest.mark.parametrize(
    ("rounds", "max_rounds", "reason"),
    [
        ([result(True)], 10, None),
        ([result(True), result(True)], 10, "settled"),
        ([result(True), result(False, True), result(True)], 10, None),
        ([result(False)] * 3, 10, "stalemate"),
        ([result(False), result(False, True), result(False), result(False)], 10, None),
        (
            [result(False), result(False, True), result(False)] + [result(False)] * 2,
            10,
            "stalemate",
        ),
        ([result(False, True)] * 2, 2, "max"),
        ([result(True), result(True)], 2, "settled"),  # settled outranks max
        ([result(False)] * 3, 3, "stalemate"),  # stalemate outranks max
    ],
)
def test_stop_rules_and_their_precedence(
    rounds: list[RoundResult], max_rounds: int, reason: str | None
) -> None:
    assert stop_reason(rounds, HEUREMA, max_rounds) == reason


def test_without_convergence_only_the_limit_stops() -> None:
    assert stop_reason([result(True)] * 2, None, 3) is None
    assert stop_reason([result(True)] * 3, None, 3) == "max"


ALLOWED = ("accept", "revise", "escalate")


def reply(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "final_decision": "accept", "proposal": "One survey item", "reasoning_summary": "Sound.",
        "competing_options": ["one item", "full scale"], "supporting_evidence": ["cheap"],
        "opposing_evidence": ["unreliable"], "unresolved_concerns": [], "confidence": 0.7,
        "dissent": "The skeptic doubts it.", "revisions": [], "request_round": False,
        "round_question": "",
    }  # fmt: skip
    base.update(changes)
    return base


def test_a_good_decision_passes() -> None:
    decision, problems = check_decision(reply(), ALLOWED)
    assert problems == [] and decision is not None and decision.value == "accept"
    assert decision.record == reply()
    assert decision_schema(ALLOWED)["required"] == list(reply())


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        (
            {"final_decision": "reject"},
            "\"final_decision\" is 'reject'; expected one of 'accept', 'revise' or 'escalate'",
        ),
        (
            {"final_decision": "revise"},
            '"revisions" is an array of 0; "revise" needs specific revisions (at least one)',
        ),
        ({"confidence": 1.5}, '"confidence" is 1.5; expected at most 1.0'),
        ({"confidence": -0.1}, '"confidence" is -0.1; expected at least 0.0'),
        ({"confidence": "high"}, "\"confidence\" is 'high'; expected a number"),
        ({"confidence": True}, '"confidence" is true; expected a number'),
        ({"dissent": " "}, "\"dissent\" is ' '; expected at least 3 characters"),
        ({"dissent": "..."}, "\"dissent\" is '...'; it has no words"),
        ({"supporting_evidence": "one"}, "\"supporting_evidence\" is 'one'; expected an array"),
        (
            {"opposing_evidence": ["fine", ""]},
            "\"opposing_evidence[1]\" is ''; expected at least 3",
        ),
        (
            {"request_round": True},
            '"round_question" is \'\'; "request_round" is true, so it must say what to debate',
        ),
        ({"request_round": "yes"}, "\"request_round\" is 'yes'; expected true or false"),
        ({"round_question": 3}, '"round_question" is 3; expected a string'),
        ({"extra": 1}, 'unexpected key "extra"'),
        (
            {"proposal": "a one-line summary of what was debated"},
            "\"proposal\" is 'a one-line summary of what was debated'; it repeats the reply "
            "shape's placeholder",
        ),
    ],
)
def test_every_decision_rule(changes: dict[str, object], says: str) -> None:
    decision, problems = check_decision(reply(**changes), ALLOWED)
    assert decision is None and any(p.startswith(says) for p in problems), problems


def test_every_problem_is_named_at_once() -> None:
    data = reply(final_decision="maybe", confidence=2)
    del data["dissent"]
    problems = check_decision(data, ALLOWED)[1]
    assert problems == [
        "\"final_decision\" is 'maybe'; expected one of 'accept', 'revise' or 'escalate'",
        '"confidence" is 2; expected at most 1.0',
        '"dissent" is missing',
    ]
    assert check_decision([1], ALLOWED)[1] == ["the reply is an array of 1; expected an object"]


def test_the_extra_round_rule() -> None:
    asks = check_decision(reply(request_round=True, round_question="Is it valid?"), ALLOWED)[0]
    settles = check_decision(reply(), ALLOWED)[0]
    assert asks is not None and settles is not None
    assert next_step(settles, 0, 1) == "decide"
    assert next_step(asks, 0, 1) == "extra_round"
    assert next_step(asks, 1, 1) == "forced"
    assert next_step(asks, 0, 0) == "decide"  # no extra round in the protocol


def persona_with(model: str, backend: str | None = None) -> Persona:
    return Persona(
        id="p", role="debater", model=model, effort="low", system="s", file="p.md", backend=backend
    )


@pytest.mark.parametrize(
    ("model", "backend", "expected"),
    [
        ("ollama/qwen3:8b", None, "ollama/qwen3:8b"),
        ("inherit", None, None),
        ("claude-haiku-4-5", None, "anthropic/claude-haiku-4-5"),
        ("claude-haiku-4-5", "claude-agent-acp", "anthropic/claude-haiku-4-5"),
        ("gpt-4o-mini", None, "openai/gpt-4o-mini"),
        ("o3-mini", None, "openai/o3-mini"),
        ("gemini-2.5-pro", None, "google/gemini-2.5-pro"),
        ("echo-local", "echo", "debatebench-echo/echo-local"),
    ],
)
def test_persona_models_map_to_inspect_models(
    model: str, backend: str | None, expected: str | None
) -> None:
    assert persona_model(persona_with(model, backend)) == expected


@pytest.mark.parametrize(
    ("model", "backend"), [("sonnet", None), ("codex", None), ("qwen3:8b", None), ("x", "unset")]
)
def test_unmappable_models_name_the_file_and_key(model: str, backend: str | None) -> None:
    with pytest.raises(ConfigError) as caught:
        persona_model(persona_with(model, backend))
    assert str(caught.value).startswith("p.md: model" if backend is None else "p.md: backend")


def test_role_names_follow_inspects_parser() -> None:
    assert inspect_role("final-judge") == "final_judge"
    assert role_candidates("reviewers/security") == ["reviewers/security"]
    assert role_candidates("final-judge", "synthesis") == [
        "final-judge",
        "final_judge",
        "synthesizer",
    ]
    assert role_candidates("judge", "decision") == ["judge"]


def test_answers() -> None:
    assert parse_answer("Work...\nANSWER: 42") == "42"
    assert parse_answer("ANSWER: 1\nthen\n**Answer:** `7`") == "7"
    assert parse_answer("no answer line") is None
    assert (
        question_text("Q?", ["x", "y"])
        == "Q?\n\nA) x\nB) y\n\nThe answer is the letter of the correct option."
    )
    assert [choice_index(a, 3) for a in ("B", "(c)", "A.", "D", "42", None)] == [
        1,
        2,
        0,
        None,
        None,
        None,
    ]


def test_round_prompts_show_what_the_round_allows() -> None:
    adjudication = load_protocol("adjudication")
    positions, critique = adjudication.rounds
    first = round_prompt(adjudication, positions, "Proposal X", [], 1)
    assert "## Discussion" not in first and "at most 250 words" in first
    second = round_prompt(adjudication, critique, "Proposal X", TURNS[:2], 2)
    assert board(TURNS[:2]) in second and "at most 150 words" in second
    panel = load_protocol("panel")
    text = round_prompt(panel, panel.rounds[0], "Task T", [], 1)
    # heurema's prompt: moderator rules, brief, signal instruction, nothing else
    assert text == f"{panel.preamble}\n\n## Brief\n\nTask T\n\n{SIGNAL_INSTRUCTION}"


def test_the_bundled_questions_are_well_formed() -> None:
    import json

    from debatebench_eval.core.resources import data_file

    path = data_file("tasks", "questions", "deliberation.jsonl")
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == 32 and len({r["id"] for r in rows}) == 32
    assert all(set(r) == {"id", "input", "target", "kind"} for r in rows)
    assert all(r["target"].isdigit() and r["kind"] in ("arithmetic", "rate", "trap") for r in rows)
