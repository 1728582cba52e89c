"""The fact-check ledger: checking the reply, and verifying every citation it makes.

Plain functions. A claim must name a real turn (else the reply is repaired or
rejected). An empty ledger is an answer only when it says why: for each side
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
from typing import Any

from rapidfuzz import fuzz

from debatebench_eval.core.resources import data_file
from debatebench_eval.core.text import HAN, fold_chinese, has_han
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.debate.protocol import SIDES
from debatebench_eval.debate.record import DebateRecord
from debatebench_eval.judging.blind import Orientation
from debatebench_eval.judging.rubric import SIDE_LABELS

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


def reply_schema() -> dict[str, Any]:
    citation = {
        "type": "object",
        "properties": {"id": {"type": "string"}, "quote": {"type": "string"}},
        "required": ["id", "quote"],
        "additionalProperties": False,
    }
    claim = {
        "type": "object",
        "properties": {
            "turn": {"type": "string"},
            "claim": {"type": "string"},
            "verdict": {"type": "string", "enum": list(VERDICTS)},
            "citations": {"type": "array", "items": citation},
            "reason": {"type": "string"},
        },
        "required": ["turn", "claim", "verdict", "citations", "reason"],
        "additionalProperties": False,
    }
    reasons = {
        "type": "object",
        "properties": {label: {"type": "string"} for label in SIDE_LABELS},
        "required": list(SIDE_LABELS),
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"claims": {"type": "array", "items": claim}, "no_claims": reasons},
        "required": ["claims", "no_claims"],
        "additionalProperties": False,
    }


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
    reply: Any, record: DebateRecord, orientation: Orientation
) -> tuple[Ledger | None, list[str]]:
    """The ledger, or every problem: its claims' and its account of sides without claims."""
    claims, problems = check_ledger(reply, record)
    if not isinstance(reply, dict):
        return None, problems
    if not isinstance(reply.get("no_claims"), dict):
        return None, [*problems, _NO_CLAIMS_MISSING]
    if claims is None:  # a claim's side is unknown until its turn is: nothing more to say
        return None, problems
    reasons, problems = _check_no_claims(reply["no_claims"], claims, orientation)
    return (None, problems) if problems else (Ledger(claims, reasons), [])


_NO_CLAIMS_MISSING = '"no_claims" is missing: an object with a reason (or "") for Side A and B'


def _check_no_claims(
    given: dict[str, Any], claims: list[Claim], orientation: Orientation
) -> tuple[dict[str, str], list[str]]:
    """Why each side without a listed claim made none, by side (pro first)."""
    reasons: dict[str, str] = {}
    problems = []
    for side in SIDES:
        label = orientation.label(side)
        reason = given.get(label)
        listed = any(claim.side == side for claim in claims)
        if not isinstance(reason, str):
            problems.append(f'"no_claims.{label}" is missing or not a string')
        elif listed and reason.strip():
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
            reasons[side] = reason.strip()
    return reasons, problems


def check_ledger(reply: Any, record: DebateRecord) -> tuple[list[Claim] | None, list[str]]:
    """The verified ledger, or the problems that make the reply unusable."""
    if not isinstance(reply, dict) or not isinstance(reply.get("claims"), list):
        return None, ['the reply must be an object with a "claims" list']
    sides = {turn.id: turn.side for turn in record.turns}
    claims: list[Claim] = []
    problems: list[str] = []
    for index, item in enumerate(reply["claims"]):
        claim, found = _check_claim(item, f"claims[{index}]", sides)
        problems += found
        if claim is not None:
            claims.append(_verified(claim, record))
    return (None, problems) if problems else (claims, [])


def _check_claim(item: Any, at: str, sides: dict[str, str]) -> tuple[Claim | None, list[str]]:
    if not isinstance(item, dict):
        return None, [f'"{at}" is not an object']
    problems = []
    turn, text, verdict = item.get("turn"), item.get("claim"), item.get("verdict")
    if isinstance(turn, str):
        turn = turn.strip().strip("[]")  # the prompt shows ids in brackets
    if not isinstance(turn, str) or turn not in sides:
        problems.append(f'"{at}.turn" is {turn!r}, which is not the id of a turn in the record')
    if not isinstance(text, str) or not text.strip():
        problems.append(f'"{at}.claim" is missing or empty')
    if verdict not in VERDICTS:
        problems.append(f'"{at}.verdict" is {verdict!r}; expected one of {", ".join(VERDICTS)}')
    reason = item.get("reason", "")
    if not isinstance(reason, str):
        problems.append(f'"{at}.reason" is not a string')
    citations, found = _check_citations(item.get("citations", []), f"{at}.citations")
    problems += found
    if problems:
        return None, problems
    return Claim(
        str(turn), sides[str(turn)], str(text).strip(), str(verdict), str(reason), citations
    ), []


def _check_citations(value: Any, at: str) -> tuple[tuple[Citation, ...], list[str]]:
    if not isinstance(value, list):
        return (), [f'"{at}" is not a list']
    citations, problems = [], []
    for index, item in enumerate(value):
        here = f"{at}[{index}]"
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            problems.append(f'"{here}" must be an object with a string "id"')
            continue
        quote = item.get("quote", "")
        if not isinstance(quote, str):
            problems.append(f'"{here}.quote" is not a string')
            continue
        citations.append(Citation(item["id"].strip().strip("[]"), quote.strip(), None, None, None))
    return tuple(citations), problems


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
