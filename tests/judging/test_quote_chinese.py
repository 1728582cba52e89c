"""Quote checks on Chinese text: scripts folded, characters counted, negators guarded."""

from __future__ import annotations

from debatebench_eval.judging.ledger import check_quote, normalise

TRADITIONAL = "研究顯示，背景調查與自殺率下降有中等程度的關聯。"  # noqa: RUF001


def test_a_simplified_quote_matches_traditional_text() -> None:
    assert check_quote("背景调查与自杀率下降有中等程度的关联", TRADITIONAL) == (100.0, None)


def test_a_traditional_quote_matches_itself_after_punctuation_is_dropped() -> None:
    assert check_quote("背景調查與自殺率下降", TRADITIONAL)[1] is None


def test_six_characters_are_the_shortest_quote() -> None:
    assert check_quote("背景調查與自", TRADITIONAL)[1] is None
    assert check_quote("背景調查與", TRADITIONAL) == (0.0, "quote shorter than 3 words")


def test_a_chinese_negator_the_text_lacks_is_caught() -> None:
    match, problem = check_quote("背景調查與自殺率下降沒有關聯", "背景調查與自殺率下降有關聯")
    assert problem == "quote adds a negation the cited {kind} lacks", (match, problem)


def test_latin_normalisation_is_unchanged() -> None:
    assert normalise("  The PILOT, on (one) block!  ") == "the pilot on one block"
    assert check_quote("collisions fell by a third", "Collisions fell by a third.") == (100.0, None)
