"""The protocols' reply models: what each kind of server is sent, and that a
reply following the sent schema exactly passes the check built from the same
model.

The judge's decision is the protocols' one JSON reply; the panel's signal is
a block inside a prose turn (heurema's), read through its own typed model and
never sent as a schema. Positions, critiques and syntheses are prose.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval

from debatebench_eval.core.reply_model import TEXT_PATTERN
from debatebench_eval.protocols.decision import (
    check_decision,
    decision_model,
    decision_schema,
    decision_shape,
)
from debatebench_eval.protocols.echo import CANNED_REPLY, schema_instance
from debatebench_eval.protocols.record import DeliberationRecord, Signal
from debatebench_eval.protocols.signals import parse_signal
from debatebench_eval.protocols.tasks import adjudicate
from debatebench_eval.servers.schema_forms import server_schema

from support.deliberation import last_user_text
from support.grammar import gbnf, grammar_accepts
from support.schemas import resolved, sent_resolved
from support.scripted import Script, output

ALLOWED = ("accept", "revise", "escalate")
TEXT_KEYS = ("proposal", "reasoning_summary", "dissent")
LIST_KEYS = (
    "competing_options", "supporting_evidence", "opposing_evidence", "unresolved_concerns",
    "revisions",
)  # fmt: skip
KINDS = ("llama-cpp-python", "llama.cpp", "ollama", "other", None)
STEPS = [round(i / 20, 6) for i in range(21)]


def sent(kind: str | None, allowed: tuple[str, ...] = ALLOWED) -> dict[str, Any]:
    """The schema a server is sent, references written out as the server resolves them."""
    return sent_resolved(decision_schema(allowed), kind)  # type: ignore[arg-type]


def text_rules(node: dict[str, Any]) -> tuple[Any, ...]:
    # The pattern carries the minimum length: OpenAI's strict mode refuses
    # minLength, and llama.cpp's converters ignore it beside a pattern.
    return node["type"], node["pattern"]


@pytest.mark.parametrize("kind", KINDS)
def test_every_server_is_sent_the_keys_the_decisions_and_the_text_rules(
    kind: str | None,
) -> None:
    schema = sent(kind, ("accept", "escalate"))
    props = schema["properties"]
    assert list(props) == list(decision_model(ALLOWED).model_fields)
    assert schema["required"] == list(props) and schema["additionalProperties"] is False
    # Inspect's JSONSchema has no references: hosted providers get the schema written out.
    as_sent = json.dumps(server_schema(decision_schema(ALLOWED), kind))  # type: ignore[arg-type]
    assert ("$ref" in as_sent) == (kind in ("llama-cpp-python", "llama.cpp", "ollama"))
    assert props["final_decision"] == {"type": "string", "enum": ["accept", "escalate"]}
    prose = ("string", TEXT_PATTERN)
    assert all(text_rules(props[key]) == prose for key in TEXT_KEYS)
    assert all(text_rules(props[key]["items"]) == prose for key in LIST_KEYS)
    assert props["request_round"] == {"type": "boolean"}
    assert props["round_question"] == {"type": "string"}  # empty unless a round is asked


@pytest.mark.parametrize("kind", ["llama-cpp-python", "llama.cpp", "ollama"])
def test_grammar_servers_get_confidence_as_an_enum(kind: str) -> None:
    # Their schema-to-grammar converters ignore minimum/maximum on numbers.
    confidence = sent(kind)["properties"]["confidence"]
    assert confidence["type"] == "number" and confidence["enum"] == STEPS


@pytest.mark.parametrize("kind", [None, "other"])
def test_hosted_providers_get_confidence_as_a_range(kind: str | None) -> None:
    confidence = sent(kind)["properties"]["confidence"]
    assert confidence == {"type": "number", "minimum": 0, "maximum": 1}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "allowed", [ALLOWED, ("escalate", "accept"), ("accept",), ("approve", "reject")]
)
def test_a_reply_that_follows_the_schema_exactly_passes(
    kind: str | None, allowed: tuple[str, ...]
) -> None:
    reply = schema_instance(sent(kind, allowed))
    decision, problems = check_decision(reply, allowed)
    assert problems == [] and decision is not None and decision.value == allowed[0]


def test_every_confidence_step_a_grammar_allows_passes() -> None:
    for step in sent("llama-cpp-python")["properties"]["confidence"]["enum"]:
        reply = {**schema_instance(sent("llama-cpp-python")), "confidence": step}
        assert check_decision(reply, ALLOWED)[1] == [], step


def test_the_rules_the_schema_cannot_carry_are_the_checks_alone() -> None:
    # Both tie two keys together: a schema-following reply can break them, and the
    # check names the key to fix (the model's docstring lists them).
    revise = schema_instance(sent("llama-cpp-python", ("revise", "accept")))
    assert check_decision(revise, ("revise", "accept"))[1] == [
        '"revisions" is an array of 0; "revise" needs specific revisions (at least one)'
    ]
    asks = {**schema_instance(sent(None)), "request_round": True, "round_question": ""}
    assert check_decision(asks, ALLOWED)[1] == [
        '"round_question" is \'\'; "request_round" is true, so it must say what to debate'
    ]
    doc = decision_model(ALLOWED).__doc__ or ""
    assert "a `revise` lists at least one revision" in doc and "`round_question`" in doc


def test_the_prompt_lists_the_models_keys_and_a_key_copied_back_is_refused() -> None:
    shape = decision_shape(ALLOWED)
    keys = [line.split('"')[1] for line in shape.splitlines()]
    assert keys == list(decision_model(ALLOWED).model_fields)
    assert '- "final_decision": one of accept, revise, escalate' in shape
    copied = {
        **schema_instance(sent(None)),
        "dissent": "the strongest dissent, acknowledged even when you accept",
    }
    problems = check_decision(copied, ALLOWED)[1]
    assert problems == [
        "\"dissent\" is 'the strongest dissent, acknowledged even when you accept'; "
        "it repeats the reply shape's placeholder instead of answering"
    ]


def test_the_decision_call_sends_the_schema_in_its_servers_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The judge is taken for a llama-cpp-python server: auto picks `object` and the
    # schema goes with confidence as an enum; a schema-following reply decides.
    async def llama_cpp_python(model: Any) -> str:
        return "llama-cpp-python"

    monkeypatch.setattr("debatebench_eval.judging.options.server_kind", llama_cpp_python)
    monkeypatch.setattr("debatebench_eval.judging.structured.server_kind", llama_cpp_python)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "proposal.md").write_text("Measure burnout with one item.\n", encoding="utf-8")

    def reply(n: int, messages: list[Any], config: Any) -> Any:
        body = config.extra_body or {}
        if "response_format" not in body:
            return output("m", f"Position {n}.")
        schema = resolved(body["response_format"]["schema"])
        return output("m", json.dumps(schema_instance(schema)))

    script = Script("m", reply=reply)
    log = eval(
        adjudicate(proposal="proposal.md", debate_type="method_fit"),
        model=script.model(),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    judged = [c for c in script.calls if "response_format" in (c.config.extra_body or {})]
    assert len(judged) == 1 and '"final_decision"' in last_user_text(judged[0].messages)
    format_ = judged[0].config.extra_body["response_format"]  # type: ignore[index]
    assert format_["type"] == "json_object"
    assert format_["schema"] == server_schema(decision_schema(ALLOWED), "llama-cpp-python")
    record = (log.samples or [])[0].store_as(DeliberationRecord)
    assert record.outcome is not None and record.outcome.status == "decided"
    assert record.outcome.answer == "accept" and record.outcome.decision is not None
    assert record.outcome.decision["confidence"] == 0.0


def test_the_signal_block_is_read_through_its_model() -> None:
    assert parse_signal(CANNED_REPLY) == Signal(position="agree", objections=[], done=True)
    # heurema ignores keys it does not know, and every key may be left out
    block = '```signal\n{"done": true, "confidence": "high"}\n```'
    assert parse_signal(block) == Signal(done=True)
    assert parse_signal('```signal\n{"position": 3}\n```') is None  # a wrong type is unreadable
    assert parse_signal('```signal\n{"objections": ["a", 1]}\n```') is None


def test_the_echo_instance_meets_lengths_and_counts() -> None:
    schema = {
        "type": "object",
        "properties": {
            "claims": {
                "type": "array",
                "minItems": 2,
                "items": {"type": "string", "minLength": 12},
            },
            "side": {"const": "pro"},
        },
    }
    instance = schema_instance(schema)
    assert instance["side"] == "pro" and len(instance["claims"]) == 2
    assert all(len(claim) >= 12 for claim in instance["claims"])


@pytest.mark.embedded_model
def test_llama_cpp_pythons_own_grammar_holds_the_decision_rules() -> None:
    grammar = sent("llama-cpp-python")
    good = schema_instance(grammar)
    good.update(dissent="The skeptic doubts it.", confidence=0.75)
    assert grammar_accepts(grammar, json.dumps(good)), gbnf(grammar)
    for breaks in (
        {"confidence": 0.81},  # between the grammar's steps
        {"confidence": 3},
        {"final_decision": "reject"},
        {"dissent": "..."},
        {"proposal": "<summary>"},
        {"extra": 1},
    ):
        assert not grammar_accepts(grammar, json.dumps({**good, **breaks})), breaks
