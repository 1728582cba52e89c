"""Chinese folding: Traditional and Simplified become one script, other text is untouched."""

from __future__ import annotations

from debatebench_eval.core.text import fold_chinese, han_bigrams, has_han


def test_traditional_folds_to_simplified_by_phrase() -> None:
    assert fold_chinese("背景調查與自殺率下降有關聯") == "背景调查与自杀率下降有关联"
    # Phrase-level, not character by character: 乾隆 is a name, not 干隆.
    assert fold_chinese("乾隆年間") == "乾隆年间"


def test_latin_text_is_returned_as_it_is() -> None:
    text = "Collisions fell by a third — “before” and after."
    assert not has_han(text)
    assert fold_chinese(text) is text


def test_bigrams_run_by_run_and_a_lone_character_stands_alone() -> None:
    assert han_bigrams("自行车道 and 车") == ["自行", "行车", "车道", "车"]
    assert han_bigrams("no chinese") == []
