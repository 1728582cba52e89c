"""Propose: a side's search queries and its claims, their reply shapes and checks, ids.

A claims reply must hold exactly the number of claims asked for, each with a
claim, a 2-5 step logic chain, 1-3 evidence items, a vulnerability and a
confidence from 0 to 1; anything else is a repair problem. One reply model per
call (`claims_model`) gives both the schema sent, where every one of these
rules is a count, a range or a text bound, and the check of the reply. Whether the
evidence is real is not a repair problem: it is cite-or-lose, decided by
`verify` and recorded against the claim.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import Field

from debatebench_eval.core.reply_model import Prose, ReplyModel, reply_schema
from debatebench_eval.truth_crucible.corpus import Corpus, Window, parse_window
from debatebench_eval.truth_crucible.record import Claim, Search
from debatebench_eval.truth_crucible.replies import MODELS_KEPT, items, model, one_of, parsed
from debatebench_eval.truth_crucible.verify import Evidence, corpus_path, verify

CHAIN_STEPS = (2, 5)
EVIDENCE_ITEMS = (1, 3)


@dataclass(frozen=True)
class FiledClaim:
    claim: str
    logic_chain: list[str]
    evidence: list[Evidence]
    vulnerability: str
    confidence: float


@lru_cache(maxsize=MODELS_KEPT)
def queries_model(limit: int) -> type[ReplyModel]:
    return model(
        "CrucibleQueries",
        "A side's search queries: at most `limit`, each a few words.",
        queries=items(Prose, 0, limit),
    )


def queries_schema(limit: int) -> dict[str, Any]:
    return reply_schema(queries_model(limit))


def check_queries(reply: Any, limit: int) -> tuple[list[str] | None, list[str]]:
    value, problems = parsed(queries_model(limit), reply)
    return (None, problems) if value is None else (value["queries"], [])


@lru_cache(maxsize=MODELS_KEPT)
def evidence_model(files: tuple[str, ...]) -> type[ReplyModel]:
    """One cited stretch of the corpus, its file one of `files` (the files of the
    passages the side was shown: an `enum`), or any text when it was shown none.
    Whether the lines and the excerpt are real is not checked here: that is
    cite-or-lose, decided by `verify`."""
    return model(
        "EvidenceItem",
        "One cited stretch of the corpus: a file the side was shown, lines, an excerpt.",
        file=one_of(files, normal=corpus_path) if files else Prose,
        line_start=int,
        line_end=int,
        excerpt=Prose,
    )


@lru_cache(maxsize=MODELS_KEPT)
def filed_claim_model(files: tuple[str, ...]) -> type[ReplyModel]:
    """One claim as a side files it, its evidence citing one of `files`."""
    return model(
        "FiledClaim",
        "One claim as a side files it.",
        claim=Prose,
        logic_chain=items(Prose, *CHAIN_STEPS),
        evidence=items(evidence_model(files), *EVIDENCE_ITEMS),
        vulnerability=Prose,
        confidence=(float, Field(ge=0, le=1)),
    )


@lru_cache(maxsize=MODELS_KEPT)
def claims_model(count: int, files: tuple[str, ...] = ()) -> type[ReplyModel]:
    """A side's claims: exactly `count` of them, in the schema as minItems = maxItems,
    each citing one of `files` (see `evidence_model`)."""
    return model(
        "CrucibleClaims",
        f"Exactly {count} claims, each a 2-5 step logic chain, 1-3 evidence items from the "
        "files shown and a confidence from 0 to 1. Not in the schema, because no grammar "
        "can carry it: that the lines and the excerpt are in that file (cite-or-lose, "
        "decided by `verify` after the reply is accepted, never a repair problem).",
        claims=items(filed_claim_model(files), count, count),
    )


def claims_schema(count: int, files: tuple[str, ...] = ()) -> dict[str, Any]:
    return reply_schema(claims_model(count, files))


def shown(result: Search) -> list[Window]:
    """The passages a search showed, in the order shown."""
    return [parse_window(i) for ids in result.hits.values() for i in ids]


def files_of(windows: list[Window]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(window.file for window in windows))


def claims_shape(first: Window | None = None) -> str:
    """The reply's shape for the prompt, its example citing the first passage the side
    was shown (small models copy an example's placeholder path and lines)."""
    cited = first or Window("folder/file.md", 12, 13)
    example = {
        "claim": "...",
        "logic_chain": ["...", "..."],
        "evidence": [
            {"file": cited.file, "line_start": cited.start, "line_end": cited.end,
             "excerpt": "..."}
        ],
        "vulnerability": "...",
        "confidence": 0.7,
    }  # fmt: skip
    return json.dumps({"claims": [example, "..."]}, indent=2)


def check_claims(
    reply: Any, count: int, files: tuple[str, ...] = ()
) -> tuple[list[FiledClaim] | None, list[str]]:
    value, problems = parsed(claims_model(count, files), reply)
    if value is None:
        return None, problems
    return [_filed(item) for item in value["claims"]], []


def _filed(item: dict[str, Any]) -> FiledClaim:
    evidence = [
        Evidence(e["file"], e["line_start"], e["line_end"], e["excerpt"]) for e in item["evidence"]
    ]
    return FiledClaim(
        claim=item["claim"],
        logic_chain=item["logic_chain"],
        evidence=evidence,
        vulnerability=item["vulnerability"],
        confidence=float(item["confidence"]),
    )


def claim_id(side: str, number: int) -> str:
    return f"C-{side.upper()}-{number:02d}"


def recorded_claims(side: str, filed: list[FiledClaim], corpus: Corpus, model: str) -> list[Claim]:
    """The side's claims with ids, every evidence item verified against the corpus."""
    claims = []
    for number, item in enumerate(filed, 1):
        checks = [verify(evidence, corpus) for evidence in item.evidence]
        verified = any(check.verified for check in checks)
        reasons = "; ".join(f"evidence {i}: {c.problem}" for i, c in enumerate(checks, 1))
        claims.append(
            Claim(
                id=claim_id(side, number),
                side=side,
                order=number,
                claim=item.claim,
                logic_chain=item.logic_chain,
                vulnerability=item.vulnerability,
                confidence=item.confidence,
                evidence=checks,
                verified=verified,
                failure=None if verified else f"no verified evidence ({reasons})",
                model=model,
            )
        )
    return claims


def render_claims(claims: list[Claim]) -> str:
    """Verified claims as the sides read them: real ids, the evidence that held."""
    return "\n\n".join(_claim_block(claim) for claim in claims) or "(none)"


def _claim_block(claim: Claim) -> str:
    held = [e for e in claim.evidence if e.verified]
    evidence = "\n".join(
        f'  evidence: {e.file}, lines {e.line_start}-{e.line_end}: "{e.excerpt}"' for e in held
    )
    return (
        f"{claim.id} ({claim.side.upper()}): {claim.claim}\n"
        f"  logic: {' -> '.join(claim.logic_chain)}\n{evidence}\n"
        f"  vulnerability: {claim.vulnerability}"
    )
