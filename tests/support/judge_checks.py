"""Scripted judges for the judge checks: an oracle that knows every answer, and a
random judge that knows none.

The oracle fact-checker lists each planted claim of the turns it is shown,
word for word, with its planted verdict and its deciding ids; the random one
lists the same claims with a verdict drawn uniformly (seeded by the claim), so
it finds every claim and knows nothing of the record: its macro-F1 should sit
at the random baseline. The rubric judges are in the same pattern: the oracle
recognises each debate variant of the sensitivity set and scores the degraded
side lower on the stated dimensions, the unchanged side exactly as in its
reference; the random judge draws every score uniformly.
"""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.judging.blind import Orientation, render_transcript
from debatebench_eval.judging.ledger import VERDICTS
from debatebench_eval.judging.rubric import default_rubric
from debatebench_eval.validation.degradations import (
    Variant,
    build_variants,
    load_sources,
    load_spec,
)
from debatebench_eval.validation.planted_set import PlantedClaim, PlantedSet, load_planted_set

from support.judge_replies import MAXIMA, ledger_reply, rubric_reply, side_scores, turn_ids
from support.scripted import Script, output

_TURN_ID = re.compile(r"^\[(t[0-9a-f]{8})\] ", re.MULTILINE)


@cache
def planted_set() -> PlantedSet:
    return load_planted_set()


@cache
def claims_by_turn() -> dict[str, list[PlantedClaim]]:
    out: dict[str, list[PlantedClaim]] = {}
    for claims in planted_set().claims.values():
        for claim in claims:
            out.setdefault(claim.turn, []).append(claim)
    return out


def _quote(claim: PlantedClaim, evidence: str) -> str:
    record = planted_set().records[claim.debate]
    texts = {t.id: t.text for t in record.turns} | {p.id: p.text for p in record.passages}
    return " ".join(texts[evidence].split()[:8])


def fact_check_reply(prompt: str, verdict_of: Any, cite: bool = True) -> str:
    """The planted claims of the prompt's turns, each with `verdict_of(claim)`, citing
    the deciding ids (when `cite`) of each claim it decides as planted."""
    claims = []
    for turn in _TURN_ID.findall(prompt):
        for claim in claims_by_turn().get(turn, []):
            verdict = verdict_of(claim)
            cites = (
                [{"id": e, "quote": _quote(claim, e)} for e in claim.evidence]
                if cite and verdict == claim.verdict and verdict in ("supported", "contradicted")
                else []
            )
            claims.append(
                {
                    "turn": turn,
                    "claim": claim.text,
                    "verdict": verdict,
                    "citations": cites,
                    "reason": "As planted.",
                }
            )
    return ledger_reply(claims, turn_ids(prompt))


# ------------------------------------------------------------------ rubric judges

REFERENCE_SHARE = 0.7
DROP_SHARE = 0.3  # how far a degraded dimension falls, as a share of its maximum
_TRANSCRIPT = re.compile(r"## Transcript[^\n]*\n(.*?)\n\n## How to score", re.DOTALL)


@cache
def variants_by_view() -> dict[str, tuple[Variant, Orientation]]:
    """Each debate of the sensitivity set as the judge sees it, under either orientation."""
    spec = load_spec(dimensions=default_rubric().names)
    variants, _ = build_variants(load_sources(), spec)
    out = {}
    for variant in variants:
        for orientation in (Orientation("pro", "con"), Orientation("con", "pro")):
            out[render_transcript(variant.record, orientation)] = (variant, orientation)
    return out


def oracle_scores(variant: Variant) -> dict[str, dict[str, int]]:
    """Both sides at the reference share; the degraded side's stated dimensions lower."""
    scores = {side: side_scores(REFERENCE_SHARE) for side in ("pro", "con")}
    for name in variant.must_fall:
        top = MAXIMA[name]
        scores[str(variant.side)][name] -= max(1, round(top * DROP_SHARE))
    return scores


def _view(prompt: str) -> tuple[Variant, Orientation]:
    found = _TRANSCRIPT.search(prompt)
    assert found, "not a rubric prompt"
    return variants_by_view()[found.group(1)]


def oracle_reply(system: str, prompt: str) -> str:
    """What the oracle judge answers to a fact-check or a rubric prompt."""
    if "fact-checker" in system:
        return fact_check_reply(prompt, lambda claim: claim.verdict)
    variant, orientation = _view(prompt)
    scores = oracle_scores(variant)
    return rubric_reply(scores[orientation.a], scores[orientation.b])


def random_reply(system: str, prompt: str, seed: int = 0) -> str:
    """What the random judge answers: uniform verdicts, uniform scores, no citations."""
    if "fact-checker" in system:

        def verdict(claim: PlantedClaim) -> str:
            return random.Random(f"{seed}:{claim.claim_id}").choice(VERDICTS)

        return fact_check_reply(prompt, verdict, cite=False)
    variant, orientation = _view(prompt)
    rng = random.Random(f"{seed}:{variant.sample_id}:{orientation.a}")
    a, b = ({name: rng.randint(0, top) for name, top in MAXIMA.items()} for _ in "AB")
    return rubric_reply(a, b)


def oracle_judge() -> Script:
    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        return output("oracle", oracle_reply(str(messages[0].content), str(messages[1].content)))

    return Script("oracle", reply)


def random_judge(seed: int = 0) -> Script:
    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        text = random_reply(str(messages[0].content), str(messages[1].content), seed)
        return output("random", text)

    return Script("random", reply)


def stub_oracle(messages: list[dict[str, Any]]) -> str:
    """The oracle behind the loopback stub server (StubBehaviour.respond)."""
    return oracle_reply(str(messages[0]["content"]), str(messages[1]["content"]))
