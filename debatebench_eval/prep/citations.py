"""Cite-or-lose: the passage ids a speech cites, and what is wrong with any of them.

Debaters cite their prep evidence as `[P3]`; a cited id that names no
passage, or the opponent's, is recorded on the turn, never dropped.
"""

from __future__ import annotations

import re

from debatebench_eval.record.store import Passage, Turn

# [P3], and lists such as [P3, P5] or [p3; p5].
_CITATION = re.compile(r"\[\s*([Pp]\d+(?:\s*[,;]\s*[Pp]\d+)*)\s*\]")


def citations(text: str, passages: list[Passage], side: str) -> tuple[list[str], dict[str, str]]:
    """The passage ids a speech cites, and what is wrong with any of them."""
    found = (
        pid.strip().upper() for group in _CITATION.findall(text) for pid in re.split(r"[,;]", group)
    )
    cited = list(dict.fromkeys(found))
    owners = {p.id: p.side for p in passages}
    problems = {}
    for pid in cited:
        if pid not in owners:
            problems[pid] = "no such passage"
        elif owners[pid] != side:
            problems[pid] = "the opponent's passage"
    return cited, problems


def with_citations(turn: Turn, passages: list[Passage]) -> Turn:
    cited, problems = citations(turn.text, passages, turn.side)
    return turn.model_copy(update={"cited_ids": cited, "citation_problems": problems})
