"""The reply checks as plain functions: what a side's claims and turns must hold."""

from __future__ import annotations

import json

from debatebench_eval.crucible.claims import check_claims, check_queries
from debatebench_eval.crucible.rounds import Sides, check_turn, round_plan

CLAIM = {
    "claim": "C.",
    "logic_chain": ["a", "b"],
    "vulnerability": "V.",
    "confidence": 0.5,
    "evidence": [{"file": "f.md", "line_start": 1, "line_end": 2, "excerpt": "e e e"}],
}


def problems(**changes: object) -> list[str]:
    claim = {**CLAIM, **changes}
    return check_claims({"claims": [claim]}, 1)[1]


def test_a_well_formed_claim_passes_and_a_wrong_count_does_not() -> None:
    filed, found = check_claims({"claims": [CLAIM]}, 1)
    assert found == [] and filed is not None and filed[0].evidence[0].line_end == 2
    assert check_claims({"claims": [CLAIM, CLAIM]}, 1)[1] == ["2 claims filed; exactly 1 asked"]
    assert check_claims({"claims": []}, 1)[1] == ["0 claims filed; exactly 1 asked"]
    assert check_claims([], 1)[1] == ['the reply must be an object with a "claims" list']


def test_each_field_of_a_claim_is_checked() -> None:
    assert problems(vulnerability=" ") == ['"claims[0].vulnerability" is missing or empty']
    assert problems(logic_chain=["one"]) == [
        '"claims[0].logic_chain" must be 2 to 5 non-empty steps'
    ]
    assert problems(confidence=1.5) == ['"claims[0].confidence" is 1.5; it must be from 0 to 1']
    assert problems(confidence=True) == ['"claims[0].confidence" must be a number from 0 to 1']
    assert problems(evidence=[]) == ['"claims[0].evidence" must hold 1 to 3 items']
    bad_line = [{**CLAIM["evidence"][0], "line_start": "1"}]  # type: ignore[index]
    assert "whole-number" in problems(evidence=bad_line)[0]


def test_queries_are_strings_within_the_limit() -> None:
    assert check_queries({"queries": ["a", " ", "b"]}, 3) == (["a", "b"], [])
    assert check_queries({"queries": ["a", "b"]}, 1)[1] == ['"queries" has 2 queries; at most 1']
    assert check_queries({"queries": [1]}, 3)[1] == ['"queries" must hold strings only']


def test_a_turn_must_name_claims_of_the_right_side_and_make_a_move() -> None:
    plan = round_plan(2, steelman=True)[0]  # round 2: CON pushes, with a steelman
    sides = Sides(own=frozenset({"C-CON-01"}), targets=frozenset({"C-PRO-01"}))
    good = {
        "steelman": {"claim": "c-pro-01", "restatement": "R."},
        "attacks": [{"from": "C-CON-01", "target": "[C-PRO-01]", "argument": "A."}],
        "defends": [],
        "speech": "S.",
    }
    reply, found = check_turn(good, plan, sides)
    assert found == [] and reply is not None and reply.steelman is not None
    assert reply.steelman.claim == "C-PRO-01" and reply.attacks[0].target == "C-PRO-01"
    idle = {**good, "attacks": []}
    assert check_turn(idle, plan, sides)[1] == [
        "the turn makes no move: a push needs at least one attack"
    ]
    rebuttal = round_plan(2, steelman=True)[1]
    defended = {
        **idle,
        "steelman": {"claim": "C-CON-01", "restatement": "R."},
        "defends": [{"claim": "C-PRO-01", "reply": "D."}],
    }
    mirrored = Sides(own=sides.targets, targets=sides.own)
    assert check_turn(defended, rebuttal, mirrored)[1] == []
    assert json.dumps(check_turn({**good, "speech": ""}, plan, sides)[1]) == json.dumps(
        ['"speech" is missing or empty']
    )
