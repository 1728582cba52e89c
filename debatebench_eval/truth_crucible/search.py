"""A side's corpus search: its queries in, each class's best windows out, with line numbers.

The harness searches; the side only chooses queries. Each class is searched
separately with every query, and the rankings are merged round-robin (first
hits of every query, then second hits, ...) up to `hits` windows per class, so
each query contributes. Windows of one file that touch or overlap are shown as
one passage, every line under its number, so a side can cite exact ranges.
"""

from __future__ import annotations

from debatebench_eval.truth_crucible.corpus import Corpus, Window, parse_window
from debatebench_eval.truth_crucible.record import Search


def side_queries(question: str, position: str, asked: list[str]) -> list[str]:
    """The harness's own query (the question and the side's position), then the side's."""
    queries = [f"{question} {position}"]
    for query in asked:
        if query.strip() and query.strip() not in queries:
            queries.append(query.strip())
    return queries


def search(corpus: Corpus, side: str, queries: list[str], hits: int) -> Search:
    found = {cls: _merged(corpus, cls, queries, hits) for cls in corpus.classes()}
    return Search(
        side=side, queries=queries, hits={c: [w.id for w in ws] for c, ws in found.items()}
    )


def _merged(corpus: Corpus, cls: str, queries: list[str], hits: int) -> list[Window]:
    rankings = [corpus.search(query, cls, hits) for query in queries]
    chosen: list[Window] = []
    for rank in range(hits):
        for ranking in rankings:
            if rank < len(ranking) and ranking[rank] not in chosen and len(chosen) < hits:
                chosen.append(ranking[rank])
    return chosen


def render(corpus: Corpus, result: Search) -> str:
    """The hits as the side reads them: per class, per file, numbered lines."""
    blocks = []
    for cls, ids in result.hits.items():
        spans = _spans([parse_window(i) for i in ids])
        passages = [_passage(corpus, cls, w) for w in spans]
        folder = corpus.topic.classes[cls]
        body = "\n\n".join(passages) if passages else "(no matching passage)"
        blocks.append(f"## Class {cls} (folder {folder}/)\n\n{body}")
    return "\n\n".join(blocks)


def _spans(found: list[Window]) -> list[Window]:
    """Windows of one file that touch or overlap, merged; files and lines in order."""
    merged: list[Window] = []
    for window in sorted(found, key=lambda w: (w.file, w.start)):
        last = merged[-1] if merged else None
        if last is not None and last.file == window.file and window.start <= last.end + 1:
            merged[-1] = Window(last.file, last.start, max(last.end, window.end))
        else:
            merged.append(window)
    return merged


def _passage(corpus: Corpus, cls: str, window: Window) -> str:
    kind = corpus.files[window.file].kind
    heading = f"[{window.file}, lines {window.start}-{window.end}] (class {cls}, {kind})"
    lines = corpus.lines(window.file, window.start, window.end)
    numbered = [f"{window.start + i:>5}| {line}" for i, line in enumerate(lines)]
    return heading + "\n" + "\n".join(numbered)
