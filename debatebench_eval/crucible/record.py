"""The CrucibleRecord: the typed store of one topic's debate.

It holds the debate itself (run settings, searches, claims with their
verification, conflicts, turns, round reviews); the judgments live in the
score, so `inspect score` can judge the same record again. Optional fields
default to None: Inspect drops None values when it writes the store to the log.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.util import StoreModel
from pydantic import BaseModel, Field

from debatebench_eval.record.store import TurnUsage

CRUCIBLE_SCHEMA_VERSION = 1
SIDES = ("pro", "con")


class CallRecord(BaseModel):
    """One structured call made during the debate: its cost, its repairs, and why it
    failed when it did (a partial run's report names what ran and what stopped it)."""

    stage: str
    actor: str  # "pro", "con" or "judge"
    model: str
    usage: TurnUsage = Field(default_factory=TurnUsage)
    budget: int
    hit_budget: bool = False
    repairs: int = 0
    json_mode: str | None = None
    problems: list[list[str]] = Field(default_factory=list)
    failure: str | None = None


class Search(BaseModel):
    side: str
    queries: list[str]
    # Class -> the window ids shown to the side ("folder/file.md:12-19").
    hits: dict[str, list[str]] = Field(default_factory=dict)


class EvidenceCheck(BaseModel):
    file: str
    line_start: int
    line_end: int
    excerpt: str
    verified: bool
    match: float | None = None  # quote similarity 0-100, when the range existed
    problem: str | None = None
    found_at: str | None = None  # "14-15": where the quote really is, when elsewhere
    cls: str | None = None  # the file's class, when the file exists
    kind: str | None = None  # "source" or "analysis"
    # The cited lines' text (when the range exists), so judges, reports and
    # `inspect score` need not reread the corpus.
    lines: list[str] = Field(default_factory=list)


class Claim(BaseModel):
    id: str  # C-PRO-01 ...
    side: str
    order: int
    claim: str
    logic_chain: list[str]
    vulnerability: str
    confidence: float
    evidence: list[EvidenceCheck]
    verified: bool
    failure: str | None = None
    model: str


class Conflict(BaseModel):
    id: str  # X1 ...
    claims: list[str]
    question: str
    nature: str
    crux: str


class Steelman(BaseModel):
    claim: str
    restatement: str


class Attack(BaseModel):
    claim: str  # the attacker's claim (in a swap round: a claim of the position it argues)
    target: str
    argument: str


class Defence(BaseModel):
    claim: str
    reply: str


class CrucibleTurn(BaseModel):
    id: str  # R1.1, R1.2, ...; S.1, S.2 in the swap round
    round: int
    kind: str  # push | rebuttal | swap
    side: str
    argues: str  # the position argued ("pro" or "con"; the other one in the swap round)
    steelman: Steelman | None = None
    attacks: list[Attack] = Field(default_factory=list)
    defends: list[Defence] = Field(default_factory=list)
    speech: str
    model: str


class SteelmanReview(BaseModel):
    turn: str
    fidelity: int  # 1-5
    reason: str


class RoundReview(BaseModel):
    round: int
    kind: str  # "round" or "swap"
    convergence: float  # judged, 0-1: agreement or deference without new reasons
    reason: str
    conceded: list[str] = Field(default_factory=list)
    lexical: float  # Jaccard of the two speeches' content terms, 0-1
    steelman: list[SteelmanReview] = Field(default_factory=list)
    judge: str


class DimensionCheck(BaseModel):
    score: int  # 0 none, 1 mild, 2 clear, 3 severe
    phrase: str
    note: str


class Diagnosis(BaseModel):
    """The topic-neutralisation check of the question, and what was done with it."""

    mode: str  # diagnose | rewrite
    dimensions: dict[str, DimensionCheck]
    neutral_question: str
    neutral_pro_position: str
    neutral_con_position: str
    applied: bool  # the neutral wording was debated
    note: str
    judge: str


class CrucibleRun(BaseModel):
    topic_file: str
    topic_sha256: str
    corpus_sha256: str
    classes: dict[str, str]
    corpus: dict[str, dict[str, int]]  # per class: files, lines, windows
    manifest: list[dict[str, Any]]
    question: str  # as debated (neutral, when rewritten)
    pro_position: str
    con_position: str
    question_original: str
    pro_position_original: str
    con_position_original: str
    context: str
    options: dict[str, Any]
    seed: int
    seed_source: str
    models: dict[str, Any]  # pro, con, judges, meta_judge, each with its server
    analyzer: str


class CrucibleRecord(StoreModel):
    schema_version: int = CRUCIBLE_SCHEMA_VERSION
    run: CrucibleRun | None = None
    neutralization: Diagnosis | None = None
    searches: list[Search] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)
    conflicts: list[Conflict] = Field(default_factory=list)
    conflicts_note: str | None = None
    turns: list[CrucibleTurn] = Field(default_factory=list)
    reviews: list[RoundReview] = Field(default_factory=list)
    calls: list[CallRecord] = Field(default_factory=list)
    stopped_early: bool = False
    stop_round: int | None = None
    skipped: str | None = None  # why the rounds did not run, when they did not
    stage: str = ""
    complete: bool = False

    def verified(self, side: str | None = None) -> list[Claim]:
        return [c for c in self.claims if c.verified and (side is None or c.side == side)]

    def claim(self, claim_id: str) -> Claim | None:
        return next((c for c in self.claims if c.id == claim_id), None)
