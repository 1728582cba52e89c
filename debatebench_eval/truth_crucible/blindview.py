"""What a crucible judge sees: claims under opaque labels, sides as Side A / Side B.

Each reading draws its own orientation (`judging.blind.blind_orientation`) and
its own order of the claims from its seed, so position and order carry no
side. Claim ids (C-PRO-01), model names and "PRO"/"CON" in any text a side
wrote are replaced by the claim's label, `[withheld]` and the side's blind
label (`judging.blind.mask`); corpus files appear as "source N" (numbered by
path across the whole corpus, so the class folders, whose names would tell
the direction, are never shown). The judge is told which position each side
argues: claims are meaningless otherwise. So blinding removes label, identity
and order cues, not stance. What a judge writes is read back through `reveal`
(its labels put back), so the record, the viewer and the report speak of PRO,
CON and claim ids, and a later judge sees it blinded again in its own view.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass

from debatebench_eval.judging.blind import Orientation, blind_orientation, mask
from debatebench_eval.judging.explain import relabel
from debatebench_eval.truth_crucible.record import Claim, CrucibleRecord, EvidenceCheck

_MIN_TERM = 3
_CLAIM_ID = re.compile(r"\bC-(?:PRO|CON)-\d{2}\b")
_CLAIM_LABEL = re.compile(r"\bK\d+\b")


def reading_seed(seed: int, reading: int, purpose: str = "judge") -> int:
    """Each reading's own seed (its anonymisation and its calls), from the sample's."""
    digest = hashlib.sha256(f"{seed}:{purpose}:{reading}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 2**31


@dataclass(frozen=True)
class BlindView:
    orientation: Orientation
    labels: dict[str, str]  # claim id -> K1 ...
    sources: dict[str, str]  # corpus path -> "source N"
    terms: list[tuple[str, bool]]

    @classmethod
    def draw(cls, record: CrucibleRecord, seed: int, only: list[str] | None = None) -> BlindView:
        """The view for one seed: an orientation and a shuffled order of the verified
        claims (or of `only` these)."""
        assert record.run is not None
        claims = [c.id for c in record.verified() if only is None or c.id in only]
        random.Random(f"claims:{seed}").shuffle(claims)
        paths = sorted(row["path"] for row in record.run.manifest)
        return cls(
            orientation=blind_orientation(seed),
            labels={claim: f"K{i}" for i, claim in enumerate(claims, 1)},
            sources={path: f"source {i}" for i, path in enumerate(paths, 1)},
            terms=_terms(record),
        )

    def label_of(self, claim_id: str) -> str:
        return self.labels[claim_id]

    def claim_of(self, label: str) -> str | None:
        return next((c for c, lab in self.labels.items() if lab == label), None)

    def side(self, side: str) -> str:
        return f"Side {self.orientation.label(side)}"

    def text(self, text: str) -> str:
        """A side's words with claim ids, file paths, model names and side labels hidden."""
        text = _CLAIM_ID.sub(lambda m: self.labels.get(m.group(0), "[a struck-out claim]"), text)
        for path in sorted(self.sources, key=len, reverse=True):
            text = text.replace(path, self.sources[path])
        return mask(text, self.terms, self.orientation)

    def reveal(self, text: str) -> str:
        """A judge's words with this view's labels put back: K3 becomes its claim id and
        "Side A" its side (`judging.explain.relabel`, as for the debate judge)."""
        text = _CLAIM_LABEL.sub(lambda m: self.claim_of(m.group(0)) or m.group(0), text)
        return relabel(text, self.orientation.as_dict())

    def side_lines(self, record: CrucibleRecord) -> tuple[str, str]:
        assert record.run is not None
        positions = {"pro": record.run.pro_position, "con": record.run.con_position}
        a, b = self.orientation.a, self.orientation.b
        return f"Side A argues: {positions[a]}", f"Side B argues: {positions[b]}"

    def ordered(self, record: CrucibleRecord) -> list[Claim]:
        """The verified claims in this view's order."""
        by_label = {self.labels[c.id]: c for c in record.verified() if c.id in self.labels}
        return [by_label[f"K{i}"] for i in range(1, len(by_label) + 1)]

    def evidence(self, item: EvidenceCheck, with_lines: bool) -> str:
        note = " (an analysis note)" if item.kind == "analysis" else ""
        head = (
            f"[{self.sources[item.file]}{note}, lines {item.line_start}-{item.line_end}] "
            f'"{self.text(item.excerpt)}"'
        )
        if not with_lines:
            return head
        numbered = "\n".join(
            f"      {item.line_start + i}| {self.text(t)}" for i, t in enumerate(item.lines)
        )
        return f"{head}\n{numbered}"

    def claim_block(self, claim: Claim, with_lines: bool) -> str:
        held = [e for e in claim.evidence if e.verified]
        evidence = "\n".join("    " + self.evidence(e, with_lines) for e in held)
        return (
            f"[{self.labels[claim.id]}] {self.side(claim.side)}: {self.text(claim.claim)}\n"
            f"  logic: {' -> '.join(self.text(step) for step in claim.logic_chain)}\n"
            f"  vulnerability (stated by its own side): {self.text(claim.vulnerability)}\n"
            f"  confidence (its side's): {claim.confidence:g}\n"
            f"  evidence:\n{evidence}"
        )


def _terms(record: CrucibleRecord) -> list[tuple[str, bool]]:
    """Model names that must not reach a judge (matched without case)."""
    assert record.run is not None
    names: set[str] = set()
    for role in ("pro", "con"):
        model = str(record.run.models.get(role, {}).get("model", ""))
        names.update({model, model.rsplit("/", 1)[-1]})
    kept = [(n, False) for n in names if len(n) >= _MIN_TERM]
    return sorted(kept, key=lambda item: len(item[0]), reverse=True)
