"""The crucible's reply models: what each server is sent, and replies valid by construction.

Each structured call's schema and check come from one reply model. Here: the
schema sent to each kind of server carries the call's counts, ranges, ids and
enums (as an `enum` where the server ignores `minimum`/`maximum`); a reply that
follows the schema exactly (the first enum value, the least value of a range,
the fewest items allowed) passes the check, for every model and server kind;
and llama-cpp-python's own converter turns each schema into a grammar that
names only this call's ids and values, admits the schema-following reply and
refuses a made-up id, an out-of-range value and a wrong count.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from debatebench_eval.servers.kind import ServerKind
from debatebench_eval.servers.schema_forms import server_schema
from debatebench_eval.truth_crucible import audit, claims, conflicts, convergence, neutralize, panel
from debatebench_eval.truth_crucible.rounds import Sides, turn_schema

from support.grammar import gbnf, grammar_accepts
from support.literal_reply import first_instance
from support.reply_models import (
    BIAS,
    CONFIDENCE_STEPS,
    CRUCIBLE_REPLIES,
    DIMS,
    FIRST_PUSH,
    PUSH,
    REBUTTAL,
    SIDES,
    SPANS,
    TURN_SIDES,
    VIEW,
    WORDING,
)
from support.schemas import sent_resolved

KINDS: list[ServerKind | None] = ["llama-cpp-python", "llama.cpp", "ollama", "other", None]
REPLIES = CRUCIBLE_REPLIES


# The one rule a schema-following reply can still break: a rebuttal with neither an
# attack nor a defence (a rule across two fields; see rounds._TURN_DOC).
NOT_BY_CONSTRUCTION = {
    "rebuttal": [
        '"defends" is an array of 0; the turn makes no move: a rebuttal needs an attack '
        "or a defence"
    ]
}


def at(schema: dict[str, Any], path: str) -> dict[str, Any]:
    """The schema of a field: "claims[]/confidence" is a claim's confidence."""
    node = schema
    for part in path.split("/"):
        name = part.replace("[]", "")
        if name:
            assert name in node["properties"], f"{name} not in {list(node['properties'])}"
            node = node["properties"][name]
        for _ in range(part.count("[]")):
            node = node["items"]
    return node


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", list(REPLIES))
def test_a_reply_that_follows_the_schema_sent_passes_its_check(
    name: str, kind: ServerKind | None
) -> None:
    schema, check = REPLIES[name]
    result, problems = check(first_instance(server_schema(schema, kind)))
    assert problems == NOT_BY_CONSTRUCTION.get(name, [])
    assert (result is None) == (name in NOT_BY_CONSTRUCTION)


def test_every_schema_requires_each_property_and_admits_no_other() -> None:
    def objects(node: Any) -> list[dict[str, Any]]:
        if isinstance(node, list):
            return [o for item in node for o in objects(item)]
        if not isinstance(node, dict):
            return []
        own = [node] if node.get("type") == "object" else []
        return own + [o for value in node.values() for o in objects(value)]

    for name, (schema, _) in REPLIES.items():
        for node in objects(schema):
            assert node["required"] == list(node["properties"]), name
            assert node["additionalProperties"] is False, name
        assert "$ref" not in json.dumps(schema) and "$defs" not in schema, name


@pytest.mark.parametrize("kind", KINDS)
def test_the_claims_schema_carries_the_count_the_steps_the_evidence_and_the_confidence(
    kind: ServerKind | None,
) -> None:
    sent = sent_resolved(claims.claims_schema(4), kind)
    assert (at(sent, "claims")["minItems"], at(sent, "claims")["maxItems"]) == (4, 4)
    chain = at(sent, "claims[]/logic_chain")
    assert (chain["minItems"], chain["maxItems"]) == (2, 5)
    evidence = at(sent, "claims[]/evidence")
    assert (evidence["minItems"], evidence["maxItems"]) == (1, 3)
    confidence = at(sent, "claims[]/confidence")
    assert (confidence["minimum"], confidence["maximum"]) == (0, 1)
    if kind in ("llama-cpp-python", "llama.cpp", "ollama"):  # number ranges ignored there
        assert confidence["enum"] == CONFIDENCE_STEPS
    else:
        assert "enum" not in confidence
    for text in ("claim", "vulnerability", "logic_chain[]", "evidence[]/excerpt"):
        assert at(sent, f"claims[]/{text}")["pattern"].startswith("^[0-9A-Za-z")
    assert at(sent, "claims[]/evidence[]/line_start")["type"] == "integer"
    assert sent_resolved(claims.queries_schema(2), kind)["properties"]["queries"]["maxItems"] == 2


@pytest.mark.parametrize("kind", KINDS)
def test_the_claims_schema_names_the_files_the_side_was_shown(kind: ServerKind | None) -> None:
    shown = ("sources/a.md", "analysis/b.md")
    sent = sent_resolved(claims.claims_schema(2, shown), kind)
    assert at(sent, "claims[]/evidence[]/file")["enum"] == list(shown)
    # Shown no passage, a side may still cite: the file is then any text (cite-or-lose).
    unshown = sent_resolved(claims.claims_schema(2), kind)
    assert "enum" not in at(unshown, "claims[]/evidence[]/file")


@pytest.mark.parametrize("kind", KINDS)
def test_the_turn_schema_carries_the_ids_each_side_may_name(kind: ServerKind | None) -> None:
    own, targets = ["C-CON-01", "C-CON-02"], ["C-PRO-01"]
    push = sent_resolved(turn_schema(PUSH, TURN_SIDES), kind)
    assert at(push, "steelman/claim")["enum"] == targets
    assert at(push, "attacks[]/from")["enum"] == own
    assert at(push, "attacks[]/target")["enum"] == targets
    assert at(push, "defends[]/claim")["enum"] == own
    assert at(push, "attacks")["minItems"] == 1  # a push makes at least one attack
    assert at(push, "speech")["pattern"].startswith("^[0-9A-Za-z")
    rebuttal = sent_resolved(turn_schema(REBUTTAL, TURN_SIDES), kind)
    assert "minItems" not in at(rebuttal, "attacks")  # an attack or a defence: checked
    assert "steelman" not in sent_resolved(turn_schema(FIRST_PUSH, TURN_SIDES), kind)["properties"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_judges_schemas_carry_the_labels_shown_and_their_ranges(
    kind: ServerKind | None,
) -> None:
    labels = ["K2", "K1", "K3", "K4"]  # the view's labels, in its order of claims
    # llama.cpp and Ollama honour integer bounds; Inspect's hosted providers strip them.
    integer_enums = kind not in ("llama.cpp", "ollama")
    conflict = sent_resolved(conflicts.conflicts_schema(VIEW, SIDES), kind)
    assert at(conflict, "conflicts[]/claims[]")["enum"] == labels
    assert at(conflict, "conflicts[]/claims")["minItems"] == 2
    assert at(conflict, "conflicts[]/nature")["enum"] == list(conflicts.NATURES)

    scores = sent_resolved(panel.scores_schema(VIEW, DIMS), kind)
    assert at(scores, "scores")["required"] == labels  # every shown claim, once
    for label in labels:
        assert at(scores, f"scores/{label}")["required"] == DIMS
    score = at(scores, "scores/K4/evidence/score")
    # A range sent as an enum is not sent as bounds too.
    bounds = (score.get("minimum"), score.get("maximum"))
    assert bounds == ((None, None) if integer_enums else (1, 5))
    assert score.get("enum") == ([1, 2, 3, 4, 5] if integer_enums else None)

    review = sent_resolved(convergence.review_schema(["R2.1", "R2.2"], VIEW), kind)
    assert at(review, "steelman")["required"] == ["R2.1", "R2.2"]
    fidelity = at(review, "steelman/R2.2/fidelity")
    assert fidelity.get("enum") == ([1, 2, 3, 4, 5] if integer_enums else None)
    assert at(review, "conceded[]")["enum"] == labels
    assert at(review, "convergence").get("enum") == (
        CONFIDENCE_STEPS if kind in ("llama-cpp-python", "llama.cpp", "ollama") else None
    )

    audited = sent_resolved(audit.audit_schema(VIEW, SPANS, 3), kind)
    assert at(audited, "rescore/judge")["enum"] == ["", "J1", "J2", "J3"]
    assert at(audited, "rescore/claims[]")["enum"] == ["K1", "K3"]  # only the flagged
    assert at(audited, "consistent")["type"] == "boolean"

    neutral = sent_resolved(neutralize.neutral_schema(BIAS, WORDING), kind)
    assert at(neutral, "dimensions")["required"] == BIAS
    bias = at(neutral, "dimensions/presupposition/score")
    assert bias.get("enum") == ([0, 1, 2, 3] if integer_enums else None)
    assert at(neutral, "neutral_question")["pattern"].startswith("^[0-9A-Za-z")


def test_a_hosted_provider_gets_no_keyword_strict_mode_refuses() -> None:
    for name, (schema, _) in REPLIES.items():
        for kind in (None, "other"):
            sent = json.dumps(server_schema(schema, kind))
            assert '"minLength"' not in sent and '"maxLength"' not in sent, (name, kind)


def test_one_id_is_still_an_enum_not_a_const() -> None:
    one = Sides(own=frozenset({"C-CON-01"}), targets=frozenset({"C-PRO-01"}))
    sent = turn_schema(PUSH, one)
    assert at(sent, "attacks[]/from") == {"type": "string", "enum": ["C-CON-01"]}
    assert "const" not in json.dumps(sent)


def llama_cpp_python(name: str) -> dict[str, Any]:
    return server_schema(REPLIES[name][0], "llama-cpp-python")


@pytest.mark.embedded_model
@pytest.mark.parametrize("name", list(REPLIES))
def test_llama_cpp_python_s_grammar_admits_the_reply_that_follows_the_schema(
    name: str,
) -> None:
    sent = llama_cpp_python(name)
    assert grammar_accepts(sent, first_instance(sent))


@pytest.mark.embedded_model
def test_llama_cpp_python_s_grammar_refuses_what_the_check_would_refuse() -> None:
    claims_sent = llama_cpp_python("claims")
    good = first_instance(claims_sent)
    one = good["claims"][0]
    assert not grammar_accepts(claims_sent, {"claims": good["claims"][:2]})  # 2 of 3
    assert not grammar_accepts(claims_sent, {"claims": [{**one, "confidence": 5.0}] * 3})
    assert not grammar_accepts(claims_sent, {"claims": [{**one, "logic_chain": ["echo"]}] * 3})
    assert not grammar_accepts(claims_sent, {"claims": [{**one, "claim": "..."}] * 3})
    example = {**one["evidence"][0], "file": "folder/file.md"}  # the prompt's placeholder
    assert not grammar_accepts(claims_sent, {"claims": [{**one, "evidence": [example]}] * 3})

    turn_sent = llama_cpp_python("push with a steelman")
    move = first_instance(turn_sent)
    assert grammar_accepts(turn_sent, {**move, "steelman": {**move["steelman"]}})
    made_up = {**move["attacks"][0], "from": "C-CON-09"}
    assert not grammar_accepts(turn_sent, {**move, "attacks": [made_up]})
    their_own = {**move["attacks"][0], "target": "C-CON-01"}
    assert not grammar_accepts(turn_sent, {**move, "attacks": [their_own]})
    assert not grammar_accepts(turn_sent, {**move, "attacks": []})  # a push attacks

    scores_sent = llama_cpp_python("scores")
    reading = first_instance(scores_sent)
    k1 = reading["scores"]["K1"]
    out_of_range = {**k1, "validity": {**k1["validity"], "score": 6}}
    assert not grammar_accepts(scores_sent, {"scores": {**reading["scores"], "K1": out_of_range}})
    missing = {label: v for label, v in reading["scores"].items() if label != "K3"}
    assert not grammar_accepts(scores_sent, {"scores": missing})
    assert not grammar_accepts(scores_sent, {"scores": {**reading["scores"], "K9": k1}})

    review_sent = llama_cpp_python("review")
    review = first_instance(review_sent)
    assert not grammar_accepts(review_sent, {**review, "convergence": 1.5})
    assert not grammar_accepts(review_sent, {**review, "conceded": ["K7"]})


@pytest.mark.embedded_model
def test_llama_cpp_python_s_grammar_has_no_free_number_where_a_range_was_asked() -> None:
    rules = {name: gbnf(llama_cpp_python(name)) for name in REPLIES}
    # Only the claims' line numbers are free integers; every score, grade and
    # confidence is one of its values.
    for name, text in rules.items():
        free = [rule for rule in ("integer ::=", "number ::=") if rule in text]
        assert free == (["integer ::="] if name == "claims" else []), name
    assert '"1" | "2" | "3" | "4" | "5"' in rules["scores"]
    assert '"0.05"' in rules["claims"] and '"1.0"' in rules["claims"]
    push = rules["push with a steelman"]
    assert '"\\"C-CON-01\\"" | "\\"C-CON-02\\""' in push and "C-PRO-02" not in push
