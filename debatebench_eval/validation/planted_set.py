"""The fact-check validation set: short debates whose every claim was planted with a known verdict.

The set is a folder: `transcripts/` (debatebench transcripts, read by the same
reader as the `judge` task) and `claims.jsonl`, the answer key, one planted
claim per line. Everything is checked when the set is loaded, so a bad row
stops the run before any judge call with one message naming the file, the
row and the field. validation/fact_check/README.md says how the bundled set
was written.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.interop.transcript_file import read_transcript
from debatebench_eval.judging.ledger import VERDICTS
from debatebench_eval.record.protocol import SIDES
from debatebench_eval.record.store import DebateRecord
from debatebench_eval.trust.digests import KEY_FILE, TRANSCRIPTS, bundled_set_dir, set_sha256

# Each kind of planted claim, and the verdict it has by construction.
KINDS = {
    "passage_exact": "supported",
    "passage_paraphrase": "supported",
    "turn_exact": "supported",
    "turn_paraphrase": "supported",
    "passage_contradiction": "contradicted",
    "turn_never_mentioned": "contradicted",
    "turn_misreported": "contradicted",
    "invented_figure": "unsupported",
    "invented_study": "unsupported",
    "value_judgement": "not_checkable",
    "prediction": "not_checkable",
}
# Verdicts that rest on something in the record, so their evidence is named.
DECIDED = ("supported", "contradicted")
TURN_REF = "turn:"
_FIELDS = (
    "claim_id",
    "debate",
    "phase_index",
    "side",
    "position",
    "verdict",
    "kind",
    "text",
    "evidence",
)


@dataclass(frozen=True)
class PlantedClaim:
    """One planted claim: where it was said, its verdict, and the ids that decide it
    (turn ids as the judge sees them, or passage ids)."""

    claim_id: str
    debate: str
    turn: str
    side: str
    position: str
    verdict: str
    kind: str
    text: str
    evidence: tuple[str, ...]

    def as_metadata(self) -> dict[str, Any]:
        return {**self.__dict__, "evidence": list(self.evidence)}


@dataclass(frozen=True)
class PlantedSet:
    """The checked set: each debate's record and its planted claims, by debate id."""

    origin: str
    records: dict[str, DebateRecord]
    claims: dict[str, tuple[PlantedClaim, ...]]
    sha256: str


def load_planted_set(folder: Path | None = None) -> PlantedSet:
    """The bundled set (None) or another folder of the same shape, fully checked."""
    folder = folder or bundled_set_dir()
    if not folder.is_dir():
        raise ConfigError("-T data", f"{folder} is not a folder", f"a folder with {KEY_FILE}")
    files = sorted((folder / TRANSCRIPTS).glob("*.json"))
    if not files:
        where = str(folder / TRANSCRIPTS)
        raise ConfigError(where, "no transcript (*.json) found", "the set's debate transcripts")
    records = {path.stem: read_transcript(path) for path in files}
    key = folder / KEY_FILE
    if not key.is_file():
        raise ConfigError(str(key), "file not found", "the answer key, one claim per line")
    claims = _read_key(key, records)
    missing = sorted(set(records) - set(claims))
    if missing:
        raise ConfigError(str(key), f"no claim for debate {missing[0]}", "claims for every debate")
    return PlantedSet(str(folder), records, claims, set_sha256(key, files))


def _read_key(path: Path, records: dict[str, DebateRecord]) -> dict[str, tuple[PlantedClaim, ...]]:
    by_debate: dict[str, list[PlantedClaim]] = defaultdict(list)
    seen: set[str] = set()
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}: row {number}"
        claim = _claim(_row(line, where), where, records)
        if claim.claim_id in seen:
            raise ConfigError(
                f"{where}: claim_id", f"{claim.claim_id!r} appears twice", "unique ids"
            )
        seen.add(claim.claim_id)
        by_debate[claim.debate].append(claim)
    return {debate: tuple(claims) for debate, claims in by_debate.items()}


def _row(line: str, where: str) -> dict[str, Any]:
    try:
        row = json.loads(line)
    except ValueError as exc:
        raise ConfigError(where, f"is not JSON ({exc})", "one JSON object per line") from None
    if not isinstance(row, dict):
        raise ConfigError(where, f"is a JSON {type(row).__name__}", "a JSON object")
    for name in _FIELDS:
        if name not in row:
            raise ConfigError(
                f"{where}: {name}", "the field is missing", f"fields {', '.join(_FIELDS)}"
            )
    return row


def _claim(row: dict[str, Any], where: str, records: dict[str, DebateRecord]) -> PlantedClaim:
    for name in ("claim_id", "debate", "side", "position", "verdict", "kind", "text"):
        if not isinstance(row[name], str) or not row[name].strip():
            raise ConfigError(f"{where}: {name}", f"got {row[name]!r}", "a non-empty string")
    record = records.get(row["debate"])
    if record is None:
        raise ConfigError(
            f"{where}: debate",
            f"{row['debate']!r} has no transcript",
            "the stem of a transcript file",
        )
    turn = _turn(row, where, record)
    verdict, kind = row["verdict"], row["kind"]
    if verdict not in VERDICTS:
        raise ConfigError(f"{where}: verdict", f"got {verdict!r}", f"one of {', '.join(VERDICTS)}")
    if KINDS.get(kind) != verdict:
        kinds = [k for k, v in KINDS.items() if v == verdict]
        raise ConfigError(f"{where}: kind", f"got {kind!r}", f"for {verdict}: {', '.join(kinds)}")
    if row["text"] not in turn.text:
        raise ConfigError(
            f"{where}: text",
            "is not in the text of the turn it names",
            "the claim as the turn says it",
        )
    evidence = _evidence(row["evidence"], where, record, turn.id, verdict)
    return PlantedClaim(
        row["claim_id"],
        row["debate"],
        turn.id,
        turn.side,
        row["position"],
        verdict,
        kind,
        row["text"],
        evidence,
    )


def _turn(row: dict[str, Any], where: str, record: DebateRecord) -> Any:
    index, side = row["phase_index"], row["side"]
    if side not in SIDES:
        raise ConfigError(f"{where}: side", f"got {side!r}", "pro or con")
    turn = record.turn(index, side) if isinstance(index, int) else None
    if turn is None or turn.phase == "prep":
        raise ConfigError(
            f"{where}: phase_index", f"got {index!r}", f"the index of a speech of {row['debate']}"
        )
    return turn


def _evidence(
    value: Any, where: str, record: DebateRecord, own: str, verdict: str
) -> tuple[str, ...]:
    here = f"{where}: evidence"
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(here, f"got {value!r}", "a list of passage ids and turn:<phase>:<side>")
    if (verdict in DECIDED) != bool(value):
        need = "at least one id" if verdict in DECIDED else "an empty list"
        raise ConfigError(here, f"got {value!r} for a {verdict} claim", need)
    passages = {p.id for p in record.passages}
    ids = []
    for item in value:
        found = _turn_ref(item, record) if item.startswith(TURN_REF) else item
        if found is None or (found not in passages and not item.startswith(TURN_REF)):
            raise ConfigError(here, f"{item!r} names nothing in the debate", "a passage or turn")
        if found == own:
            raise ConfigError(
                here, f"{item!r} is the claim's own turn", "an earlier turn or a passage"
            )
        ids.append(found)
    return tuple(ids)


def _turn_ref(item: str, record: DebateRecord) -> str | None:
    _, phase, side = [*item.split(":"), "", ""][:3]
    turn = record.turn(int(phase), side) if phase.isdigit() else None
    return turn.id if turn is not None else None
