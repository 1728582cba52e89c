"""Every structured reply model, as the call that sends it builds it: (schema, check).

The crucible's stages, the rubric reading and the fact-check, and the
adjudicator's decision, each on a small fixed call (this view's labels, this
record's turns), for tests that hold every model to one rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspect_ai.util import Store

from debatebench_eval.core.reply_model import check_reply
from debatebench_eval.core.reply_model import reply_schema as schema_of
from debatebench_eval.judging import ledger, rubric
from debatebench_eval.judging.blind import Orientation
from debatebench_eval.protocols.decision import check_decision, decision_schema
from debatebench_eval.record.store import DebateRecord, Passage, Turn, TurnUsage
from debatebench_eval.truth_crucible import audit, claims, conflicts, convergence, neutralize, panel
from debatebench_eval.truth_crucible.blindview import BlindView
from debatebench_eval.truth_crucible.rounds import (
    Sides,
    TurnPlan,
    check_turn,
    round_plan,
    turn_schema,
)

VIEW = BlindView(
    orientation=Orientation(a="pro", b="con"),
    labels={"C-PRO-01": "K2", "C-CON-01": "K1", "C-PRO-02": "K3", "C-CON-02": "K4"},
    sources={},
    terms=[],
)
SIDES = {"C-PRO-01": "pro", "C-CON-01": "con", "C-PRO-02": "pro", "C-CON-02": "con"}
SPANS = {"C-PRO-02": 2.0, "C-CON-01": 1.5}  # K3 and K1 flagged
DIMS = ["factuality", "validity", "evidence"]
BIAS = ["loaded_language", "presupposition"]
WORDING = "Should the lane replace parking? Build it. Keep parking."
TURN_SIDES = Sides(own=frozenset({"C-CON-01", "C-CON-02"}), targets=frozenset({"C-PRO-01"}))
CONFIDENCE_STEPS = [round(i * 0.05, 6) for i in range(21)]

Check = Callable[[Any], tuple[Any, list[str]]]


def turn(plan: TurnPlan) -> tuple[dict[str, Any], Check]:
    return turn_schema(plan, TURN_SIDES), lambda reply: check_turn(reply, plan, TURN_SIDES)


PUSH, REBUTTAL = round_plan(2, steelman=True)
FIRST_PUSH = round_plan(1, steelman=True)[0]
SWAP = round_plan(3, steelman=False, swap=True)[0]
# The files a side's search showed it (what its evidence may cite).
SHOWN = ("sources/a.md", "analysis/b.md")
# Every crucible reply model, as a stage builds it: (schema, check).
CRUCIBLE_REPLIES: dict[str, tuple[dict[str, Any], Check]] = {
    "queries": (claims.queries_schema(3), lambda r: claims.check_queries(r, 3)),
    "claims": (claims.claims_schema(3, SHOWN), lambda r: claims.check_claims(r, 3, SHOWN)),
    "push with a steelman": turn(PUSH),
    "first push": turn(FIRST_PUSH),
    "rebuttal": turn(REBUTTAL),
    "swap": turn(SWAP),
    "conflicts": (
        conflicts.conflicts_schema(VIEW, SIDES),
        lambda r: conflicts.check_conflicts(r, VIEW, SIDES),
    ),
    "review": (
        convergence.review_schema(["R2.1", "R2.2"], VIEW),
        lambda r: convergence.check_review(r, ["R2.1", "R2.2"], VIEW),
    ),
    "review without steelmen": (
        convergence.review_schema([], VIEW),
        lambda r: convergence.check_review(r, [], VIEW),
    ),
    "neutralize": (
        neutralize.neutral_schema(BIAS, WORDING),
        lambda r: neutralize.check_neutral(r, BIAS, WORDING),
    ),
    "scores": (panel.scores_schema(VIEW, DIMS), lambda r: panel.check_scores(r, VIEW, DIMS)),
    "audit": (
        audit.audit_schema(VIEW, SPANS, 3),
        lambda r: audit.check_audit(r, VIEW, SPANS, 3),
    ),
}

RUBRIC = rubric.default_rubric()
PRO_FIRST = Orientation("pro", "con")
DECISIONS = ("accept", "revise", "escalate")


def opening_turn(id: str, side: str, text: str) -> Turn:
    """A spoken opening turn of `side`, with the record fields every test leaves alike."""
    return Turn(
        id=id, phase_index=0, phase="opening", side=side, order=0, role=side, team_id=side,
        text=text, model=side, usage=TurnUsage(), budget=100, hit_budget=False,
        finish_reason="stop", latency_ms=1, started_at="now",
    )  # fmt: skip


def debate_record() -> DebateRecord:
    """Two turns, one a side, and one passage."""
    record = DebateRecord(store=Store())
    record.turns = [
        opening_turn("t00000001", "pro", "Road deaths fell by forty percent."),
        opening_turn("t00000002", "con", "Shops in car-free zones lost customers."),
    ]
    record.passages = [Passage(id="P1", pool="p", row_id="r1", side="pro", text="Deaths fell.")]
    return record


RECORD = debate_record()
# Each built once: a check that built its model per reply would cost a test
# of many replies seconds. The checks are what `check_judgment` and
# `check_fact_check` run before reading the reply.
_READING = rubric.reply_model(RUBRIC, 1024)
_FACT_CHECK = ledger.reply_model(RECORD, PRO_FIRST, 1024)
JUDGE_REPLIES: dict[str, tuple[dict[str, Any], Check]] = {
    "rubric reading": (schema_of(_READING), check_reply(_READING)),
    "fact-check": (
        schema_of(_FACT_CHECK),
        check_reply(_FACT_CHECK, ledger.SHAPE_PLACEHOLDERS),
    ),
    "decision": (decision_schema(DECISIONS), lambda r: check_decision(r, DECISIONS)),
}
REPLIES = {**CRUCIBLE_REPLIES, **JUDGE_REPLIES}
