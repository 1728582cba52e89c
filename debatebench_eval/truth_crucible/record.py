"""The CrucibleRecord: the typed store of one topic's debate.

It holds the debate itself (run settings, searches, claims with their
verification, conflicts, turns, round reviews); the judgments live in the
score, so `inspect score` can judge the same record again. Optional fields
default to None: Inspect drops None values when it writes the store to the log.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from debatebench_eval.core.store_record import StoreRecord
from debatebench_eval.record.store import TurnUsage

CRUCIBLE_SCHEMA_VERSION = 1
SIDES = ("pro", "con")


class CallRecord(BaseModel):
    """One structured call made during the debate: its cost, its repairs, and why it
    failed when it did (a partial run's report names what ran and what stopped it)."""

    stage: str = Field(
        description="The stage that asked: `neutralize`, `propose: queries`, `propose: claims`, "
        "`conflicts`, `round N (kind)` or `review of round N`."
    )
    actor: str = Field(description="Who was asked: `pro`, `con` or `judge`.")
    model: str = Field(description="The model asked.")
    usage: TurnUsage = Field(
        default_factory=TurnUsage, description="The tokens of every reply, repairs included."
    )
    budget: int = Field(
        description="The call's completion-token cap (a side's `-T budget`, else `judge_budget`)."
    )
    hit_budget: bool = Field(default=False, description="Some reply stopped at the cap.")
    repairs: int = Field(default=0, description="Repair re-asks made (0: the first reply held).")
    json_mode: str | None = Field(
        default=None,
        description="The JSON mode the call was made in (`true`, `object` or `false`; `auto` "
        "settled for the server).",
    )
    problems: list[list[str]] = Field(
        default_factory=list, description="The problems of each rejected reply, one list each."
    )
    failure: str | None = Field(
        default=None,
        description="Why the call gave nothing usable (its error, the reply still wrong after "
        "its repair, a server over its budget); None when it succeeded.",
    )


class Search(BaseModel):
    """A side's corpus search: its queries and the windows it was shown."""

    side: str = Field(description="The side searching: `pro` or `con`.")
    queries: list[str] = Field(
        description="The queries run: the harness's own (the question and the side's position) "
        "first, then the side's own (at most `-T queries`)."
    )
    hits: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Class -> the window ids shown to the side (`folder/file.md:12-19`), at most "
        "`-T hits` per class.",
    )


class EvidenceCheck(BaseModel):
    """One evidence item of a claim, checked against the lines it cites (cite-or-lose)."""

    file: str = Field(description="The cited path, in corpus form (`/` separators, no `./`).")
    line_start: int = Field(description="The first cited line (lines numbered from 1).")
    line_end: int = Field(description="The last cited line.")
    excerpt: str = Field(description="The quote as the side filed it.")
    verified: bool = Field(
        description="The range exists, is at most 20 lines, and holds the quote (the "
        "fact-check's quote check)."
    )
    match: float | None = Field(
        default=None,
        description="Quote similarity to the cited lines, 0-100; None when the file or range "
        "is not there.",
    )
    problem: str | None = Field(
        default=None, description="Why the item failed verification; None when it held."
    )
    found_at: str | None = Field(
        default=None,
        description="Where in the file the quote really is (`14-15`), when not in the cited "
        "lines; else None.",
    )
    cls: str | None = Field(
        default=None, description="The file's class (`PRO`, ...); None when not a corpus file."
    )
    kind: str | None = Field(
        default=None,
        description="`source`, or `analysis` for a file with the analysis suffix; None when not "
        "a corpus file.",
    )
    # Kept so that judges, reports and `inspect score` need not reread the corpus.
    lines: list[str] = Field(
        default_factory=list,
        description="The cited lines' text when the range exists; else empty.",
    )


class Claim(BaseModel):
    """One claim a side filed, with its evidence verified."""

    id: str = Field(description="`C-PRO-01`, `C-CON-02`, ...: the side and the claim's order.")
    side: str = Field(description="The side that filed it.")
    order: int = Field(description="Its place in the side's reply, from 1.")
    claim: str = Field(description="The claim.")
    logic_chain: list[str] = Field(description="The steps from the evidence to it (2-5).")
    vulnerability: str = Field(description="Its weakest point, as the side names it.")
    confidence: float = Field(description="The side's confidence in it, 0-1.")
    evidence: list[EvidenceCheck] = Field(description="Its evidence items (1-3), each checked.")
    verified: bool = Field(
        description="At least one item held; an unverified claim takes no part in conflicts, "
        "rounds or scoring."
    )
    failure: str | None = Field(
        default=None,
        description="`no verified evidence (...)` with each item's problem; None when verified.",
    )
    model: str = Field(description="The side's model.")


class Conflict(BaseModel):
    """Verified claims that cannot all be right, as the judge found them."""

    id: str = Field(description="`X1`, `X2`, ... in the judge's order.")
    claims: list[str] = Field(
        description="The ids of the claims in conflict: two or more, of both sides."
    )
    question: str = Field(description="What they disagree on, in the judge's words.")
    nature: str = Field(description="`empirical`, `causal`, `value`, `definitional` or `scope`.")
    crux: str = Field(description="What would settle it.")


class Steelman(BaseModel):
    """The opponent's claim, restated at the start of a turn."""

    claim: str = Field(description="The id of the opponent's claim restated.")
    restatement: str = Field(description="The restatement.")


class Attack(BaseModel):
    """One of the speaker's claims used against one of the opponent's."""

    claim: str = Field(
        description="The attacker's claim id (in a swap round, a claim of the position it argues)."
    )
    target: str = Field(description="The id of the opponent's claim attacked.")
    argument: str = Field(description="The argument.")


class Defence(BaseModel):
    """A reply to an attack on one of the speaker's claims."""

    claim: str = Field(description="The id of the claim defended (of the position argued).")
    reply: str = Field(description="The reply.")


class CrucibleTurn(BaseModel):
    """One side's turn in a round."""

    id: str = Field(
        description="`R<round>.<1 or 2>`: the round and the turn's place in it (`R1.1`, `R1.2`, "
        "...; the swap round is numbered after the last)."
    )
    round: int = Field(description="The round, from 1 (the swap round: `-T rounds` + 1).")
    kind: str = Field(
        description="`push` (the round's first turn), `rebuttal` (its second) or `swap`."
    )
    side: str = Field(description="The side speaking.")
    argues: str = Field(
        description="The position argued: the side's own, the other in the swap round."
    )
    steelman: Steelman | None = Field(
        default=None,
        description="The opponent's claim restated, asked from round 2 on with `-T steelman`; "
        "else None.",
    )
    attacks: list[Attack] = Field(
        default_factory=list, description="Its attacks (at least one in a push or a swap)."
    )
    defends: list[Defence] = Field(
        default_factory=list,
        description="Its defences (a rebuttal makes an attack or a defence).",
    )
    speech: str = Field(description="The turn's prose.")
    model: str = Field(description="The side's model.")


class SteelmanReview(BaseModel):
    """The judge's grade of one steelman."""

    turn: str = Field(description="The id of the turn that opened with the steelman.")
    fidelity: int = Field(description="1 (a straw man) to 5 (the claim at its strongest).")
    reason: str = Field(description="The judge's reason.")


class RoundReview(BaseModel):
    """The judge's review after a round, beside a similarity the harness counts."""

    round: int = Field(description="The round reviewed (the swap round: `-T rounds` + 1).")
    kind: str = Field(description="`round` or `swap`.")
    convergence: float = Field(
        description="Judged, 0-1: the sides agree, or one defers without new reasons; at or "
        "above `-T early_stop` it ends the rounds."
    )
    reason: str = Field(description="The judge's reason for it.")
    conceded: list[str] = Field(
        default_factory=list, description="The ids of claims the judge found conceded."
    )
    lexical: float = Field(
        description="Counted, 0-1: the Jaccard similarity of the two speeches' content terms."
    )
    steelman: list[SteelmanReview] = Field(
        default_factory=list, description="One grade per turn of the round that opened with one."
    )
    judge: str = Field(description="The judge model (the first judge).")


class DimensionCheck(BaseModel):
    """One bias dimension of the question, as the judge scored it."""

    score: int = Field(description="0 none, 1 mild, 2 clear, 3 severe.")
    phrase: str = Field(
        description="The words of the question or positions that show it (from a score of 1)."
    )
    note: str = Field(description="The judge's note.")


class Diagnosis(BaseModel):
    """The topic-neutralisation check of the question, and what was done with it."""

    mode: str = Field(description="`-T neutralize`: `diagnose` or `rewrite`.")
    dimensions: dict[str, DimensionCheck] = Field(
        description="Each bias dimension of the judge's prompts, by name, with its check."
    )
    neutral_question: str = Field(description="The judge's neutral wording of the question.")
    neutral_pro_position: str = Field(description="Its neutral wording of the pro position.")
    neutral_con_position: str = Field(description="Its neutral wording of the con position.")
    applied: bool = Field(
        description="The neutral wording was debated (`rewrite`, and some score 2 or more)."
    )
    note: str = Field(description="What was done and why, in one line.")
    judge: str = Field(description="The judge model.")


class CrucibleRun(BaseModel):
    """What the sample debated, over which corpus, with which options, seed and models."""

    topic_file: str = Field(description="The topic file's path, as given.")
    topic_sha256: str = Field(description="The SHA-256 of the topic file's bytes.")
    corpus_sha256: str = Field(
        description="A SHA-256 over the corpus manifest (each file's class, path, kind and "
        "hash) and the windowing settings."
    )
    classes: dict[str, str] = Field(
        description="Class (`PRO`, `CON`, `CRITICAL_OF_BOTH`) -> its folder under the corpus root."
    )
    corpus: dict[str, dict[str, int]] = Field(
        description="Per class: its `files`, `lines` and `windows`."
    )
    manifest: list[dict[str, Any]] = Field(
        description="One row per corpus file: `class`, `path`, `kind`, `lines`, `sha256`."
    )
    question: str = Field(
        description="The question as debated (the neutral wording when rewritten)."
    )
    pro_position: str = Field(description="The pro position as debated.")
    con_position: str = Field(description="The con position as debated.")
    question_original: str = Field(description="The question as the topic file gives it.")
    pro_position_original: str = Field(description="The pro position as the file gives it.")
    con_position_original: str = Field(description="The con position as the file gives it.")
    context: str = Field(description="The topic file's context (may be empty).")
    options: dict[str, Any] = Field(
        description="The debate options as run, with the scoring options under `scoring`."
    )
    seed: int = Field(description="The sample's seed, sent with every call of the debate.")
    seed_source: str = Field(
        description="`derived from base seed N`, or `derived from the topic and corpus content` "
        "(no seed given: a retry finds its cached calls)."
    )
    models: dict[str, Any] = Field(
        description="`pro`, `con`, `judges` (a list) and `meta_judge`, each `{model, base_url}`."
    )
    analyzer: str = Field(description="How retrieval turns text into terms (`cjk-fold`).")


class CrucibleRecord(StoreRecord):
    """One topic's debate, as the scorer, the report and `inspect score` read it."""

    schema_version: int = Field(
        default=CRUCIBLE_SCHEMA_VERSION, description="The record's layout version."
    )
    run: CrucibleRun | None = Field(
        default=None, description="The sample's settings; None when it failed before debating."
    )
    neutralization: Diagnosis | None = Field(
        default=None, description="The bias check; None with `-T neutralize=off`."
    )
    searches: list[Search] = Field(default_factory=list, description="Each side's search.")
    claims: list[Claim] = Field(
        default_factory=list, description="Both sides' claims, verified or not, pro's first."
    )
    conflicts: list[Conflict] = Field(
        default_factory=list,
        description="The conflicts the judge found; empty when it found none or they did not run.",
    )
    conflicts_note: str | None = Field(
        default=None,
        description="The judge's reason for finding no conflict; None when it found some.",
    )
    turns: list[CrucibleTurn] = Field(
        default_factory=list, description="Every round's turns, in speaking order."
    )
    reviews: list[RoundReview] = Field(
        default_factory=list, description="One review per round spoken, the swap round included."
    )
    calls: list[CallRecord] = Field(
        default_factory=list,
        description="Every model call of the debate (not of its scoring), failed ones included.",
    )
    stopped_early: bool = Field(
        default=False, description="A judged convergence ended the rounds (`-T early_stop`)."
    )
    stop_round: int | None = Field(
        default=None, description="The round after which they stopped; None when they did not."
    )
    skipped: str | None = Field(
        default=None,
        description="Why conflicts and rounds did not run (a side had no verified claim); "
        "None when they ran.",
    )
    stage: str = Field(
        default="",
        description="The last stage finished: `neutralized`, `proposed`, `conflicts`, "
        "`round-N`, `swap`, `complete`; empty before the first.",
    )
    complete: bool = Field(
        default=False, description="Every stage ran; only a complete record is scored."
    )

    def verified(self, side: str | None = None) -> list[Claim]:
        return [c for c in self.claims if c.verified and (side is None or c.side == side)]

    def claim(self, claim_id: str) -> Claim | None:
        return next((c for c in self.claims if c.id == claim_id), None)
