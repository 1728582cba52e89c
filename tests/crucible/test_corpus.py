"""The corpus: lines as an editor numbers them, paragraph windows, per-class search."""

from __future__ import annotations

import json
import shutil
from itertools import pairwise
from pathlib import Path

from debatebench_eval.truth_crucible import corpus as corpus_module
from debatebench_eval.truth_crucible.corpus import Window, open_corpus, split_lines, windows
from debatebench_eval.truth_crucible.search import render, search, side_queries
from debatebench_eval.truth_crucible.topic import load_topic

from support.crucible_replies import FIXTURE_TOPIC


def test_lines_are_numbered_as_an_editor_numbers_them() -> None:
    data = "\ufeffone\r\ntwo\x0cstill two\r\n\r\nfour\u2028same line\n".encode()
    assert split_lines(data, "f.md") == ["one", "two\x0cstill two", "", "four\u2028same line"]
    assert split_lines(b"no newline at end", "f.md") == ["no newline at end"]
    assert split_lines(b"a\n\n", "f.md") == ["a", ""]


def test_paragraphs_become_windows_and_long_ones_overlap_by_two_lines() -> None:
    lines = ["short"] * 3 + [""] + [f"line {i}" for i in range(20)] + ["", "x" * 1500]
    found = [(w.start, w.end) for w in windows("f.md", lines)]
    assert found[0] == (1, 3)  # a paragraph within the caps is one window
    long = found[1:-1]
    assert long[0] == (5, 12) and all(b - a + 1 <= 8 for a, b in long)
    assert all(nxt[0] == prev[1] - 1 for prev, nxt in pairwise(long))
    assert long[-1][1] == 24  # the paragraph is covered to its last line
    assert found[-1] == (26, 26)  # a single line longer than the cap stands alone


def test_a_window_never_passes_the_character_cap_unless_one_line_does() -> None:
    lines = ["y" * 500] * 5
    assert [(w.start, w.end) for w in windows("f.md", lines)] == [(1, 2), (2, 3), (3, 4), (4, 5)]


def test_the_derived_pool_row_ids_name_their_lines() -> None:
    corpus = open_corpus(load_topic(FIXTURE_TOPIC))
    pool = corpus_module.derived_pool(corpus, "CON")
    rows = [json.loads(line) for line in pool.read_text("utf-8").splitlines()]
    for row in rows:
        window = corpus_module.parse_window(row["id"])
        assert row["text"] == "\n".join(corpus.lines(window.file, window.start, window.end))
        assert row["topic"] == "CON" and row["source"] == window.file
    # CRLF and a byte-order mark: the lines are clean and numbered from the first.
    assert corpus.lines("against/staff_letter.md", 1, 1) == ["# Staff letter"]
    assert corpus.lines("against/staff_letter.md", 3, 3)[0].endswith("a month.")


def test_search_is_per_class_and_shows_numbered_lines() -> None:
    corpus = open_corpus(load_topic(FIXTURE_TOPIC))
    found = search(corpus, "pro", side_queries("Sunday opening?", "Open.", ["staff overtime"]), 2)
    assert set(found.hits) == {"PRO", "CON", "CRITICAL_OF_BOTH"}
    assert all(window.startswith("against/") for window in found.hits["CON"])
    shown = render(corpus, found)
    assert "[against/staff_letter.md, lines 3-4] (class CON, source)" in shown
    assert "    4| Sunday opening would need a fifth member of staff" in shown


def test_a_simplified_chinese_query_finds_the_traditional_file() -> None:
    corpus = open_corpus(load_topic(FIXTURE_TOPIC))
    assert corpus.search("周日开放 试行", "CRITICAL_OF_BOTH", 1) == [Window("both/review.md", 3, 5)]


def test_the_corpus_is_fingerprinted_by_content(tmp_path: Path) -> None:
    first = open_corpus(load_topic(FIXTURE_TOPIC))
    assert first.summary()["CON"] == {"files": 1, "lines": 6, "windows": 3}
    copy = tmp_path / "copy"
    shutil.copytree(FIXTURE_TOPIC.parent, copy)
    assert open_corpus(load_topic(copy / "topic.yaml")).sha256 == first.sha256
    with (copy / "corpus" / "for" / "survey.md").open("a") as handle:
        handle.write("One more line.\n")
    assert open_corpus(load_topic(copy / "topic.yaml")).sha256 != first.sha256
