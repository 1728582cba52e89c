"""Which of a judge's ledger claims is which planted claim.

A judge restates each claim in its own words and names the turn that made
it, so a ledger claim is matched only to planted claims of the same turn, by
word overlap: rapidfuzz's token-set ratio of the normalised sentences (a
restatement that keeps the claim's distinctive words scores high even when it
drops or adds others). Within a turn the pairing that maximises the total
similarity is taken (scipy's linear_sum_assignment), one ledger claim per
planted claim, and a pair below MIN_SIMILARITY is no match. A planted claim
left unmatched was missed; a ledger claim left unmatched is an extra.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from rapidfuzz import fuzz

from debatebench_eval.judging.ledger import normalise
from debatebench_eval.validation.planted_set import DECIDED, PlantedClaim

# Token-set ratio, 0-100. The planted set puts two claims on different topics in
# each speech; 50 accepts a restatement that keeps the claim's topic words and
# rejects one that shares only function words with it.
MIN_SIMILARITY = 50.0


@dataclass(frozen=True)
class ClaimOutcome:
    """One planted claim as the judge handled it: the verdict it gave (None when
    missed) and, for a correctly decided supported/contradicted claim, whether
    it cited a deciding id with a verified citation."""

    claim_id: str
    gold: str
    predicted: str | None
    kind: str
    side: str
    position: str
    similarity: float | None
    judged_as: str | None
    cited: bool | None


def match_ledger(
    planted: Sequence[PlantedClaim], ledger: Sequence[Mapping[str, Any]]
) -> tuple[list[ClaimOutcome], int]:
    """Each planted claim's outcome (in the key's order) and the number of extras."""
    by_turn: dict[str, list[int]] = defaultdict(list)
    for index, entry in enumerate(ledger):
        by_turn[str(entry.get("turn"))].append(index)
    pairs: dict[str, tuple[int, float]] = {}
    for turn, listed in by_turn.items():
        own = [claim for claim in planted if claim.turn == turn]
        pairs.update(_assign(own, [ledger[i] for i in listed], listed))
    outcomes = [_outcome(claim, pairs.get(claim.claim_id), ledger) for claim in planted]
    return outcomes, len(ledger) - len(pairs)


def _assign(
    planted: list[PlantedClaim], judged: list[Mapping[str, Any]], indices: list[int]
) -> dict[str, tuple[int, float]]:
    if not planted or not judged:
        return {}
    from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

    similarity = np.array(
        [
            [similar(claim.text, str(entry.get("claim", ""))) for entry in judged]
            for claim in planted
        ]
    )
    rows, columns = linear_sum_assignment(similarity, maximize=True)
    return {
        planted[r].claim_id: (indices[c], float(similarity[r, c]))
        for r, c in zip(rows, columns, strict=True)
        if similarity[r, c] >= MIN_SIMILARITY
    }


def similar(planted: str, judged: str) -> float:
    return float(fuzz.token_set_ratio(normalise(planted), normalise(judged)))


def _outcome(
    claim: PlantedClaim, pair: tuple[int, float] | None, ledger: Sequence[Mapping[str, Any]]
) -> ClaimOutcome:
    if pair is None:
        return ClaimOutcome(
            claim.claim_id,
            claim.verdict,
            None,
            claim.kind,
            claim.side,
            claim.position,
            None,
            None,
            None,
        )
    index, similarity = pair
    entry = ledger[index]
    predicted = str(entry.get("verdict"))
    cited = None
    if claim.verdict in DECIDED and predicted == claim.verdict:
        cited = any(
            cite.get("verified") and cite.get("id") in claim.evidence
            for cite in entry.get("citations") or []
        )
    return ClaimOutcome(
        claim.claim_id,
        claim.verdict,
        predicted,
        claim.kind,
        claim.side,
        claim.position,
        round(similarity, 1),
        str(entry.get("claim")),
        cited,
    )
