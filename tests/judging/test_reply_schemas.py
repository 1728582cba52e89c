"""Judge replies valid by construction (issue 24): the schema each kind of server
is sent carries every rule a grammar can carry, in the form that server honours,
and llama.cpp's own grammar engine holds a model to them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from inspect_ai.model import get_model
from inspect_ai.util import JSONSchema, Store
from inspect_ai.util._json import json_schema_dump

from debatebench_eval.core.reply_model import (
    TEXT_PATTERN,
    WORD_CHARS,
    text_pattern,
    words_pattern,
)
from debatebench_eval.judging import ledger, rubric
from debatebench_eval.judging.blind import Orientation
from debatebench_eval.judging.options import judge_config
from debatebench_eval.judging.rubric import (
    LEDGER_MAX_POINTS,
    LEDGER_STATUSES,
    STANCES,
    TEXT_MAX_CHARS,
    default_rubric,
    reply_schema,
)
from debatebench_eval.record.store import DebateRecord, Passage
from debatebench_eval.servers import schema_forms
from debatebench_eval.servers.kind import ServerKind
from debatebench_eval.servers.schema_forms import server_schema

from support.grammar import GrammarError, grammar_accepts
from support.judge_replies import MAXIMA, NO_CLAIMS, changed_reply, rubric_reply, side_scores
from support.reply_models import opening_turn
from support.schemas import resolved, sent_resolved

RUBRIC = default_rubric()
KINDS: list[ServerKind | None] = ["llama-cpp-python", "llama.cpp", "ollama", "other", None]
# Kinds whose converter (llama.cpp's common/json-schema-to-grammar.cpp) enforces
# integer minimum/maximum: ranges stay bounds there; elsewhere they go as an enum.
BOUNDS_KEPT = ("llama.cpp", "ollama")
# Judge texts: a word first, 3 to TEXT_MAX_CHARS characters, in the pattern itself.
JUDGE_TEXT = text_pattern(TEXT_MAX_CHARS)


def nodes(schema: Any) -> Iterator[dict[str, Any]]:
    """Every schema object inside `schema` (property maps are names, not schemas)."""
    if isinstance(schema, list):
        for item in schema:
            yield from nodes(item)
    elif isinstance(schema, dict):
        yield schema
        for key, value in schema.items():
            if key == "properties":
                for sub in value.values():
                    yield from nodes(sub)
            else:
                yield from nodes(value)


def record() -> DebateRecord:
    rec = DebateRecord(store=Store())
    rec.turns = [
        opening_turn("t00000001", "pro", "Road deaths fell by forty percent in Pontevedra."),
        opening_turn("t00000002", "con", "Shops in car-free zones lost customers."),
    ]
    rec.passages = [Passage(id="P1", pool="p", row_id="r1", side="pro", text="Deaths fell.")]
    return rec


# The fact-check reads PRO as Side A here.
PRO_FIRST = Orientation("pro", "con")


def ledger_schema(budget: int | None = None) -> dict[str, Any]:
    return ledger.reply_schema(record(), PRO_FIRST, budget)


# ------------------------------------------------------------- the schema sent, per kind


@pytest.mark.parametrize("kind", KINDS)
def test_the_rubric_schema_sent_carries_each_range_and_enum(kind: ServerKind | None) -> None:
    sent = sent_resolved(reply_schema(RUBRIC), kind)
    for label in ("side_a", "side_b"):
        side = sent["properties"][label]
        for name, top in MAXIMA.items():
            score = side["properties"][name]["properties"]["score"]
            if kind in BOUNDS_KEPT:
                assert (score["minimum"], score["maximum"]) == (0, top)
                assert "enum" not in score
            else:  # the enum carries the range, which is not sent twice
                assert score["enum"] == list(range(top + 1)), (kind, name)
                assert "minimum" not in score and "maximum" not in score
            justification = side["properties"][name]["properties"]["justification"]
            assert justification["pattern"] == JUDGE_TEXT
        assert side["properties"]["stance"]["enum"] == list(STANCES)
        hit_ledger = side["properties"]["rebuttal_effectiveness"]["properties"]["hit_ledger"]
        assert hit_ledger["maxItems"] == LEDGER_MAX_POINTS
        entry = hit_ledger["items"]
        assert entry["properties"]["status"]["enum"] == list(LEDGER_STATUSES)
        assert entry["properties"]["point"]["pattern"] == JUDGE_TEXT
    for node in nodes(sent):
        if "properties" in node:
            assert node["required"] == list(node["properties"])
            assert node["additionalProperties"] is False


@pytest.mark.parametrize("kind", KINDS)
def test_the_fact_check_schema_sent_carries_its_ids_verdicts_and_count(
    kind: ServerKind | None,
) -> None:
    sent = sent_resolved(ledger_schema(), kind)
    assert sent["required"] == ["side_a", "side_b"]
    for label, own in (("a", "t00000001"), ("b", "t00000002")):
        # A side lists its claims or says why it made none: one form, never both.
        listed, excused = sent["properties"][f"side_{label}"]["anyOf"]
        assert (listed["required"], excused["required"]) == (["claims"], ["no_claims"])
        assert listed["additionalProperties"] is excused["additionalProperties"] is False
        claims = listed["properties"]["claims"]
        assert (claims["minItems"], claims["maxItems"]) == (1, ledger.MAX_CLAIMS_PER_TURN)
        claim = claims["items"]["properties"]
        assert claim["turn"]["enum"] == [own]  # the side's own turns only
        assert claim["citations"]["items"]["properties"]["id"]["enum"] == [
            "t00000001",
            "t00000002",
            "P1",
        ]
        assert claim["verdict"]["enum"] == list(ledger.VERDICTS)
        ledger_text = text_pattern(ledger.LEDGER_TEXT_CHARS)
        assert claim["claim"]["pattern"] == claim["reason"]["pattern"] == ledger_text
        assert claim["citations"]["maxItems"] == ledger.MAX_CITATIONS
        quote = claim["citations"]["items"]["properties"]["quote"]
        kept = kind not in ("other", None)
        assert quote.get("maxLength") == (ledger.LEDGER_TEXT_CHARS if kept else None)
        assert list(claims["items"]["required"]) == [
            "turn", "claim", "verdict", "citations", "reason"
        ]  # fmt: skip
        reason = excused["properties"]["no_claims"]
        assert reason["pattern"] == words_pattern(ledger.LEDGER_TEXT_CHARS, ledger.MIN_REASON_WORDS)


def test_one_turn_a_side_is_still_an_enum_which_inspects_schema_keeps() -> None:
    # pydantic writes a one-value Literal as `const`, which Inspect's JSONSchema drops.
    sent = server_schema(ledger_schema(), None)
    kept = json_schema_dump(JSONSchema.model_validate(sent))
    listed = kept["properties"]["side_a"]["anyOf"][0]
    assert listed["properties"]["claims"]["items"]["properties"]["turn"]["enum"] == ["t00000001"]
    assert "const" not in json.dumps(sent)


@pytest.mark.parametrize("kind", ["other", None])
def test_hosted_and_other_servers_get_nothing_openai_strict_refuses(kind: str | None) -> None:
    for schema in (reply_schema(RUBRIC), ledger_schema()):
        sent = sent_resolved(schema, kind)  # type: ignore[arg-type]
        assert not [n for n in nodes(sent) if {"minLength", "maxLength"} & set(n)]
        assert any(n.get("pattern", "").endswith("}$") for n in nodes(sent))  # lengths kept in it


def test_grammar_servers_get_lengths_in_the_pattern_and_number_ranges_as_enums() -> None:
    confidence = {"type": "number", "minimum": 0, "maximum": 1}
    bare = {"type": "string", "minLength": 3, "maxLength": 9}
    for kind in ("llama-cpp-python", "llama.cpp", "ollama"):
        assert server_schema(confidence, kind)["enum"][:3] == [0, 0.05, 0.1]  # type: ignore[arg-type]
        sent = sent_resolved(reply_schema(RUBRIC), kind)  # type: ignore[arg-type]
        texts = [n for n in nodes(sent) if "pattern" in n]
        # Both converters let a pattern win over lengths: the pattern carries them alone.
        assert texts and not [n for n in texts if {"minLength", "maxLength"} & set(n)]
        assert all(n["pattern"].endswith("}$") for n in texts)
        assert server_schema(bare, kind) == bare  # type: ignore[arg-type]
    assert "enum" not in server_schema(confidence, None)  # OpenAI enforces number bounds


@pytest.mark.parametrize("kind", ["llama-cpp-python", "llama.cpp", "ollama"])
def test_grammar_servers_get_each_repeated_subschema_defined_once(kind: ServerKind) -> None:
    for schema in (reply_schema(RUBRIC), ledger_schema()):
        sent = server_schema(schema, kind)
        inline = _rewritten_inline(schema, kind)
        assert resolved(sent) == inline, "the same rules, each written once"
        assert len(json.dumps(sent)) < 0.7 * len(json.dumps(inline))
        body = {k: v for k, v in sent.items() if k != "$defs"}
        assert schema_forms._longest_repeat([body, *sent["$defs"].values()]) is None
        assert set(sent["$defs"]) == {f"d{i}" for i in range(len(sent["$defs"]))}
    rubric_sent = server_schema(reply_schema(RUBRIC), kind)
    # Each side's reading is one definition, and every justification one more.
    assert rubric_sent["properties"]["side_a"] == rubric_sent["properties"]["side_b"]
    assert list(resolved(rubric_sent)["properties"]["side_a"]["properties"]) == [
        *MAXIMA, "stance"
    ], "properties keep their order: a grammar writes them in it"  # fmt: skip


def _rewritten_inline(schema: dict[str, Any], kind: ServerKind) -> dict[str, Any]:
    rewritten: dict[str, Any] = schema_forms._rewrite(schema, schema_forms._form(kind))
    return rewritten


def test_hosted_schemas_are_written_out_whole() -> None:
    for kind in (None, "other"):
        assert "$defs" not in json.dumps(server_schema(reply_schema(RUBRIC), kind))  # type: ignore[arg-type]


# --------------------------------------------------------- how the schema is sent, per kind


def test_structured_output_is_strict_and_keeps_the_enums() -> None:
    schema = server_schema(reply_schema(RUBRIC), None)
    config = judge_config(get_model("mockllm/model"), 500, 1, schema, "judgment", "true")
    assert config.response_schema is not None and config.response_schema.strict is True
    sent = json_schema_dump(config.response_schema.json_schema)
    clarity = sent["properties"]["side_a"]["properties"]["clarity"]["properties"]["score"]
    assert clarity["enum"] == list(range(11))


def test_ollama_is_sent_the_schema_itself_which_inspect_would_strip() -> None:
    schema = server_schema(ledger_schema(), "ollama")
    # Inspect's JSONSchema has no maxItems, and its Ollama provider strips patterns:
    stripped = json_schema_dump(JSONSchema.model_validate(schema))
    assert "maxItems" not in stripped["properties"]["side_a"]["anyOf"][0]["properties"]["claims"]
    config = judge_config(get_model("mockllm/model"), 500, 1, schema, "ledger", "true", "ollama")
    assert config.response_schema is None
    assert (config.extra_body or {})["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "ledger", "schema": schema, "strict": True},
    }


def test_llama_cpp_servers_get_json_object_with_the_schema() -> None:
    schema = server_schema(reply_schema(RUBRIC), "llama-cpp-python")
    config = judge_config(get_model("mockllm/model"), 500, 1, schema, "judgment", "object")
    assert (config.extra_body or {})["response_format"] == {"type": "json_object", "schema": schema}
    assert config.response_schema is None


# ----------------------------------------- llama.cpp's grammar engine holds the judge to it


def rubric_grammar_accepts(reply: Any) -> bool:
    schema = server_schema(reply_schema(RUBRIC), "llama-cpp-python")
    return grammar_accepts(schema, reply if isinstance(reply, str) else json.dumps(reply))


@pytest.mark.embedded_model
def test_the_rubric_grammar_accepts_a_valid_reading() -> None:
    assert rubric_grammar_accepts(rubric_reply(side_scores(0.8), side_scores(0.6)))
    top = rubric_reply(MAXIMA, {name: 0 for name in MAXIMA}, stances=("switched", "unclear"))
    assert rubric_grammar_accepts(top)


@pytest.mark.embedded_model
@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("side_a.clarity.score", 11),
        ("side_a.clarity.score", 41258693),  # seen from the embedded judge
        ("side_b.argument_quality.score", -1),
        ("side_b.argument_quality.score", 7.5),
        ("side_a.clarity.justification", "..."),
        ("side_a.clarity.justification", "<why>"),
        ("side_a.clarity.justification", "ok"),
        ("side_a.clarity.justification", ", ,"),  # seen from the embedded judge
        ("side_a.clarity.justification", "- -"),
        ("side_a.clarity.justification", " Clear enough."),
        ("side_b.stance", "pro"),
        ("side_a.rebuttal_effectiveness.hit_ledger", [{"point": "cost", "status": "won"}]),
    ],
)
def test_the_rubric_grammar_refuses_a_reply_breaking_a_rule(path: str, value: Any) -> None:
    assert not rubric_grammar_accepts(changed_reply(path, value))


@pytest.mark.embedded_model
@pytest.mark.parametrize(
    "text", ["Clear enough.", "École: claire.", "论证清楚。", "3 points, clear."]
)
def test_the_rubric_grammar_lets_text_begin_with_any_scripts_letter_or_a_digit(text: str) -> None:
    reply = changed_reply("side_a.clarity.justification", text)
    # Raw, as a model writes it: the pattern's grammar has no \\u escapes in it.
    assert rubric_grammar_accepts(json.dumps(reply, ensure_ascii=False))
    assert rubric.check_judgment(reply, RUBRIC)[1] == []


CLAIM = {"turn": "t00000001", "claim": "Road deaths fell.", "verdict": "supported",
         "citations": [{"id": "P1", "quote": "Deaths fell."}], "reason": "P1 says so."}  # fmt: skip


def fact_check(a: Any = None, b: Any = None, **changes: Any) -> str:
    """A fact-check reply: Side A (PRO) lists CLAIM with `changes`, unless `a` is
    given; Side B says why it made none, unless `b` is given."""
    side_a = a if a is not None else {"claims": [{**CLAIM, **changes}]}
    side_b = b if b is not None else {"no_claims": NO_CLAIMS}
    return json.dumps({"side_a": side_a, "side_b": side_b})


def fact_check_grammar_accepts(text: str) -> bool:
    return grammar_accepts(server_schema(ledger_schema(), "llama-cpp-python"), text)


CON_CLAIM = {**CLAIM, "turn": "t00000002", "claim": "Shops lost customers."}


@pytest.mark.embedded_model
def test_the_fact_check_grammar_accepts_a_valid_ledger() -> None:
    assert fact_check_grammar_accepts(fact_check())
    assert fact_check_grammar_accepts(fact_check(b={"claims": [CON_CLAIM]}))
    assert fact_check_grammar_accepts(fact_check(a={"no_claims": "It stated only opinions."}))


@pytest.mark.embedded_model
@pytest.mark.parametrize(
    "text",
    [
        fact_check(turn="t12345678"),  # a made-up turn id
        fact_check(turn="<turn id>"),
        fact_check(turn="t00000002"),  # Side B's turn filed under Side A
        fact_check(citations=[{"id": "P7", "quote": "x"}]),  # a made-up passage
        fact_check(verdict="true"),
        fact_check(reason="..."),
        # A side that lists its claims cannot also excuse itself, nor do neither:
        fact_check(a={"claims": [CLAIM], "no_claims": "It made no factual claim."}),
        fact_check(a={"no_claims": "It made no factual claim.", "claims": [CLAIM]}),
        fact_check(a={"claims": []}),
        fact_check(a={}),
        # A side without claims gives a sentence, not "", a word or the shape's text:
        fact_check(b={"no_claims": ""}),
        fact_check(b={"no_claims": "None."}),
        fact_check(b={"no_claims": "n/a"}),
        fact_check(b={"no_claims": "<a sentence on why the side made no factual claim>"}),
    ],
)
def test_the_fact_check_grammar_refuses_a_reply_breaking_a_rule(text: str) -> None:
    assert not fact_check_grammar_accepts(text)


@pytest.mark.parametrize("budget", [512, 1024, 6000])
def test_the_reason_pattern_asks_for_words_within_the_length(budget: int) -> None:
    chars = ledger.ledger_bounds(1, budget).chars
    pattern = re.compile(words_pattern(chars, ledger.MIN_REASON_WORDS))
    assert pattern.match("It stated opinions.")
    assert not pattern.match("Opinions only.") and not pattern.match("Nothing")
    # Only the first words are capped (at WORD_CHARS); what follows them is any text.
    first = " ".join(["w" * WORD_CHARS] * ledger.MIN_REASON_WORDS)
    assert len(first) < chars and pattern.match(first + " " * (chars - len(first)))
    assert not pattern.match(first + " " * (chars - len(first) + 1))  # one past the bound
    assert pattern.match("It said: " + "x" * (chars - 3 * WORD_CHARS - 12))
    assert not pattern.match("w" * (WORD_CHARS + 1) + " then two words")


@pytest.mark.embedded_model
def test_the_text_pattern_is_one_llama_cpp_can_parse_and_keeps_json_valid() -> None:
    def text_schema(pattern: str) -> dict[str, Any]:
        return {"type": "object", "properties": {"t": {"type": "string", "pattern": pattern}},
                "required": ["t"], "additionalProperties": False}  # fmt: skip

    with pytest.raises(GrammarError):  # `\s` is an unknown escape to llama.cpp's parser
        grammar_accepts(text_schema(r"^[^<.\s][^\n]*$"), '{"t": "fine"}')
    ours = text_schema(TEXT_PATTERN)
    assert grammar_accepts(ours, '{"t": "A fair point."}')
    assert not grammar_accepts(ours, '{"t": "He said "no" twice."}')  # a raw quote ends it
    assert not grammar_accepts(ours, '{"t": "ab"}')  # shorter than 3: the pattern's own length


@pytest.mark.parametrize("budget", [512, 1024, 2048, 6000])
def test_a_grammar_held_reading_at_its_longest_fits_the_judge_budget(budget: int) -> None:
    # A grammar cannot stop a reply early: the bounds must let every text be at its
    # longest and still leave the JSON whole within the budget.
    schema = reply_schema(RUBRIC, budget)
    side = schema["properties"]["side_a"]["properties"]
    most = rubric.text_bound(budget, 2 * (len(MAXIMA) + rubric.ledger_bound(budget)))
    points = side["rebuttal_effectiveness"]["properties"]["hit_ledger"]["maxItems"]
    assert points == rubric.ledger_bound(budget)
    assert side["clarity"]["properties"]["justification"]["pattern"] == text_pattern(most)
    longest = {name: top for name, top in MAXIMA.items()}
    reply = json.loads(rubric_reply(longest, longest))
    for label in ("side_a", "side_b"):
        for name in MAXIMA:
            reply[label][name]["justification"] = "w" * most
        reply[label]["rebuttal_effectiveness"]["hit_ledger"] = [
            {"point": "w" * most, "status": "dodged"}
        ] * points
    assert rubric.check_judgment(reply, RUBRIC, budget)[1] == []
    assert len(json.dumps(reply)) / rubric.CHARS_PER_TOKEN <= budget
    assert rubric.text_bound(None, 1) == TEXT_MAX_CHARS  # no budget, the plain bound


def test_a_reading_longer_than_its_budget_allows_is_refused_naming_the_bound() -> None:
    reply = changed_reply("side_a.clarity.justification", "Clear enough. " * 12)
    assert rubric.check_judgment(reply, RUBRIC)[1] == []  # 168 characters: fine at 6000
    _, problems = rubric.check_judgment(reply, RUBRIC, 1024)
    assert problems == [
        f'"side_a.clarity.justification" is {reply["side_a"]["clarity"]["justification"]!r:.77}'
        f"...; expected at most {rubric.text_bound(1024, 14)} characters"
    ]


@pytest.mark.parametrize("budget", [512, 1024, 2048, 6000])
def test_a_grammar_held_ledger_at_its_longest_fits_the_judge_budget(budget: int) -> None:
    bounds = ledger.ledger_bounds(1, budget)
    schema = ledger_schema(budget)
    for label in ("a", "b"):
        claims = schema["properties"][f"side_{label}"]["anyOf"][0]["properties"]["claims"]
        assert claims["maxItems"] == bounds.claims
        assert claims["items"]["properties"]["citations"]["maxItems"] == bounds.citations
        assert claims["items"]["properties"]["reason"]["pattern"] == text_pattern(bounds.chars)
    text = ("word " * bounds.chars)[: bounds.chars - 1] + "s"  # words, at the bound
    cites = [{"id": "P1", "quote": text}] * bounds.citations

    def longest(turn: str) -> dict[str, Any]:
        claim = {"turn": turn, "claim": text, "verdict": "contradicted",
                 "citations": cites, "reason": text}  # fmt: skip
        return {"claims": [claim] * bounds.claims}

    reply = {"side_a": longest("t00000001"), "side_b": longest("t00000002")}
    assert ledger.check_fact_check(reply, record(), PRO_FIRST, budget)[1] == []
    assert len(json.dumps(reply)) / rubric.CHARS_PER_TOKEN <= budget
    assert ledger.ledger_bounds(4, None) == ledger.LedgerBounds(20, 2, ledger.LEDGER_TEXT_CHARS)
