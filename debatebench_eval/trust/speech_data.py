"""The 631 human-rated opening speeches of Debatable Intelligence (arXiv 2506.05062).

The vendored copy (validation/data.csv) is checked against its sha256 at load,
so a judge is never validated against silently different data. `-T data=PATH`
reads another local copy (reported by its own hash); `-T data=hf` reads the
Hugging Face copy, only when asked, after one quick reachability probe so an
offline machine gets one clear message instead of a long retry loop.

The CSV has CRLF line ends and newlines inside quoted fields, so it is read
with the csv module, never split on lines; ratings and annotator ids are
Python list literals of 15 ints.
"""

from __future__ import annotations

import ast
import csv
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.resources import data_file

VENDORED_SHA256 = "032f5d1ba681bb0980db7812c8d8d062c6de9ed01365518dbcb79e86b070d28f"
HF_DATASET = "noystl/speech-quality-dataset"
HF_PROBE_URL = f"https://huggingface.co/api/datasets/{HF_DATASET}"
HF_PROBE_TIMEOUT_S = 5.0
COLUMNS = ("id", "topic_id", "topic", "source", "text", "goodopeningspeech", "labeler_ids")
RATINGS_PER_SPEECH = 15


@dataclass(frozen=True)
class Speech:
    id: str
    topic_id: int
    topic: str
    source: str
    text: str
    ratings: tuple[int, ...]
    labelers: tuple[int, ...]

    @property
    def human_mean(self) -> float:
        """The paper's gold value: the plain mean of the 15 ratings, unrounded."""
        return sum(self.ratings) / len(self.ratings)


@dataclass(frozen=True)
class SpeechData:
    speeches: tuple[Speech, ...]
    origin: str
    sha256: str | None


def load_speeches(data: str | None = None) -> SpeechData:
    """`None` for the vendored copy, `hf` for the hub copy, else a path to a CSV."""
    if data is None:
        path = data_file("validation", "data.csv")
        digest = _sha256(path)
        if digest != VENDORED_SHA256:
            raise ConfigError(
                str(path), f"sha256 is {digest}", f"{VENDORED_SHA256} (reinstall the package)"
            )
        return SpeechData(read_csv(path), "vendored validation/data.csv", digest)
    if data == "hf":
        return SpeechData(_read_hub(), f"huggingface:{HF_DATASET}", None)
    path = Path(data).expanduser()
    if not path.is_file():
        raise ConfigError("-T data", f"{path} is not a file", "a CSV of the dataset, or hf")
    return SpeechData(read_csv(path), str(path), _sha256(path))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_csv(path: Path) -> tuple[Speech, ...]:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ConfigError(str(path), f"no column {missing[0]}", f"columns {', '.join(COLUMNS)}")
        # The header is line 1; a row's number is the reader's line count at its end.
        return _checked(speech_from_row(row, f"{path}: row {i}") for i, row in enumerate(reader, 2))


def _checked(speeches: Iterable[Speech]) -> tuple[Speech, ...]:
    out = tuple(speeches)
    ids = [s.id for s in out]
    duplicate = next((i for i in ids if ids.count(i) > 1), None)
    if duplicate is not None:
        raise ConfigError("speech data", f"id {duplicate} appears twice", "unique speech ids")
    if not out:
        raise ConfigError("speech data", "no rows", "the dataset's speeches")
    return out


def speech_from_row(row: Mapping[str, Any], where: str) -> Speech:
    """One row, strictly: every field present and of its type, 15 ratings of 1-5."""
    for column in COLUMNS:
        if row.get(column) in (None, ""):
            raise ConfigError(f"{where}: {column}", "empty", "a value")
    ratings = _int_list(row["goodopeningspeech"], f"{where}: goodopeningspeech")
    labelers = _int_list(row["labeler_ids"], f"{where}: labeler_ids")
    if any(not 1 <= r <= 5 for r in ratings):
        raise ConfigError(f"{where}: goodopeningspeech", f"got {ratings}", "ratings from 1 to 5")
    try:
        topic_id = int(row["topic_id"])
    except (TypeError, ValueError):
        raise ConfigError(f"{where}: topic_id", f"got {row['topic_id']!r}", "an integer") from None
    return Speech(
        id=str(row["id"]),
        topic_id=topic_id,
        topic=str(row["topic"]),
        source=str(row["source"]),
        text=str(row["text"]),
        ratings=ratings,
        labelers=labelers,
    )


def _int_list(value: Any, where: str) -> tuple[int, ...]:
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            raise ConfigError(
                where, f"got {value[:40]!r}", "a list literal of 15 integers"
            ) from None
    if (
        not isinstance(value, list | tuple)
        or len(value) != RATINGS_PER_SPEECH
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ConfigError(
            where, f"got {str(value)[:60]}", f"a list of {RATINGS_PER_SPEECH} integers"
        )
    return tuple(value)


def probe_hub(client: httpx.Client | None = None) -> None:
    """One request with a short timeout; raise a ConfigError naming the URL if it fails."""
    try:
        with client or httpx.Client(timeout=HF_PROBE_TIMEOUT_S) as http:
            http.head(HF_PROBE_URL, follow_redirects=True)
    except httpx.HTTPError as exc:
        raise ConfigError(
            "-T data=hf",
            f"the Hugging Face hub ({HF_PROBE_URL}) did not answer ({type(exc).__name__})",
            "a network connection, or the vendored copy (leave -T data unset)",
        ) from None


def _read_hub() -> tuple[Speech, ...]:
    probe_hub()
    from datasets import load_dataset

    rows = load_dataset(HF_DATASET, split="train")
    return _checked(speech_from_row(row, f"{HF_DATASET}: row {i}") for i, row in enumerate(rows, 1))
