"""Quotes of the hidden evidence, checked and marked for the judge.

A speaker quotes the evidence as `<quote>...</quote>`. Each quote is checked
against the evidence: word for word first (whitespace aside), then by the
fact-check's own normalised fuzzy match (`judging.ledger.check_quote`: case
and punctuation ignored, a partial-ratio match of at least 85, at least three
words, no added negation). The judge sees each quote marked
`<quote verified>` or `<quote unverified>`; a speech that quotes nothing is
shown as it is, and its quote count (zero) is recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from debatebench_eval.judging.ledger import check_quote

QUOTE = re.compile(r"<quote>(.*?)</quote>", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class QuoteCheck:
    text: str
    verified: bool
    # "exact", "fuzzy" (the normalised match), or why it failed.
    how: str


def check_quotes(speech: str, evidence: str | None) -> list[QuoteCheck]:
    """Every marked quote of the speech, checked against the evidence."""
    return [_check(match.group(1).strip(), evidence) for match in QUOTE.finditer(speech)]


def _check(quote: str, evidence: str | None) -> QuoteCheck:
    if evidence is None:
        return QuoteCheck(quote, False, "there is no evidence to quote")
    if quote and " ".join(quote.split()) in " ".join(evidence.split()):
        return QuoteCheck(quote, True, "exact")
    _, why = check_quote(quote, evidence)
    return QuoteCheck(quote, why is None, "fuzzy" if why is None else why.format(kind="evidence"))


def judge_view(speech: str, evidence: str | None) -> str:
    """The speech as the judge reads it: every quote marked verified or unverified."""

    def mark(match: re.Match[str]) -> str:
        found = _check(match.group(1).strip(), evidence)
        tag = "quote verified" if found.verified else "quote unverified"
        return f"<{tag}>{match.group(1)}</quote>"

    return QUOTE.sub(mark, speech)
