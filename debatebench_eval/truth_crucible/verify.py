"""Cite-or-lose: every evidence item is checked against the lines it cites.

An item names a corpus file, a line range and an excerpt. The file must be a
corpus file (by its path under the corpus root), the range must exist and be
at most MAX_CITED_LINES long (a fuzzy match against a whole file proves
nothing), and the excerpt must be found in the cited lines by the fact-check's
own quote check (`judging.ledger.check_quote`: case, whitespace and
punctuation normalised, Chinese scripts folded, a partial-ratio match of at
least 85, at least three words, no added negation). When it is not there, the
whole file is searched so the reason says where the quote really is. A claim
is verified when at least one of its items is; the reasons are kept verbatim.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz

from debatebench_eval.judging.ledger import QUOTE_THRESHOLD, check_quote, normalise
from debatebench_eval.truth_crucible.corpus import Corpus
from debatebench_eval.truth_crucible.record import EvidenceCheck

MAX_CITED_LINES = 20


@dataclass(frozen=True)
class Evidence:
    """One evidence item as the side filed it (checked for shape, not yet for truth)."""

    file: str
    line_start: int
    line_end: int
    excerpt: str


def corpus_path(cited: str) -> str:
    """A cited path in the corpus's form: "/" separators, no leading "./"."""
    path = cited.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def verify(item: Evidence, corpus: Corpus) -> EvidenceCheck:
    path = corpus_path(item.file)
    problem, found_at, match = _range_problem(item, path, corpus), None, None
    lines: list[str] = []
    if problem is None:
        lines = corpus.lines(path, item.line_start, item.line_end)
        score, why = check_quote(item.excerpt, "\n".join(lines))
        match = round(score, 1)
        if why is not None:
            problem = why.format(kind="line range")
            found_at = locate(item.excerpt, corpus.files[path].lines)
            if found_at is not None:
                problem += f"; the quote is at lines {found_at[0]}-{found_at[1]}"
    known = corpus.files.get(path)
    return EvidenceCheck(
        file=path,
        line_start=item.line_start,
        line_end=item.line_end,
        excerpt=item.excerpt,
        verified=problem is None,
        match=match,
        problem=problem,
        found_at=f"{found_at[0]}-{found_at[1]}" if found_at else None,
        cls=known.cls if known else None,
        kind=known.kind if known else None,
        lines=lines,
    )


def _range_problem(item: Evidence, path: str, corpus: Corpus) -> str | None:
    if path not in corpus.files:
        return f"{item.file!r} is not a corpus file" + _hint(path, corpus)
    count = len(corpus.files[path].lines)
    start, end = item.line_start, item.line_end
    if start < 1:
        return f"line_start {start}: lines are numbered from 1"
    if end < start:
        return f"line_end {end} is before line_start {start}"
    if end > count:
        return f"lines {start}-{end} but the file has {count} lines"
    if end - start + 1 > MAX_CITED_LINES:
        return (
            f"lines {start}-{end} are {end - start + 1} lines; at most {MAX_CITED_LINES} may be "
            "cited for one excerpt"
        )
    return None


def _hint(path: str, corpus: Corpus) -> str:
    name = path.rsplit("/", 1)[-1]
    same = [p for p in corpus.files if p.rsplit("/", 1)[-1] == name]
    return f" (cite it by its corpus path: {', '.join(same)})" if same else ""


def locate(excerpt: str, lines: tuple[str, ...]) -> tuple[int, int] | None:
    """Where in the file the excerpt is (first and last line), if anywhere.

    The file's lines are normalised one by one and joined, so one alignment
    over the whole file finds the stretch, which maps back to line numbers;
    the stretch is then confirmed by the same quote check as a citation.
    """
    quote = normalise(excerpt)
    offsets, parts, position = [], [], 0
    for number, line in enumerate(lines, 1):
        text = normalise(line)
        if text:
            offsets.append((position, position + len(text), number))
            parts.append(text)
            position += len(text) + 1
    whole = " ".join(parts)
    if not quote or len(quote) > len(whole):
        return None
    aligned = fuzz.partial_ratio_alignment(quote, whole)
    if aligned is None or aligned.score < QUOTE_THRESHOLD:
        return None
    hit = [n for a, b, n in offsets if a < aligned.dest_end and b > aligned.dest_start]
    if not hit:
        return None
    first, last = hit[0], hit[-1]
    ok = check_quote(excerpt, "\n".join(lines[first - 1 : last]))[1] is None
    return (first, last) if ok else None
