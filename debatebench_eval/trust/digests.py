"""The digests of the bundled judge-check sets, that a check record is stamped with.

A check record (`check_records`) says which data it measured by digest; the gate
compares it with the digest of the sets shipped now, so a record measured on other
data is not trusted. The digests read only the sets' files, so they sit here, below
both the gate that compares them and the validation tasks that build the sets.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from debatebench_eval.core.resources import data_dir

# The planted fact-check set: a key of claims beside the transcripts they are in.
KEY_FILE = "claims.jsonl"
TRANSCRIPTS = "transcripts"


def bundled_set_dir() -> Path:
    """The bundled planted fact-check set."""
    return data_dir("validation") / "fact_check"


def set_sha256(key: Path, transcripts: list[Path]) -> str:
    """One digest over the key and every transcript (name and bytes), in name order."""
    digest = hashlib.sha256(key.read_bytes())
    for path in sorted(transcripts):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@cache
def planted_sha256() -> str:
    """The digest of the bundled planted set."""
    folder = bundled_set_dir()
    return set_sha256(folder / KEY_FILE, sorted((folder / TRANSCRIPTS).glob("*.json")))


def bundled_spec_file() -> Path:
    """The bundled sensitivity set's edits."""
    return data_dir("validation") / "sensitivity" / "edits.yaml"


def bundled_sources_dir() -> Path:
    """The bundled sensitivity set's source transcripts."""
    return data_dir("validation") / "sensitivity" / "transcripts"


def sources_sha256(folder: Path | None = None) -> str:
    digest = hashlib.sha256()
    for path in sorted((folder or bundled_sources_dir()).glob("*.json")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@cache
def sensitivity_sha256() -> str:
    """One digest of the bundled sensitivity set: its source transcripts and its edits."""
    spec = hashlib.sha256(bundled_spec_file().read_bytes()).hexdigest()
    return hashlib.sha256(f"{sources_sha256()}:{spec}".encode()).hexdigest()
