"""The reply checks as plain functions: each rule of each crucible reply, broken once,
is refused with its message (field path, value found, what was expected), and every
problem of a reply is reported at once."""

from __future__ import annotations

import json
from typing import Any

from debatebench_eval.judging.blind import Orientation
from debatebench_eval.truth_crucible.audit import check_audit
from debatebench_eval.truth_crucible.blindview import BlindView
from debatebench_eval.truth_crucible.claims import check_claims, check_queries, claims_shape
from debatebench_eval.truth_crucible.conflicts import check_conflicts
from debatebench_eval.truth_crucible.convergence import check_review
from debatebench_eval.truth_crucible.corpus import Window
from debatebench_eval.truth_crucible.neutralize import check_neutral
from debatebench_eval.truth_crucible.panel import check_scores
from debatebench_eval.truth_crucible.rounds import Sides, check_turn, round_plan

CLAIM: dict[str, Any] = {
    "claim": "Counts rose.",
    "logic_chain": ["The counts rose", "So the lane works"],
    "vulnerability": "One street only.",
    "confidence": 0.5,
    "evidence": [{"file": "f.md", "line_start": 1, "line_end": 2, "excerpt": "counts rose"}],
}
# K1, K3 are PRO's claims, K2 CON's; Side A is CON.
VIEW = BlindView(
    orientation=Orientation(a="con", b="pro"),
    labels={"C-PRO-01": "K1", "C-CON-01": "K2", "C-PRO-02": "K3"},
    sources={},
    terms=[],
)
SIDES = {"C-PRO-01": "pro", "C-CON-01": "con", "C-PRO-02": "pro"}
DIMS = ["factuality", "validity"]


def claim_problems(**changes: object) -> list[str]:
    return check_claims({"claims": [{**CLAIM, **changes}]}, 1)[1]


def test_a_well_formed_claim_passes_and_a_wrong_count_does_not() -> None:
    filed, found = check_claims({"claims": [CLAIM]}, 1)
    assert found == [] and filed is not None and filed[0].evidence[0].line_end == 2
    assert filed[0].confidence == 0.5 and filed[0].logic_chain[1] == "So the lane works"
    assert check_claims({"claims": [CLAIM, CLAIM]}, 1)[1] == [
        '"claims" is an array of 2; expected at most 1 item(s)'
    ]
    assert check_claims({"claims": [CLAIM]}, 2)[1] == [
        '"claims" is an array of 1; expected at least 2 item(s)'
    ]
    assert check_claims([], 1)[1] == ["the reply is an array of 0; expected an object"]
    assert check_claims({}, 1)[1] == ['"claims" is missing']


def test_a_claim_cites_a_file_the_side_was_shown_written_as_the_corpus_writes_it() -> None:
    shown = ("sources/f.md", "sources/g.md")
    cited = {**CLAIM, "evidence": [{**CLAIM["evidence"][0], "file": "./sources\\g.md"}]}
    filed, found = check_claims({"claims": [cited]}, 1, shown)
    assert found == [] and filed is not None and filed[0].evidence[0].file == "sources/g.md"
    assert check_claims({"claims": [CLAIM]}, 1, shown)[1] == [
        "\"claims[0].evidence[0].file\" is 'f.md'; expected one of 'sources/f.md' or 'sources/g.md'"
    ]


def test_the_claims_example_cites_the_first_passage_the_side_was_shown() -> None:
    example = json.loads(claims_shape(Window("sources/f.md", 5, 7)))["claims"][0]
    assert example["evidence"][0] == {
        "file": "sources/f.md",
        "line_start": 5,
        "line_end": 7,
        "excerpt": "...",
    }


def test_each_field_of_a_claim_is_checked() -> None:
    assert claim_problems(vulnerability=" ") == [
        "\"claims[0].vulnerability\" is ' '; expected at least 3 characters"
    ]
    assert claim_problems(vulnerability="...") == [
        "\"claims[0].vulnerability\" is '...'; it has no words "
        "(a placeholder such as ... is not an answer)"
    ]
    assert claim_problems(logic_chain=["one step only"]) == [
        '"claims[0].logic_chain" is an array of 1; expected at least 2 item(s)'
    ]
    assert claim_problems(logic_chain=["step"] * 6) == [
        '"claims[0].logic_chain" is an array of 6; expected at most 5 item(s)'
    ]
    assert claim_problems(confidence=1.5) == ['"claims[0].confidence" is 1.5; expected at most 1.0']
    assert claim_problems(confidence=-0.1) == [
        '"claims[0].confidence" is -0.1; expected at least 0.0'
    ]
    assert claim_problems(confidence=True) == ['"claims[0].confidence" is true; expected a number']
    assert claim_problems(evidence=[]) == [
        '"claims[0].evidence" is an array of 0; expected at least 1 item(s)'
    ]
    assert claim_problems(evidence=CLAIM["evidence"] * 4) == [
        '"claims[0].evidence" is an array of 4; expected at most 3 item(s)'
    ]
    bad_line = [{**CLAIM["evidence"][0], "line_start": "1"}]
    assert claim_problems(evidence=bad_line) == [
        "\"claims[0].evidence[0].line_start\" is '1'; expected a whole number"
    ]
    assert claim_problems(notes="extra") == [
        'unexpected key "claims[0].notes"; '
        "expected only claim, logic_chain, evidence, vulnerability, confidence"
    ]


def test_every_problem_of_a_reply_is_reported_at_once() -> None:
    found = check_claims({"claims": [{**CLAIM, "confidence": 7, "claim": "..."}, CLAIM]}, 3)[1]
    assert found == [
        '"claims" is an array of 2; expected at least 3 item(s)',
        "\"claims[0].claim\" is '...'; it has no words "
        "(a placeholder such as ... is not an answer)",
        '"claims[0].confidence" is 7; expected at most 1.0',
    ]


def test_queries_are_texts_within_the_limit() -> None:
    assert check_queries({"queries": ["cycle counts", " takings "]}, 3) == (
        ["cycle counts", "takings"],
        [],
    )
    assert check_queries({"queries": ["aaa", "bbb"]}, 1)[1] == [
        '"queries" is an array of 2; expected at most 1 item(s)'
    ]
    assert check_queries({"queries": [1]}, 3)[1] == ['"queries[0]" is 1; expected a string']
    assert check_queries({"queries": ["..."]}, 3)[1] == [
        "\"queries[0]\" is '...'; it has no words (a placeholder such as ... is not an answer)"
    ]


PUSH_SIDES = Sides(own=frozenset({"C-CON-01"}), targets=frozenset({"C-PRO-01", "C-PRO-02"}))
GOOD_TURN: dict[str, Any] = {
    "steelman": {"claim": "c-pro-01", "restatement": "Their counts are real."},
    "attacks": [{"from": "C-CON-01", "target": "[C-PRO-01]", "argument": "It overreaches."}],
    "defends": [],
    "speech": "Our evidence holds.",
}


def test_a_turn_names_claims_by_id_written_loosely() -> None:
    plan = round_plan(2, steelman=True)[0]  # round 2: CON pushes, with a steelman
    reply, found = check_turn(GOOD_TURN, plan, PUSH_SIDES)
    assert found == [] and reply is not None and reply.steelman is not None
    assert reply.steelman.claim == "C-PRO-01" and reply.attacks[0].target == "C-PRO-01"
    assert reply.attacks[0].claim == "C-CON-01" and reply.speech == "Our evidence holds."


def test_a_turn_names_claims_of_the_right_side() -> None:
    plan = round_plan(2, steelman=True)[0]
    own_target = {**GOOD_TURN, "attacks": [{**GOOD_TURN["attacks"][0], "target": "C-CON-01"}]}
    assert check_turn(own_target, plan, PUSH_SIDES)[1] == [
        "\"attacks[0].target\" is 'C-CON-01'; expected one of 'C-PRO-01' or 'C-PRO-02'"
    ]
    from_theirs = {**GOOD_TURN, "attacks": [{**GOOD_TURN["attacks"][0], "from": "C-PRO-02"}]}
    assert check_turn(from_theirs, plan, PUSH_SIDES)[1] == [
        "\"attacks[0].from\" is 'C-PRO-02'; expected one of 'C-CON-01'"
    ]
    own_steelman = {**GOOD_TURN, "steelman": {"claim": "K9", "restatement": "Their point."}}
    assert check_turn(own_steelman, plan, PUSH_SIDES)[1] == [
        "\"steelman.claim\" is 'K9'; expected one of 'C-PRO-01' or 'C-PRO-02'"
    ]
    defends_theirs = {**GOOD_TURN, "defends": [{"claim": "C-PRO-01", "reply": "It holds."}]}
    assert check_turn(defends_theirs, plan, PUSH_SIDES)[1] == [
        "\"defends[0].claim\" is 'C-PRO-01'; expected one of 'C-CON-01'"
    ]


def test_a_steelman_is_asked_for_only_from_round_two() -> None:
    no_steelman = {k: v for k, v in GOOD_TURN.items() if k != "steelman"}
    assert check_turn(no_steelman, round_plan(2, steelman=True)[0], PUSH_SIDES)[1] == [
        '"steelman" is missing'
    ]
    first_round = round_plan(1, steelman=True)[1]  # CON rebuts in round 1: no steelman
    assert check_turn(no_steelman, first_round, PUSH_SIDES)[1] == []
    assert check_turn(GOOD_TURN, first_round, PUSH_SIDES)[1] == [
        'unexpected key "steelman"; expected only attacks, defends, speech'
    ]


def test_a_turn_must_make_a_move() -> None:
    push, rebuttal = round_plan(2, steelman=True)
    idle = {**GOOD_TURN, "attacks": []}
    assert check_turn(idle, push, PUSH_SIDES)[1] == [
        '"attacks" is an array of 0; expected at least 1 item(s)'
    ]
    mirrored = Sides(own=PUSH_SIDES.targets, targets=PUSH_SIDES.own)
    rebut = {**idle, "steelman": {"claim": "C-CON-01", "restatement": "Their point."}}
    assert check_turn(rebut, rebuttal, mirrored)[1] == [
        '"defends" is an array of 0; the turn makes no move: a rebuttal needs an attack '
        "or a defence"
    ]
    defended = {**rebut, "defends": [{"claim": "C-PRO-01", "reply": "The lines say so."}]}
    assert check_turn(defended, rebuttal, mirrored)[1] == []
    swap = round_plan(3, steelman=True, swap=True)[0]
    assert check_turn(idle, swap, PUSH_SIDES)[1] == [
        '"attacks" is an array of 0; expected at least 1 item(s)'
    ]


def test_a_speech_that_copies_the_shape_is_refused() -> None:
    plan = round_plan(2, steelman=True)[0]
    copied = {**GOOD_TURN, "speech": "your speech for this turn, a short paragraph"}
    assert check_turn(copied, plan, PUSH_SIDES)[1] == [
        "\"speech\" is 'your speech for this turn, a short paragraph'; it repeats the reply "
        "shape's placeholder instead of answering"
    ]


CONFLICT: dict[str, Any] = {
    "claims": ["K1", "[k2]"],
    "question": "Which effect is larger?",
    "nature": "empirical",
    "crux": "A year of counts.",
}


def conflict_problems(**changes: object) -> list[str]:
    reply = {"conflicts": [{**CONFLICT, **changes}], "none_reason": ""}
    return check_conflicts(reply, VIEW, SIDES)[1]


def test_a_conflict_names_shown_claims_of_both_sides() -> None:
    found, problems = check_conflicts({"conflicts": [CONFLICT], "none_reason": ""}, VIEW, SIDES)
    assert problems == [] and found is not None
    conflicts, note = found
    assert (
        note is None
        and conflicts[0].id == "X1"
        and conflicts[0].claims
        == [
            "C-PRO-01",
            "C-CON-01",
        ]
    )
    assert conflict_problems(claims=["K1", "K9"]) == [
        "\"conflicts[0].claims[1]\" is 'K9'; expected one of 'K1', 'K2' or 'K3'"
    ]
    assert conflict_problems(claims=["K1", "K3"]) == [
        '"conflicts[0].claims" is an array of 2; expected claims of both sides, but K1, K3 '
        "are one side's"
    ]
    assert conflict_problems(claims=["K1"]) == [
        '"conflicts[0].claims" is an array of 1; expected at least 2 item(s)'
    ]
    assert conflict_problems(nature="moral") == [
        "\"conflicts[0].nature\" is 'moral'; expected one of 'empirical', 'causal', 'value', "
        "'definitional' or 'scope'"
    ]
    assert conflict_problems(crux="") == [
        "\"conflicts[0].crux\" is ''; expected at least 3 characters"
    ]


def test_an_empty_conflict_list_needs_a_reason() -> None:
    assert check_conflicts({"conflicts": [], "none_reason": " "}, VIEW, SIDES)[1] == [
        '"none_reason" is \' \'; "conflicts" is empty: say why here, or list the conflicts'
    ]
    reason = {"conflicts": [], "none_reason": "Side A and Side B answer different questions."}
    assert check_conflicts(reason, VIEW, SIDES) == (
        ([], "CON and PRO answer different questions."),
        [],
    )


def scores(**changes: Any) -> dict[str, Any]:
    one = {d: {"score": 3, "comment": "Fair enough."} for d in DIMS}
    return {"scores": {**{label: one for label in ("K1", "K2", "K3")}, **changes}}


def test_a_reading_scores_every_shown_claim_once() -> None:
    found, problems = check_scores(scores(), VIEW, DIMS)
    assert problems == [] and found is not None
    assert set(found) == set(SIDES) and found["C-CON-01"]["validity"] == (3, "Fair enough.")
    missing = scores()
    del missing["scores"]["K2"]
    assert check_scores(missing, VIEW, DIMS)[1] == ['"scores.K2" is missing']
    assert check_scores(scores(K9=scores()["scores"]["K1"]), VIEW, DIMS)[1] == [
        'unexpected key "scores.K9"; expected only K1, K2, K3'
    ]


def test_each_dimension_is_a_whole_number_1_to_5_with_a_comment() -> None:
    bad = {
        "factuality": {"score": 6, "comment": "..."},
        "validity": {"score": 4.0, "comment": "Ok!"},
    }
    assert check_scores(scores(K1=bad), VIEW, DIMS)[1] == [
        '"scores.K1.factuality.score" is 6; expected at most 5',
        "\"scores.K1.factuality.comment\" is '...'; it has no words "
        "(a placeholder such as ... is not an answer)",
        '"scores.K1.validity.score" is 4.0; expected a whole number',
    ]
    assert check_scores(scores(K3={"factuality": bad["validity"]}), VIEW, DIMS)[1] == [
        '"scores.K3.factuality.score" is 4.0; expected a whole number',
        '"scores.K3.validity" is missing',
    ]


SPANS = {"C-PRO-01": 2.0, "C-CON-01": 1.5}  # K1 and K2 flagged


def audit(consistent: bool, judge: str = "", claims: list[str] | None = None) -> dict[str, Any]:
    rescore = {"judge": judge, "claims": claims or [], "reason": "K1 was misread by Side A."}
    return {"consistent": consistent, "reason": "The spread is real.", "rescore": rescore}


def test_an_audit_may_ask_one_reading_to_rescore_flagged_claims() -> None:
    found, problems = check_audit(audit(True), VIEW, SPANS, 2)
    assert problems == [] and found is not None and found.rescore_reading is None
    found, problems = check_audit(audit(False, " j2 ", ["K2", "K1", "K2"]), VIEW, SPANS, 2)
    assert problems == [] and found is not None
    assert found.rescore_reading == 1 and found.rescore_claims == ["C-CON-01", "C-PRO-01"]
    assert found.rescore_reason == "C-PRO-01 was misread by CON."


def test_an_audit_names_a_reading_and_flagged_claims_shown() -> None:
    assert check_audit(audit(False, "J3", ["K1"]), VIEW, SPANS, 2)[1] == [
        "\"rescore.judge\" is 'J3'; expected one of '', 'J1' or 'J2'"
    ]
    assert check_audit(audit(False, "J1", ["K3"]), VIEW, SPANS, 2)[1] == [
        "\"rescore.claims[0]\" is 'K3'; expected one of 'K1' or 'K2'"
    ]
    assert check_audit(audit(False, "J1"), VIEW, SPANS, 2)[1] == [
        '"rescore.claims" is an array of 0; expected the flagged claims to score again'
    ]
    assert check_audit(audit(True, "J1", ["K1"]), VIEW, SPANS, 2)[1] == [
        '"rescore" is an object; a rescore is asked for although "consistent" is true'
    ]
    assert check_audit({**audit(True), "consistent": "yes"}, VIEW, SPANS, 2)[1] == [
        "\"consistent\" is 'yes'; expected true or false"
    ]


BIAS = ["loaded_language", "presupposition"]
WORDING = "Should the village obviously keep its library? Open it. Close it."


def neutral(**dimensions: Any) -> dict[str, Any]:
    dims = {d: {"score": 0, "phrase": "", "note": "None seen."} for d in BIAS}
    return {
        "dimensions": {**dims, **dimensions},
        "neutral_question": "Should the village keep its library?",
        "neutral_pro_position": "Keep it.",
        "neutral_con_position": "Close it.",
    }


def test_a_bias_scored_1_or_more_quotes_the_wording() -> None:
    quoted = {"score": 2, "phrase": "obviously keep", "note": "Leads the reader."}
    found, problems = check_neutral(neutral(loaded_language=quoted), BIAS, WORDING)
    assert problems == [] and found is not None
    assert found["dimensions"]["loaded_language"].phrase == "obviously keep"
    invented = {**quoted, "phrase": "plainly right"}
    assert check_neutral(neutral(loaded_language=invented), BIAS, WORDING)[1] == [
        "\"dimensions.loaded_language.phrase\" is 'plainly right'; expected words of the "
        "question or positions (a score of 1 or more quotes them)"
    ]


def test_each_bias_dimension_is_scored_0_to_3() -> None:
    reply = neutral(presupposition={"score": 4, "phrase": "", "note": "Severe."})
    del reply["dimensions"]["loaded_language"]
    assert check_neutral({**reply, "neutral_question": ""}, BIAS, WORDING)[1] == [
        '"dimensions.loaded_language" is missing',
        '"dimensions.presupposition.score" is 4; expected at most 3',
        "\"neutral_question\" is ''; expected at least 3 characters",
    ]


def review(**changes: Any) -> dict[str, Any]:
    grades = {"R2.1": {"fidelity": 4, "reason": "Faithful to K1."}}
    return {
        "steelman": grades,
        "convergence": 0.25,
        "reason": "Side A still gives reasons.",
        "conceded": [],
        **changes,
    }


def test_a_review_grades_each_steelman_turn_and_reads_convergence_0_to_1() -> None:
    found, problems = check_review(review(conceded=["[k3]", "K3"]), ["R2.1"], VIEW)
    assert problems == [] and found is not None
    assert found.steelman[0].turn == "R2.1" and found.steelman[0].reason == "Faithful to C-PRO-01."
    assert found.convergence == 0.25 and found.conceded == ["C-PRO-02"]
    assert found.reason == "CON still gives reasons."
    assert check_review(review(convergence=2), ["R2.1"], VIEW)[1] == [
        '"convergence" is 2; expected at most 1.0'
    ]
    # A key that is not a plain name (it holds dots) is written in brackets.
    assert check_review(review(steelman={}), ["R2.1"], VIEW)[1] == [
        "\"steelman['R2.1']\" is missing"
    ]
    assert check_review(review(conceded=["K7"]), ["R2.1"], VIEW)[1] == [
        "\"conceded[0]\" is 'K7'; expected one of 'K1', 'K2' or 'K3'"
    ]
    grades = {"R2.1": {"fidelity": 0, "reason": "Straw."}}
    assert check_review(review(steelman=grades), ["R2.1"], VIEW)[1] == [
        "\"steelman['R2.1'].fidelity\" is 0; expected at least 1"
    ]


def test_a_review_of_a_round_without_steelmen_grades_none() -> None:
    plain = {k: v for k, v in review().items() if k != "steelman"}
    found, problems = check_review(plain, [], VIEW)
    assert problems == [] and found is not None and found.steelman == []
    assert check_review(review(), [], VIEW)[1] == [
        'unexpected key "steelman"; expected only convergence, reason, conceded'
    ]
