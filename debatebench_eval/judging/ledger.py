"""The fact-check ledger: checking the reply, and verifying every citation it makes.

Plain functions. The reply is one typed model built per record and blind
orientation (`reply_model`), which gives both the schema sent and the check.
For each side the reply gives either its claims, each naming a turn of that
side (else the reply is repaired or rejected), or, in `no_claims`, a sentence
on why it made none: one of two objects, so a side cannot have both or
neither, and a judge that simply returns no claims is not taken as having
found none. A citation that
names no recorded turn or passage, or whose quote is not in the text it
cites, is kept and marked unverifiable, never dropped.
Quotes are matched after normalisation with rapidfuzz's partial ratio, so a
judge that trims a word or changes punctuation still matches; the threshold is
QUOTE_THRESHOLD.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
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
    MODELS_KEPT,
    ReplyModel,
    check_reply,
    either,
    one_of,
    prose,
)
from debatebench_eval.core.reply_model import reply_schema as schema_of
from debatebench_eval.core.resources import data_file
from debatebench_eval.core.text import HAN, fold_chinese, has_han
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.judging.blind import Orientation
from debatebench_eval.judging.rubric import (
    CHARS_PER_TOKEN,
    FIELD_CHARS,
    REPLY_KEYS,
    SIDE_LABELS,
    text_bound,
)
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
  "side_a": {"claims": [
    {"turn": "<turn id of Side A>", "claim": "...",
     "verdict": "supported|contradicted|unsupported|not_checkable",
     "citations": [{"id": "<turn or passage id>", "quote": "..."}], "reason": "..."}
  ]},
  "side_b": {"claims": [ ...the claims of Side B, each naming a turn of Side B... ]}
}
A side that made no factual claim gets, in place of {"claims": [...]}:
  {"no_claims": "<a sentence on why the side made no factual claim>"}"""
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


def _turn_id(ids: tuple[str, ...], whose: str = "in the record") -> Any:
    """One of `ids` (an `enum` in the schema), the turns `whose` names; else one
    problem naming the ids there are."""

    def check(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError:
            raise PydanticCustomError(
                "turn_id",
                "expected the id of a turn {whose}: {ids}",
                {"whose": whose, "ids": ", ".join(ids)},
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
    """How much one fact-check reply may hold: claims per side, citations per
    claim, and characters per text (`rubric.text_bound`: a grammar-held reply
    at its longest must still fit the judge's budget)."""

    claims: int
    citations: int
    chars: int


def ledger_bounds(side_turns: int, budget: int | None = None) -> LedgerBounds:
    """At most MAX_CLAIMS_PER_TURN claims per turn of a side (`side_turns`: the
    most turns either side has), MAX_CITATIONS each, texts of LEDGER_TEXT_CHARS;
    with a budget, only as many claims per side as fit it with both sides at
    their longest (one at least, its texts shortened until it fits)."""
    claims = MAX_CLAIMS_PER_TURN * max(side_turns, 1)
    if budget is None:
        return LedgerBounds(claims, MAX_CITATIONS, LEDGER_TEXT_CHARS)
    field = LEDGER_TEXT_CHARS + FIELD_CHARS
    per_claim = (2 + MAX_CITATIONS) * field
    room = budget * CHARS_PER_TOKEN
    claims = max(1, min(claims, room // (len(SIDE_LABELS) * per_claim)))
    fields = len(SIDE_LABELS) * claims * (2 + MAX_CITATIONS)
    return LedgerBounds(claims, MAX_CITATIONS, min(LEDGER_TEXT_CHARS, text_bound(budget, fields)))


def _claim_model(
    turns: tuple[str, ...], cited: tuple[str, ...], bounds: LedgerBounds, whose: str
) -> Any:
    """One claim: its turn one of `turns` (the turns `whose` names), its
    citations' ids of `cited`."""
    quote = Annotated[str, Field(max_length=bounds.chars)]
    citation = create_model(
        "Citation", __base__=ReplyModel, id=(_cited_id(cited), ...), quote=(quote, ...)
    )
    citations = Annotated[list[citation], Field(max_length=bounds.citations)]  # type: ignore[valid-type]
    return create_model(
        "Claim",
        __base__=ReplyModel,
        turn=(_turn_id(turns, whose), ...),
        claim=(prose(bounds.chars), ...),
        verdict=(one_of(VERDICTS), ...),
        citations=(citations, ...),
        reason=(prose(bounds.chars), ...),
    )


def _cited(record: DebateRecord) -> tuple[str, ...]:
    return (*(turn.id for turn in record.turns), *(passage.id for passage in record.passages))


def claims_model(record: DebateRecord, budget: int | None = None) -> type[ReplyModel]:
    """Claims about any turn of this record: `{"claims": [...]}`.

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
    bounds = ledger_bounds(len(turns), budget)
    claim = _claim_model(turns, _cited(record), bounds, "in the record")
    claims = Annotated[list[claim], Field(max_length=bounds.claims)]  # type: ignore[valid-type]
    return create_model("Claims", __base__=ReplyModel, claims=(claims, ...))


def reply_model(
    record: DebateRecord, orientation: Orientation, budget: int | None = None
) -> type[ReplyModel]:
    """The whole fact-check reply for this record, Side A and B as `orientation`
    shows them: for each side (`side_a`, `side_b`) either `{"claims": [...]}`,
    one claim at least, each as in `claims_model` but naming a turn of that
    side, or `{"no_claims": "..."}`, a sentence of at least MIN_REASON_WORDS
    words on why the side made none. Both rules are in the schema: the two
    forms as an `anyOf` told apart by their key (a side cannot list claims and
    excuse itself, nor do neither), the side's turns as the `enum` of its
    claims' turns, the count as `minItems`, the words in the reason's
    `pattern`. A side with no turn in the record can only give `no_claims`.
    """
    spoken = record.turns  # read from the store anew at each access
    most = max(sum(turn.side == side for turn in spoken) for side in SIDES)
    turns = [
        tuple(turn.id for turn in spoken if turn.side == orientation.side(label))
        for label in SIDE_LABELS
    ]
    return _fact_check_model(*turns, _cited(record), ledger_bounds(most, budget))


# Building a reply model and its schema costs a judge call some 20 ms of CPU:
# the schema sent and the check of the reply share one build, as do a debate's
# repeated and repaired asks.
@lru_cache(maxsize=MODELS_KEPT)
def _fact_check_model(
    turns_a: tuple[str, ...], turns_b: tuple[str, ...], cited: tuple[str, ...], bounds: LedgerBounds
) -> type[ReplyModel]:
    sides: dict[str, Any] = {
        REPLY_KEYS[label]: (_side_model(turns, cited, label, bounds), ...)
        for label, turns in zip(SIDE_LABELS, (turns_a, turns_b), strict=True)
    }
    return create_model("FactCheck", __base__=ReplyModel, **sides)


def _side_model(
    turns: tuple[str, ...], cited: tuple[str, ...], label: str, bounds: LedgerBounds
) -> Any:
    """One side of the reply: its claims (naming one of its `turns`), or why it made none."""
    reason: Any = Annotated[
        prose(bounds.chars, min_words=MIN_REASON_WORDS), AfterValidator(_reason_of(label))
    ]
    none_made = create_model(f"NoClaims{label}", __base__=ReplyModel, no_claims=(reason, ...))
    branches: dict[str, type[BaseModel]] = {"no_claims": none_made}
    if turns:
        claim = _claim_model(turns, cited, bounds, f"of Side {label}")
        claims = Annotated[
            list[claim],  # type: ignore[valid-type]
            Field(min_length=1, max_length=bounds.claims),
            WrapValidator(_some_claims(label)),
        ]
        listed = create_model(f"Claims{label}", __base__=ReplyModel, claims=(claims, ...))
        branches = {"claims": listed, **branches}
    expected = (
        f'expected {{"claims": [...]}} with the factual claims of Side {label}, '
        f'or {{"no_claims": "..."}} saying why it made none (one of the two, not both)'
    )
    return either(branches, expected)


def _some_claims(label: str) -> Any:
    """An empty claims list is the other form's job: say so, naming it."""

    def check(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if isinstance(value, list) and not value:
            raise PydanticCustomError(
                "no_claims_listed",
                'expected at least 1 claim; if Side {label} made none, give "no_claims" '
                'with why in place of "claims"',
                {"label": label},
            )
        return handler(value)

    return check


def _reason_of(label: str) -> Any:
    def check(value: str) -> str:
        if len(value.split()) < MIN_REASON_WORDS:
            raise ValueError(
                f"expected a sentence of at least {MIN_REASON_WORDS} words on why Side "
                f'{label} made no factual claim, or its claims listed under "claims"'
            )
        return value.strip()

    return check


def reply_schema(
    record: DebateRecord, orientation: Orientation, budget: int | None = None
) -> dict[str, Any]:
    """The reply model as a JSON Schema, for servers that constrain replies by one."""
    return schema_of(reply_model(record, orientation, budget))


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
    """The ledger, or every problem with the reply."""
    model = reply_model(record, orientation, budget)
    checked, problems = check_reply(model, SHAPE_PLACEHOLDERS)(reply)
    if checked is None:
        return None, problems
    claims: list[Claim] = []
    reasons: dict[str, str] = {}
    for side in SIDES:
        given = getattr(checked, REPLY_KEYS[orientation.label(side)])
        if hasattr(given, "claims"):
            claims += _claims(given, record)
        else:
            reasons[side] = given.no_claims
    # In speaking order, as the transcript lists them (not by blind label, which
    # would order the same ledger differently under the other reading).
    spoken = {turn.id: index for index, turn in enumerate(record.turns)}
    return Ledger(sorted(claims, key=lambda claim: spoken[claim.turn]), reasons), []


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
