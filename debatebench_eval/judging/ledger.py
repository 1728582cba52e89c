"""The fact-check ledger: checking the reply, and verifying every citation it makes.

Plain functions. The reply is one typed model built per record
(`reply_model`), which gives both the schema sent and the check. A claim must
name a real turn (else the reply is repaired or rejected). An empty ledger is
an answer only when it says why: for each side
the reply lists its claims or gives, in `no_claims`, a reason it made none
(a side with both, or neither, makes the reply malformed); a judge that
simply returns no claims is not taken as having found none. A citation that
names no recorded turn or passage, or whose quote is not in the text it
cites, is kept and marked unverifiable, never dropped.
Quotes are matched after normalisation with rapidfuzz's partial ratio, so a
judge that trims a word or changes punctuation still matches; the threshold is
QUOTE_THRESHOLD.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any

from pydantic import (
    BeforeValidator,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    create_model,
)
from pydantic_core import PydanticCustomError
from rapidfuzz import fuzz

from debatebench_eval.core.reply_model import (
    ReplyModel,
    check_reply,
    one_of,
    prose,
    prose_or_empty,
)
from debatebench_eval.core.reply_model import reply_schema as schema_of
from debatebench_eval.core.resources import data_file
from debatebench_eval.core.text import HAN, fold_chinese, has_han
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.judging.blind import Orientation
from debatebench_eval.judging.rubric import CHARS_PER_TOKEN, FIELD_CHARS, SIDE_LABELS, text_bound
from debatebench_eval.record.protocol import SIDES
from debatebench_eval.record.store import DebateRecord

VERDICTS = ("supported", "contradicted", "unsupported", "not_checkable")
# partial_ratio of the normalised quote against the normalised cited text, 0-100.
# 85 accepts a dropped or changed word in a ten-word quote and rejects a quote
# that shares only its topic words with the text.
QUOTE_THRESHOLD = 85.0
MIN_QUOTE_WORDS = 3
_NEGATIONS = frozenset({"not", "no", "never", "nor", "none", "cannot", "t"})
# Chinese negators, Simplified and Traditional (quotes are folded before the check).
_HAN_NEGATIONS = frozenset("不没沒未非无無别別勿莫")
# Chinese is written without spaces: each Han character is its own token, and
# counts as half a word towards MIN_QUOTE_WORDS (a quote needs six of them).
_HAN_WORD = 0.5
_WORDS = re.compile(r"[^\w]+")


@dataclass(frozen=True)
class FactCheckPrompts:
    system: str
    prompt: str
    repair: str


@cache
def fact_check_prompts() -> FactCheckPrompts:
    data = load_yaml(data_file("scorers", "fact_check.yaml"), "fact-check prompts")
    return FactCheckPrompts(system=data["system"], prompt=data["prompt"], repair=data["repair"])


REPLY_SHAPE = """{
  "claims": [
    {"turn": "<turn id>", "claim": "...",
     "verdict": "supported|contradicted|unsupported|not_checkable",
     "citations": [{"id": "<turn or passage id>", "quote": "..."}], "reason": "..."}
  ],
  "no_claims": {"A": "<empty if Side A's claims are listed, else why it made none>",
                "B": "<empty if Side B's claims are listed, else why it made none>"}
}"""
# A reason for listing no claim must be a sentence, not "none" or "n/a".
MIN_REASON_WORDS = 3
# The prompt asks for at most five claims per turn; the reply's claims are
# capped at that many for the whole record.
MAX_CLAIMS_PER_TURN = 5
# "the ids of the passages or turns that decide it": a few, not a list.
MAX_CITATIONS = 2
# "The claim in one sentence", "one sentence on why", "a short exact quote".
LEDGER_TEXT_CHARS = 200
# The reply shape's own placeholders ("<turn id>", "<empty if Side A's claims
# are listed, else why it made none>", ...): a reply that copies one back as
# its text is refused, naming it.
SHAPE_PLACEHOLDERS = tuple(re.findall(r"<[^<>]+>", REPLY_SHAPE))


def _bare_id(value: Any) -> Any:
    """An id as the prompt shows it, "[t00000001]", read as the id itself."""
    return value.strip().strip("[]") if isinstance(value, str) else value


def _turn_id(ids: tuple[str, ...]) -> Any:
    """One of this record's turn ids (an `enum` in the schema); else one problem
    naming the ids there are."""

    def check(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError:
            raise PydanticCustomError(
                "turn_id",
                "expected the id of a turn in the record: {ids}",
                {"ids": ", ".join(ids)},
            ) from None

    return Annotated[one_of(ids), BeforeValidator(_bare_id), WrapValidator(check)]


def _cited_id(ids: tuple[str, ...]) -> Any:
    """A cited turn or passage id: sent as the `enum` of this record's ids, so a
    constrained judge cannot invent one; an unconstrained judge's invented id is
    not refused but kept and marked unverifiable (`verify_citation`), because
    that is the finding the fact-check reports."""
    extra: dict[str, Any] | None = {"enum": list(ids)} if ids else None
    return Annotated[str, BeforeValidator(_bare_id), Field(json_schema_extra=extra)]


@dataclass(frozen=True)
class LedgerBounds:
    """How much one fact-check reply may hold: claims, citations per claim, and
    characters per text (`rubric.text_bound`: a grammar-held reply at its
    longest must still fit the judge's budget)."""

    claims: int
    citations: int
    chars: int


def ledger_bounds(turns: int, budget: int | None = None) -> LedgerBounds:
    """At most MAX_CLAIMS_PER_TURN claims per turn, MAX_CITATIONS each, texts of
    LEDGER_TEXT_CHARS; with a budget, only as many claims as fit it at their
    longest (one at least, its texts shortened until it fits)."""
    claims = MAX_CLAIMS_PER_TURN * max(turns, 1)
    if budget is None:
        return LedgerBounds(claims, MAX_CITATIONS, LEDGER_TEXT_CHARS)
    field = LEDGER_TEXT_CHARS + FIELD_CHARS
    room = budget * CHARS_PER_TOKEN - len(SIDE_LABELS) * field
    claims = max(1, min(claims, room // ((2 + MAX_CITATIONS) * field)))
    fields = claims * (2 + MAX_CITATIONS) + len(SIDE_LABELS)
    return LedgerBounds(claims, MAX_CITATIONS, min(LEDGER_TEXT_CHARS, text_bound(budget, fields)))


def claims_model(record: DebateRecord, budget: int | None = None) -> type[ReplyModel]:
    """The ledger's claims for this record: `{"claims": [...]}`.

    Carried by the model (and the schema): each claim's turn is one of the
    record's turn ids, its verdict one of VERDICTS, its claim and reason text
    (not "..." nor a shown placeholder), its citations objects with an id
    (an `enum` of the record's turn and passage ids) and a quote ("" for none);
    counts and lengths within `ledger_bounds` (at most MAX_CLAIMS_PER_TURN
    claims per turn of the record, fewer for a small judge budget).
    Left to the checker (no schema can say them): a cited id that names nothing
    recorded, and a quote that is not in the text it cites, are kept and marked
    unverifiable (`verify_citation`), never refused.
    """
    turns = tuple(turn.id for turn in record.turns)
    cited = (*turns, *(passage.id for passage in record.passages))
    bounds = ledger_bounds(len(turns), budget)
    quote = Annotated[str, Field(max_length=bounds.chars)]
    citation = create_model(
        "Citation", __base__=ReplyModel, id=(_cited_id(cited), ...), quote=(quote, ...)
    )
    citations = Annotated[list[citation], Field(max_length=bounds.citations)]  # type: ignore[valid-type]
    claim = create_model(
        "Claim",
        __base__=ReplyModel,
        turn=(_turn_id(turns), ...),
        claim=(prose(bounds.chars), ...),
        verdict=(one_of(VERDICTS), ...),
        citations=(citations, ...),
        reason=(prose(bounds.chars), ...),
    )
    claims = Annotated[list[claim], Field(max_length=bounds.claims)]  # type: ignore[valid-type]
    return create_model("Claims", __base__=ReplyModel, claims=(claims, ...))


def reply_model(record: DebateRecord, budget: int | None = None) -> type[ReplyModel]:
    """The whole fact-check reply for this record: the claims (`claims_model`)
    and `no_claims`, for Side A and B an empty string or a reason (text, not a
    copied placeholder).

    Left to the checker (it depends on which sides the claims' turns belong
    to): a side with a listed claim gives "" as its reason, and a side with
    none gives a reason of at least MIN_REASON_WORDS words.
    """
    chars = ledger_bounds(len(record.turns), budget).chars
    reasons: dict[str, Any] = {label: (prose_or_empty(chars), ...) for label in SIDE_LABELS}
    no_claims = create_model("NoClaims", __base__=ReplyModel, **reasons)
    base = claims_model(record, budget)
    return create_model("FactCheck", __base__=base, no_claims=(no_claims, ...))


def reply_schema(record: DebateRecord, budget: int | None = None) -> dict[str, Any]:
    """The reply model as a JSON Schema, for servers that constrain replies by one."""
    return schema_of(reply_model(record, budget))


@dataclass(frozen=True)
class Citation:
    id: str
    quote: str
    kind: str | None  # "turn", "passage", or None when the id names nothing recorded
    match: float | None  # quote similarity 0-100, None without a quote or a target
    problem: str | None

    @property
    def verified(self) -> bool:
        return self.problem is None


@dataclass(frozen=True)
class Claim:
    turn: str
    side: str
    claim: str
    verdict: str
    reason: str
    citations: tuple[Citation, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Ledger:
    """A usable fact-check: the verified claims, and why a side listed none (by side)."""

    claims: list[Claim]
    no_claims: dict[str, str]


def check_fact_check(
    reply: Any, record: DebateRecord, orientation: Orientation, budget: int | None = None
) -> tuple[Ledger | None, list[str]]:
    """The ledger, or every problem: its claims' and its account of sides without claims."""
    checked, problems = check_reply(reply_model(record, budget), SHAPE_PLACEHOLDERS)(reply)
    if checked is None:
        return None, problems
    claims = _claims(checked, record)
    given = {label: getattr(checked.no_claims, label) for label in SIDE_LABELS}  # type: ignore[attr-defined]
    reasons, problems = _check_no_claims(given, claims, orientation)
    return (None, problems) if problems else (Ledger(claims, reasons), [])


def _check_no_claims(
    given: dict[str, str], claims: list[Claim], orientation: Orientation
) -> tuple[dict[str, str], list[str]]:
    """Why each side without a listed claim made none, by side (pro first)."""
    reasons: dict[str, str] = {}
    problems = []
    for side in SIDES:
        label = orientation.label(side)
        reason = given[label]
        listed = any(claim.side == side for claim in claims)
        if listed and reason:
            problems.append(
                f'"no_claims.{label}" gives a reason, but claims of Side {label} are listed; '
                'leave it "" when the side\'s claims are listed'
            )
        elif not listed and len(reason.split()) < MIN_REASON_WORDS:
            problems.append(
                f'no claim of Side {label} is listed and "no_claims.{label}" does not say '
                f"why; list the factual claims Side {label} made, or say in a sentence why "
                "it made none"
            )
        elif not listed:
            reasons[side] = reason
    return reasons, problems


def check_ledger(reply: Any, record: DebateRecord) -> tuple[list[Claim] | None, list[str]]:
    """The verified claims of `{"claims": [...]}`, or the problems that make it unusable."""
    checked, problems = check_reply(claims_model(record), SHAPE_PLACEHOLDERS)(reply)
    return (None, problems) if checked is None else (_claims(checked, record), [])


def _claims(checked: Any, record: DebateRecord) -> list[Claim]:
    """The checked reply's claims, each given its side (from its turn) and verified."""
    sides = {turn.id: turn.side for turn in record.turns}
    return [
        _verified(
            Claim(
                item.turn,
                sides[item.turn],
                item.claim,
                item.verdict,
                item.reason,
                tuple(Citation(c.id, c.quote.strip(), None, None, None) for c in item.citations),
            ),
            record,
        )
        for item in checked.claims
    ]


def _verified(claim: Claim, record: DebateRecord) -> Claim:
    texts = {turn.id: ("turn", turn.text) for turn in record.turns}
    texts.update({passage.id: ("passage", passage.text) for passage in record.passages})
    checked = []
    for citation in claim.citations:
        kind, text = texts.get(citation.id, (None, ""))
        checked.append(verify_citation(citation, kind, text, own_turn=citation.id == claim.turn))
    return Claim(claim.turn, claim.side, claim.claim, claim.verdict, claim.reason, tuple(checked))


def verify_citation(citation: Citation, kind: str | None, text: str, *, own_turn: bool) -> Citation:
    if kind is None:
        return Citation(citation.id, citation.quote, None, None, "no turn or passage has this id")
    if own_turn:
        return Citation(citation.id, citation.quote, kind, None, "cites the claim's own turn")
    if not citation.quote:
        return Citation(citation.id, "", kind, None, None)
    match, problem = check_quote(citation.quote, text)
    why = problem.format(kind=kind) if problem else None
    return Citation(citation.id, citation.quote, kind, round(match, 1), why)


def normalise(text: str) -> str:
    """Lower case, punctuation as spaces; Chinese folded to Simplified, one token per character."""
    if has_han(text):
        text = HAN.sub(r" \g<0> ", fold_chinese(text))
    return _WORDS.sub(" ", text.lower()).strip()


def _quote_words(tokens: list[str]) -> float:
    return sum(_HAN_WORD if HAN.fullmatch(token) else 1.0 for token in tokens)


def check_quote(quote: str, text: str) -> tuple[float, str | None]:
    """How well the quote matches its best-aligned stretch of the text, and why it fails.

    partial_ratio slides the shorter string along the longer, so a quote longer
    than its source would match on the source alone: such a quote is compared
    with the whole text instead. A quote of fewer than MIN_QUOTE_WORDS words
    proves nothing, and a negation the source lacks ("never" for a plain
    statement) reverses it however close the letters are.
    """
    q, t = normalise(quote), normalise(text)
    if _quote_words(q.split()) < MIN_QUOTE_WORDS:
        return 0.0, f"quote shorter than {MIN_QUOTE_WORDS} words"
    if len(q) > len(t):
        score, window = float(fuzz.ratio(q, t)), t
    else:
        aligned = fuzz.partial_ratio_alignment(q, t)
        if aligned is None:  # rapidfuzz gives None only under a score_cutoff; none is set
            return 0.0, "quote not found in the cited {kind}"
        score, window = float(aligned.score), t[aligned.dest_start : aligned.dest_end]
    if score < QUOTE_THRESHOLD:
        return score, "quote not found in the cited {kind}"
    if (set(q.split()) & (_NEGATIONS | _HAN_NEGATIONS)) - set(window.split()):
        return score, "quote adds a negation the cited {kind} lacks"
    return score, None


def quote_match(quote: str, text: str) -> float:
    return check_quote(quote, text)[0]
