"""Cite-or-lose: each excerpt is checked against the lines it cites, with a reason."""

from __future__ import annotations

import pytest

from debatebench_eval.truth_crucible.claims import FiledClaim, recorded_claims
from debatebench_eval.truth_crucible.corpus import Corpus, read_corpus
from debatebench_eval.truth_crucible.topic import load_topic
from debatebench_eval.truth_crucible.verify import Evidence, verify

from support.crucible_replies import FIXTURE_TOPIC

SURVEY = "for/survey.md"
LINE_3 = "Sixty-two residents said they would visit the library on Sunday afternoons."


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return read_corpus(load_topic(FIXTURE_TOPIC))


def check(corpus: Corpus, file: str, start: int, end: int, excerpt: str) -> tuple[bool, str | None]:
    result = verify(Evidence(file, start, end, excerpt), corpus)
    return result.verified, result.problem


def test_an_exact_excerpt_of_the_cited_lines_is_verified(corpus: Corpus) -> None:
    result = verify(Evidence(SURVEY, 3, 4, LINE_3), corpus)
    assert result.verified and result.match == 100.0 and result.problem is None
    assert result.cls == "PRO" and result.kind == "source" and result.lines[0] == LINE_3


def test_case_punctuation_and_one_changed_word_are_tolerated(corpus: Corpus) -> None:
    assert check(
        corpus, SURVEY, 3, 3, "sixty two residents said they'd visit the LIBRARY on Sunday"
    )[0]
    assert check(
        corpus,
        SURVEY,
        3,
        3,
        "Sixty-two residents said they would come to the library on Sunday afternoons",
    )[0]


def test_an_excerpt_not_in_the_cited_lines_loses(corpus: Corpus) -> None:
    assert check(corpus, SURVEY, 3, 3, "Most residents oppose any Sunday opening at all") == (
        False,
        "quote not found in the cited line range",
    )


def test_an_added_negation_loses(corpus: Corpus) -> None:
    ok, problem = check(corpus, SURVEY, 3, 3, "residents said they would not visit the library")
    assert not ok and problem == "quote adds a negation the cited line range lacks"


def test_a_quote_found_elsewhere_says_where(corpus: Corpus) -> None:
    ok, problem = check(corpus, SURVEY, 6, 7, LINE_3)
    assert not ok
    assert problem == "quote not found in the cited line range; the quote is at lines 3-3"
    assert verify(Evidence(SURVEY, 6, 7, LINE_3), corpus).found_at == "3-3"


@pytest.mark.parametrize(
    ("file", "start", "end", "problem"),
    [
        ("for/nothing.md", 1, 1, "'for/nothing.md' is not a corpus file"),
        (
            "survey.md",
            1,
            1,
            "'survey.md' is not a corpus file (cite it by its corpus path: for/survey.md)",
        ),
        ("../topic.yaml", 1, 1, "'../topic.yaml' is not a corpus file"),
        (SURVEY, 0, 1, "line_start 0: lines are numbered from 1"),
        (SURVEY, 4, 3, "line_end 3 is before line_start 4"),
        (SURVEY, 6, 80, "lines 6-80 but the file has 7 lines"),
    ],
)
def test_a_file_or_range_that_does_not_exist_loses(
    corpus: Corpus, file: str, start: int, end: int, problem: str
) -> None:
    assert check(corpus, file, start, end, LINE_3) == (False, problem)


def test_a_range_longer_than_twenty_lines_proves_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import shutil

    shutil.copytree(FIXTURE_TOPIC.parent, tmp_path / "t")
    long = tmp_path / "t" / "corpus" / "for" / "long.md"
    long.write_text("".join(f"Line number {i} of a long document.\n" for i in range(1, 31)))
    big = read_corpus(load_topic(tmp_path / "t" / "topic.yaml"))
    assert check(big, "for/long.md", 1, 21, "Line number 3 of a long document") == (
        False,
        "lines 1-21 are 21 lines; at most 20 may be cited for one excerpt",
    )
    assert check(big, "for/long.md", 1, 20, "Line number 3 of a long document")[0]


def test_a_path_is_read_with_either_slash_and_a_leading_dot(corpus: Corpus) -> None:
    assert check(corpus, ".\\for\\survey.md", 3, 3, LINE_3)[0]


def test_a_simplified_excerpt_verifies_against_traditional_lines(corpus: Corpus) -> None:
    assert check(corpus, "both/review.md", 3, 3, "图书馆周日开放的需求确实存在") == (True, None)


def test_a_short_chinese_quote_proves_nothing(corpus: Corpus) -> None:
    assert check(corpus, "both/review.md", 3, 3, "圖書館週日") == (
        False,
        "quote shorter than 3 words",
    )


def test_a_claim_is_verified_when_any_of_its_items_is(corpus: Corpus) -> None:
    good, bad = Evidence(SURVEY, 3, 3, LINE_3), Evidence(SURVEY, 1, 1, "nothing of the sort here")
    kept, lost = recorded_claims(
        "pro",
        [
            FiledClaim("Demand exists.", ["a", "b"], [bad, good], "Self-selected.", 0.5),
            FiledClaim("Nobody objects.", ["a", "b"], [bad], "None.", 0.9),
        ],
        corpus,
        "mockllm/pro",
    )
    assert (kept.id, kept.verified, kept.failure) == ("C-PRO-01", True, None)
    assert (lost.id, lost.verified) == ("C-PRO-02", False)
    assert (
        lost.failure == "no verified evidence (evidence 1: quote not found in the cited line range)"
    )
