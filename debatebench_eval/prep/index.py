"""Evidence pools and BM25 retrieval: deterministic, no model calls, built once per file.

A pool is JSONL, one row per line: `{"id", "topic", "source", "text"}` and,
in a shared pool, `"side"` ("pro" or "con"). Real pools describe topics in
their own words ("federal carbon tax and universal rebate"), so, as in
debatebench, a row is a candidate for a motion when its topic shares a word
with the motion's topic (stopwords aside); `match="exact"` instead keeps only
rows whose topic equals the motion's (without case or extra spaces).
Candidates (of the side, in a shared pool) are ranked by BM25 (bm25s's
Lucene variant, k1 1.5, b 0.75) against the motion text and topic words, with
each row's topic words counted TOPIC_WEIGHT times beside its text: a field
boost by repetition, so a row about the motion's topic outranks one that only
mentions its words. Ties go to the row that comes first in the file.

The index is built in one streamed pass: rows are checked and tokenised, and
each chunk of rows becomes postings (term, row, count) at once, so no token
list outlives its chunk; the BM25 weights are then computed over whole arrays
and handed to bm25s, which stores, memory-maps and queries them. The index is
cached on disk under the sha256 of the pool file, so a changed file is
re-indexed and an unchanged one is loaded; row text stays in the pool file and
only the rows returned are read back, by byte offset.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from array import array
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, BinaryIO

import bm25s
import numpy as np
import platformdirs
from scipy import sparse  # type: ignore[import-untyped]

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.text import fold_chinese, han_bigrams

CACHE_VAR = "DEBATEBENCH_EVAL_CACHE"
INDEX_VERSION = 2
TOP_K = 10
SHARED_KEYS = frozenset({"id", "topic", "side", "source", "text"})
CORPUS_KEYS = frozenset({"id", "topic", "source", "text"})
SIDE_CODES = {"pro": 1, "con": 2}
# How many times a row's topic words count beside its text (a heading weighs
# more than the words under it).
TOPIC_WEIGHT = 3
_TOKEN = re.compile(r"[a-z0-9]+")
# bm25s's English stopword list: function words carry no evidence.
_STOPWORDS = frozenset(bm25s.stopwords.STOPWORDS_EN)
# How text becomes terms. `latin`: the words above (debate pools). `cjk-fold`:
# the same, after folding Traditional Chinese to Simplified, plus Han character
# bigrams, so a query in either script finds text in either (the crucible).
LATIN, CJK_FOLD = "latin", "cjk-fold"
ANALYZERS = (LATIN, CJK_FOLD)


@dataclass(frozen=True)
class PoolRow:
    id: str
    topic: str
    side: str | None
    source: str
    text: str


def normal_topic(topic: str) -> str:
    return " ".join(topic.casefold().split())


def tokens(text: str, analyzer: str = LATIN) -> list[str]:
    if analyzer == CJK_FOLD:
        text = fold_chinese(text)
    words = [t for t in _TOKEN.findall(text.casefold()) if t not in _STOPWORDS]
    return words + han_bigrams(text) if analyzer == CJK_FOLD else words


def document_tokens(topic: str, text: str, analyzer: str = LATIN) -> list[str]:
    """What BM25 indexes of a row: its text, and its topic words TOPIC_WEIGHT times."""
    return tokens(text, analyzer) + tokens(topic, analyzer) * TOPIC_WEIGHT


def query_tokens(query: str, topic: str, analyzer: str = LATIN) -> list[str]:
    """The motion's words and its topic's, each once."""
    return list(dict.fromkeys(tokens(query, analyzer) + tokens(topic, analyzer)))


def check_row(line: bytes, where: str, shared: bool) -> dict[str, Any]:
    """One pool line, strictly; a ConfigError naming file and line otherwise."""
    try:
        row = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(where, f"not valid JSON ({exc})", "one JSON object per line") from None
    keys = SHARED_KEYS if shared else CORPUS_KEYS
    kind = "shared pool row" if shared else "team corpus row (no side: it is the team's own)"
    if not isinstance(row, dict) or set(row) != keys:
        found = sorted(row) if isinstance(row, dict) else type(row).__name__
        raise ConfigError(where, f"got {found}", f"a {kind} with exactly {sorted(keys)}")
    for key in keys:
        if not isinstance(row[key], str) or not row[key].strip():
            raise ConfigError(f"{where}: {key}", f"got {row[key]!r}", "a non-empty string")
    if shared and row["side"] not in SIDE_CODES:
        raise ConfigError(f"{where}: side", f"got {row['side']!r}", "pro or con")
    return row


CHUNK_ROWS = 20_000
K1, B = 1.5, 0.75  # bm25s's defaults


@dataclass
class _Scan:
    """What one streamed pass keeps: where each row is, its topic and side, and its
    postings, built chunk by chunk so no token list outlives its chunk. Postings
    are row-major: per row, its distinct terms (ascending) and their counts."""

    offsets: array[int] = field(default_factory=lambda: array("q"))
    topics: array[int] = field(default_factory=lambda: array("i"))
    sides: array[int] = field(default_factory=lambda: array("b"))
    lengths: list[np.ndarray] = field(default_factory=list)
    terms: list[np.ndarray] = field(default_factory=list)
    counts: list[np.ndarray] = field(default_factory=list)
    per_row: list[np.ndarray] = field(default_factory=list)
    topic_names: dict[str, int] = field(default_factory=dict)
    # Token 0 is bm25s's empty token; no real token maps to it.
    vocab: dict[str, int] = field(default_factory=lambda: {"": 0})

    def add_chunk(self, docs: list[list[int]]) -> None:
        lengths = np.fromiter(map(len, docs), dtype=np.int64, count=len(docs))
        flat = np.fromiter(chain.from_iterable(docs), dtype=np.int64, count=int(lengths.sum()))
        rows = np.repeat(np.arange(len(docs), dtype=np.int64), lengths)
        keys, counts = np.unique((rows << 32) | flat, return_counts=True)
        self.terms.append((keys & 0xFFFFFFFF).astype(np.int32))
        self.counts.append(counts.astype(np.uint16))
        self.per_row.append(np.bincount(keys >> 32, minlength=len(docs)))
        self.lengths.append(lengths)


def _scan(path: Path, shared: bool, analyzer: str = LATIN) -> _Scan:
    """One streamed pass: check each row, tokenise it, remember where it is."""
    scan, seen, chunk = _Scan(), dict[str, int](), list[list[int]]()
    offset = 0
    with path.open("rb") as handle:
        for number, line in enumerate(handle, 1):
            where = f"{path}: line {number}"
            row = check_row(line, where, shared)
            if row["id"] in seen:
                found = f"id {row['id']!r} is also on line {seen[row['id']]}"
                raise ConfigError(where, found, "unique ids within a pool")
            seen[row["id"]] = number
            scan.offsets.append(offset)
            offset += len(line)
            topic = scan.topic_names.setdefault(normal_topic(row["topic"]), len(scan.topic_names))
            scan.topics.append(topic)
            scan.sides.append(SIDE_CODES.get(row["side"], 0) if shared else 0)
            vocab = scan.vocab
            words = document_tokens(row["topic"], row["text"], analyzer)
            chunk.append([vocab.setdefault(t, len(vocab)) for t in words])
            if len(chunk) == CHUNK_ROWS:
                scan.add_chunk(chunk)
                chunk = []
    if chunk:
        scan.add_chunk(chunk)
    if not scan.offsets:
        raise ConfigError(str(path), "the pool is empty", "at least one JSONL row")
    return scan


def bm25_matrix(scan: _Scan) -> dict[str, Any]:
    """bm25s's Lucene-variant weights for every posting, as its term-major CSC arrays.

    The same numbers bm25s's own `index` computes (a test compares them), done
    with whole-array numpy operations and scipy's compiled CSR-to-CSC transpose:
    bm25s loops over documents in Python and sorts with an int64 argsort, which
    is slower and larger at scale (`tests/benchmarks/benchmark_retrieval.py
    --bm25s-build` measures both builds on one pool).
    """
    terms = _drain(scan.terms)
    weights = _drain(scan.counts).astype(np.float32)
    per_row = _drain(scan.per_row)
    lengths = _drain(scan.lengths).astype(np.float32)
    n_docs, n_vocab = len(lengths), len(scan.vocab)
    df = np.bincount(terms, minlength=n_vocab)
    idf = np.log1p((n_docs - df + 0.5) / (df + 0.5)).astype(np.float32)
    norm = K1 * ((1 - B) + B * lengths / max(float(lengths.mean()), 1e-9))
    weights /= weights + np.repeat(norm, per_row)
    weights *= idf[terms]
    row_ptr = np.zeros(n_docs + 1, dtype=np.int64)
    np.cumsum(per_row, out=row_ptr[1:])
    matrix = sparse.csr_matrix((weights, terms, row_ptr), shape=(n_docs, n_vocab), copy=False)
    del weights, terms
    csc = matrix.tocsc()
    return {"data": csc.data, "indices": csc.indices, "indptr": csc.indptr, "num_docs": n_docs}


def _drain(parts: list[np.ndarray]) -> np.ndarray:
    """Concatenate and release the chunks (so they and the whole never both stay)."""
    whole = np.concatenate(parts)
    parts.clear()
    return whole


def settings_key(analyzer: str = LATIN) -> str:
    """What else decides an index besides the file: a changed tokenizer, stopword
    list, analyzer or BM25 parameter must not reuse an index built with the old ones.
    (The latin analyzer's key is the one it had before analyzers existed.)"""
    parts: list[object] = [
        _TOKEN.pattern,
        sorted(_STOPWORDS),
        K1,
        B,
        TOPIC_WEIGHT,
        bm25s.__version__,
    ]
    if analyzer != LATIN:
        parts.append(analyzer)
    settings = json.dumps(parts)
    return hashlib.sha256(settings.encode()).hexdigest()[:12]


def cache_root() -> Path:
    override = os.environ.get(CACHE_VAR)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_cache_dir("debatebench-eval")) / "index"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class PoolIndex:
    """A pool's BM25 index and row table, built once and cached by the file's content hash."""

    def __init__(self, path: Path, folder: Path, bm25: bm25s.BM25, table: dict[str, Any]):
        self.path, self.folder, self.bm25 = path, folder, bm25
        self.offsets: np.ndarray = table["offsets"]
        self.topics: np.ndarray = table["topics"]
        self.sides: np.ndarray = table["sides"]
        self.topic_ids: dict[str, int] = table["topic_ids"]
        self.shared: bool = table["shared"]
        self.topic_words = _topics_by_word(self.topic_ids)
        self.analyzer: str = table["analyzer"]

    @classmethod
    def open(cls, path: Path, shared: bool, analyzer: str = LATIN) -> PoolIndex:
        """Load the cached index for this file's content, building it first if needed."""
        if not path.is_file():
            raise ConfigError(str(path), "pool file not found", "a JSONL pool on disk")
        kind = "shared" if shared else "corpus"
        key = settings_key(analyzer)
        folder = cache_root() / f"v{INDEX_VERSION}-{key}-{kind}-{file_sha256(path)}"
        if not (folder / "table.json").is_file():
            build_index(path, shared, folder, analyzer)
        return cls._load(path, folder)

    @classmethod
    def _load(cls, path: Path, folder: Path) -> PoolIndex:
        meta = json.loads((folder / "table.json").read_text(encoding="utf-8"))
        table = {
            name: np.load(folder / f"{name}.npy", mmap_mode="r")
            for name in ("offsets", "topics", "sides")
        }
        table.update(
            topic_ids=meta["topic_ids"],
            shared=meta["shared"],
            analyzer=meta.get("analyzer", LATIN),  # indexes built before analyzers: latin
        )
        bm25 = bm25s.BM25.load(str(folder / "bm25"), mmap=True, show_progress=False)
        return cls(path, folder, bm25, table)

    def search(
        self, query: str, topic: str, side: str | None, k: int = TOP_K, match: str = "words"
    ) -> list[PoolRow]:
        """The top `k` candidates (see the module), best BM25 score first, file order on ties."""
        candidates = self._candidates(topic, side, match)
        if candidates.size == 0:
            return []
        words = query_tokens(query, topic, self.analyzer)
        # A motion of stopwords or non-Latin script has no query terms: file order.
        scores = self.bm25.get_scores(words)[candidates] if words else np.zeros(candidates.size)
        # lexsort sorts by its last key first: score descending, then row order.
        order = np.lexsort((candidates, -scores))[:k]
        with self.path.open("rb") as handle:  # one open for all k rows
            return [self._row(handle, int(candidates[i])) for i in order]

    def _candidates(self, topic: str, side: str | None, match: str) -> np.ndarray:
        """Rows whose topic shares a word with `topic` (or equals it), of `side` when shared."""
        if match == "exact":
            topic_id = self.topic_ids.get(normal_topic(topic))
            topic_list = np.array([] if topic_id is None else [topic_id], dtype=np.int32)
        else:
            found = [self.topic_words[w] for w in tokens(topic) if w in self.topic_words]
            topic_list = np.unique(np.concatenate(found)) if found else np.array([], np.int32)
        if topic_list.size == 0:
            return topic_list
        mask = np.isin(self.topics, topic_list)
        if self.shared and side is not None:
            mask &= self.sides == SIDE_CODES[side]
        return np.flatnonzero(mask)

    def _row(self, handle: BinaryIO, index: int) -> PoolRow:
        handle.seek(int(self.offsets[index]))
        row = json.loads(handle.readline())
        return PoolRow(row["id"], row["topic"], row.get("side"), row["source"], row["text"])


def _topics_by_word(topic_ids: dict[str, int]) -> dict[str, np.ndarray]:
    """Each topic word, with the ids of the topics that hold it."""
    holders: dict[str, list[int]] = {}
    for name, topic_id in topic_ids.items():
        for word in set(tokens(name)):
            holders.setdefault(word, []).append(topic_id)
    return {word: np.array(ids, dtype=np.int32) for word, ids in holders.items()}


def build_index(path: Path, shared: bool, folder: Path, analyzer: str = LATIN) -> None:
    """Scan, index and save; written to a temporary folder first so a crash leaves no half index."""
    scan = _scan(path, shared, analyzer)
    bm25 = bm25s.BM25(k1=K1, b=B)
    bm25.scores = bm25_matrix(scan)
    bm25.vocab_dict = scan.vocab
    bm25.nonoccurrence_array = None  # only the BM25L / BM25+ variants use one
    partial = folder.with_name(folder.name + f".partial-{os.getpid()}")
    partial.mkdir(parents=True, exist_ok=True)
    bm25.save(str(partial / "bm25"), show_progress=False)
    np.save(partial / "offsets.npy", np.frombuffer(scan.offsets, dtype=np.int64))
    np.save(partial / "topics.npy", np.frombuffer(scan.topics, dtype=np.int32))
    np.save(partial / "sides.npy", np.frombuffer(scan.sides, dtype=np.int8))
    table = {"topic_ids": scan.topic_names, "shared": shared, "rows": len(scan.offsets),
             "pool": str(path), "version": INDEX_VERSION, "analyzer": analyzer}  # fmt: skip
    (partial / "table.json").write_text(json.dumps(table), encoding="utf-8")
    if folder.exists():  # another process finished first; its index is the same
        shutil.rmtree(partial)
        return
    partial.rename(folder)
