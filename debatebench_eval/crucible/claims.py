"""Propose: a side's search queries and its claims, their reply shapes and checks, ids.

A claims reply must hold exactly the number of claims asked for, each with a
claim, a 2-5 step logic chain, 1-3 evidence items, a non-empty vulnerability
and a confidence from 0 to 1; anything else is a repair problem. Whether the
evidence is real is not a repair problem: it is cite-or-lose, decided by
`verify` and recorded against the claim.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from debatebench_eval.crucible.corpus import Corpus
from debatebench_eval.crucible.record import Claim
from debatebench_eval.crucible.replies import INTEGER, NUMBER, TEXT, array, obj, whole
from debatebench_eval.crucible.verify import Evidence, verify

CHAIN_STEPS = (2, 5)
EVIDENCE_ITEMS = (1, 3)


@dataclass(frozen=True)
class FiledClaim:
    claim: str
    logic_chain: list[str]
    evidence: list[Evidence]
    vulnerability: str
    confidence: float


def queries_schema() -> dict[str, Any]:
    return obj({"queries": array(TEXT)})


def check_queries(reply: Any, limit: int) -> tuple[list[str] | None, list[str]]:
    if not isinstance(reply, dict) or not isinstance(reply.get("queries"), list):
        return None, ['the reply must be an object with a "queries" list']
    queries = reply["queries"]
    if not all(isinstance(q, str) for q in queries):
        return None, ['"queries" must hold strings only']
    if len(queries) > limit:
        return None, [f'"queries" has {len(queries)} queries; at most {limit}']
    return [q.strip() for q in queries if q.strip()], []


def claims_schema() -> dict[str, Any]:
    evidence = obj({"file": TEXT, "line_start": INTEGER, "line_end": INTEGER, "excerpt": TEXT})
    claim = obj(
        {
            "claim": TEXT,
            "logic_chain": array(TEXT),
            "evidence": array(evidence),
            "vulnerability": TEXT,
            "confidence": NUMBER,
        }
    )
    return obj({"claims": array(claim)})


def claims_shape() -> str:
    example = {
        "claim": "...",
        "logic_chain": ["...", "..."],
        "evidence": [
            {"file": "folder/file.md", "line_start": 12, "line_end": 13, "excerpt": "..."}
        ],
        "vulnerability": "...",
        "confidence": 0.7,
    }
    return json.dumps({"claims": [example, "..."]}, indent=2)


def check_claims(reply: Any, count: int) -> tuple[list[FiledClaim] | None, list[str]]:
    if not isinstance(reply, dict) or not isinstance(reply.get("claims"), list):
        return None, ['the reply must be an object with a "claims" list']
    items = reply["claims"]
    problems = []
    if len(items) != count:
        problems.append(f"{_claims(len(items))} filed; exactly {count} asked")
    filed = []
    for index, item in enumerate(items):
        claim, found = _check_claim(item, f"claims[{index}]")
        problems += found
        if claim is not None:
            filed.append(claim)
    return (None, problems) if problems else (filed, [])


def _claims(n: int) -> str:
    return f"{n} claim" if n == 1 else f"{n} claims"


def _check_claim(item: Any, at: str) -> tuple[FiledClaim | None, list[str]]:
    if not isinstance(item, dict):
        return None, [f'"{at}" is not an object']
    problems = [
        f'"{at}.{key}" is missing or empty'
        for key in ("claim", "vulnerability")
        if not _text(item.get(key))
    ]
    chain = item.get("logic_chain")
    low, high = CHAIN_STEPS
    if not isinstance(chain, list) or not low <= len(chain) <= high or not all(map(_text, chain)):
        problems.append(f'"{at}.logic_chain" must be {low} to {high} non-empty steps')
    confidence = item.get("confidence")
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        problems.append(f'"{at}.confidence" must be a number from 0 to 1')
    elif not 0 <= confidence <= 1:
        problems.append(f'"{at}.confidence" is {confidence}; it must be from 0 to 1')
    evidence, found = _check_evidence(item.get("evidence"), f"{at}.evidence")
    problems += found
    if problems:
        return None, problems
    return FiledClaim(
        claim=item["claim"].strip(),
        logic_chain=[step.strip() for step in chain],  # type: ignore[union-attr]
        evidence=evidence,
        vulnerability=item["vulnerability"].strip(),
        confidence=float(confidence),  # type: ignore[arg-type]
    ), []


def _check_evidence(value: Any, at: str) -> tuple[list[Evidence], list[str]]:
    low, high = EVIDENCE_ITEMS
    if not isinstance(value, list) or not low <= len(value) <= high:
        return [], [f'"{at}" must hold {low} to {high} items']
    items, problems = [], []
    for index, entry in enumerate(value):
        here = f"{at}[{index}]"
        ok = isinstance(entry, dict) and _text(entry.get("file")) and _text(entry.get("excerpt"))
        given = [entry.get(k) for k in ("line_start", "line_end")] if ok else [None, None]
        lines = [whole(n, -(2**31), 2**31) for n in given]
        if not ok or lines[0] is None or lines[1] is None:
            problems.append(
                f'"{here}" must have a "file", whole-number "line_start" and "line_end", '
                'and a non-empty "excerpt"'
            )
            continue
        items.append(Evidence(entry["file"], lines[0], lines[1], entry["excerpt"].strip()))
    return items, problems


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


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
