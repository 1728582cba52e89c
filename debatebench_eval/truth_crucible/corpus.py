"""The corpus: files split into numbered lines, line windows, and one BM25 index per class.

Lines are physical lines as an editor numbers them (1-based): the file is
decoded as UTF-8 (a byte-order mark dropped), split on "\\n", and a trailing
"\\r" is cut — `str.splitlines` would also split on form feeds and Unicode
line separators and shift every number after them.

Retrieval needs passages longer than a line (a one-line row is too short for
BM25) and shorter than a whole section, so each file is cut into **windows**:
consecutive lines of one paragraph (a blank line ends a paragraph), at most
WINDOW_LINES lines or WINDOW_CHARS characters, overlapping by two lines when a
paragraph is split; a single longer line is its own window. Each class's windows
are written as a derived JSONL pool (`{id, topic, source, text}`, the prep
index's corpus row; `id` = "folder/file.md:12-19", `topic` = the class) and
indexed by `prep.index.PoolIndex` with the `cjk-fold` analyzer, cached by content
like any pool. One pool per class keeps the class filter independent of how
retrieval matches topics.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.truth_crucible.topic import TEXT_SUFFIXES, Topic

if TYPE_CHECKING:  # retrieval loads bm25s and scipy: only when a corpus is opened
    from debatebench_eval.prep.index import PoolIndex

WINDOW_LINES = 8
WINDOW_CHARS = 1200
WINDOW_OVERLAP = 2
# Changes when the windowing or the pool rows change, so old derived pools are not reused.
CORPUS_VERSION = 1


@dataclass(frozen=True)
class CorpusFile:
    path: str  # relative to the corpus root, with "/" separators
    cls: str
    kind: str  # "source", or "analysis" for a file ending in the analysis suffix
    lines: tuple[str, ...]
    sha256: str


@dataclass(frozen=True)
class Window:
    file: str
    start: int
    end: int

    @property
    def id(self) -> str:
        return f"{self.file}:{self.start}-{self.end}"


def split_lines(data: bytes, where: str) -> list[str]:
    """A file's lines as an editor numbers them; a ConfigError if it is not UTF-8 text."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(where, f"not UTF-8 text at byte {exc.start}", "UTF-8 text") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":  # the newline ending the last line starts no new one
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def windows(path: str, lines: tuple[str, ...] | list[str]) -> list[Window]:
    """The file's line windows, paragraph by paragraph, in line order."""
    found: list[Window] = []
    number = 0
    while number < len(lines):
        if not lines[number].strip():
            number += 1
            continue
        end = number
        while end + 1 < len(lines) and lines[end + 1].strip():
            end += 1
        found += [Window(path, a + 1, b + 1) for a, b in _split(lines, number, end)]
        number = end + 1
    return found


def _split(lines: tuple[str, ...] | list[str], first: int, last: int) -> list[tuple[int, int]]:
    """One paragraph (0-based, inclusive) as windows within the line and character caps."""
    spans: list[tuple[int, int]] = []
    start = first
    while True:
        end, size = start, len(lines[start])
        while end < last and end - start + 1 < WINDOW_LINES:
            if size + len(lines[end + 1]) > WINDOW_CHARS:
                break
            end += 1
            size += len(lines[end])
        spans.append((start, end))
        if end == last:
            return spans
        start = max(end - WINDOW_OVERLAP + 1, start + 1)


class Corpus:
    """The topic's corpus files, their windows, and a BM25 index per class."""

    def __init__(self, topic: Topic, files: list[CorpusFile]) -> None:
        self.topic = topic
        self.files = {f.path: f for f in files}
        self.sha256 = _manifest_sha(files)
        self.windows = {f.path: windows(f.path, f.lines) for f in files}
        self.indexes: dict[str, PoolIndex] = {}

    def lines(self, path: str, start: int, end: int) -> list[str]:
        return list(self.files[path].lines[start - 1 : end])

    def classes(self) -> list[str]:
        return list(self.topic.classes)

    def search(self, query: str, cls: str, k: int) -> list[Window]:
        """The class's best `k` windows for the query, best first."""
        rows = self.indexes[cls].search(query, cls, None, k=k)
        return [parse_window(row.id) for row in rows]

    def manifest(self) -> list[dict[str, Any]]:
        return [
            {
                "class": f.cls,
                "path": f.path,
                "kind": f.kind,
                "lines": len(f.lines),
                "sha256": f.sha256,
            }
            for f in self.files.values()
        ]

    def summary(self) -> dict[str, dict[str, int]]:
        """Per class: files, lines and windows."""
        out: dict[str, dict[str, int]] = {}
        for f in self.files.values():
            row = out.setdefault(f.cls, {"files": 0, "lines": 0, "windows": 0})
            row["files"] += 1
            row["lines"] += len(f.lines)
            row["windows"] += len(self.windows[f.path])
        return out


def parse_window(row_id: str) -> Window:
    """The window a pool row id ("folder/file.md:12-19") names."""
    path, _, span = row_id.rpartition(":")
    start, _, end = span.partition("-")
    return Window(path, int(start), int(end))


def _manifest_sha(files: list[CorpusFile]) -> str:
    rows = [[f.cls, f.path, f.kind, f.sha256] for f in files]
    data = json.dumps([CORPUS_VERSION, WINDOW_LINES, WINDOW_CHARS, WINDOW_OVERLAP, rows])
    return hashlib.sha256(data.encode()).hexdigest()


def read_corpus(topic: Topic) -> Corpus:
    """Every class folder's .md/.txt files (sorted, hidden ones skipped), checked."""
    files: list[CorpusFile] = []
    for cls, folder in topic.classes.items():
        where = topic.where(f"corpus.classes.{cls}.dir")
        found = [_read(topic, cls, path) for path in _text_files(topic.root / folder, topic.root)]
        if not found:
            raise ConfigError(
                where, f"{folder!r} holds no .md or .txt file", "the class's documents"
            )
        files += found
    return Corpus(topic, files)


def _text_files(folder: Path, root: Path) -> list[Path]:
    paths = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.startswith(".") and name.endswith(TEXT_SUFFIXES):
                paths.append(Path(dirpath) / name)
    for path in paths:
        if not path.resolve().is_relative_to(root):
            raise ConfigError(str(path), f"links outside corpus.root ({root})", "a file inside it")
    return sorted(paths, key=lambda p: p.relative_to(root).as_posix())


def _read(topic: Topic, cls: str, path: Path) -> CorpusFile:
    data = path.read_bytes()
    lines = split_lines(data, str(path))
    if not any(line.strip() for line in lines):
        raise ConfigError(str(path), "the file has no text", "a document with at least one line")
    kind = "analysis" if path.name.endswith(topic.analysis_suffix) else "source"
    relative = path.relative_to(topic.root).as_posix()
    return CorpusFile(relative, cls, kind, tuple(lines), hashlib.sha256(data).hexdigest())


def open_corpus(topic: Topic) -> Corpus:
    """Read the corpus and open (building if new) each class's index."""
    from debatebench_eval.prep.index import CJK_FOLD, PoolIndex

    corpus = read_corpus(topic)
    for cls in topic.classes:
        pool = derived_pool(corpus, cls)
        corpus.indexes[cls] = PoolIndex.open(pool, shared=False, analyzer=CJK_FOLD)
    return corpus


def derived_pool(corpus: Corpus, cls: str) -> Path:
    """The class's windows as a JSONL pool, written once per corpus content."""
    from debatebench_eval.prep.index import cache_root

    path = cache_root() / "crucible" / f"{corpus.sha256[:16]}-{cls}.jsonl"
    if path.is_file():
        return path
    rows = []
    for f in corpus.files.values():
        if f.cls != cls:
            continue
        for window in corpus.windows[f.path]:
            text = "\n".join(corpus.lines(f.path, window.start, window.end))
            rows.append({"id": window.id, "topic": cls, "source": f.path, "text": text})
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.partial-{os.getpid()}")
    body = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    partial.write_text(body, encoding="utf-8")
    partial.replace(path)  # atomic: a reader never sees half a pool
    return path
