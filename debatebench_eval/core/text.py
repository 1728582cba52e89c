"""Text folding shared by quote matching and retrieval: Chinese scripts made one.

A corpus may mix Traditional and Simplified Chinese, and a quote or a query in
one script must still find text in the other. Traditional is folded to
Simplified by OpenCC's phrase-level converter (`t2s`), loaded on first use and
only for text that holds Han characters, so debates in Latin script never pay
for it.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import opencc

# CJK Unified Ideographs, Extension A and the compatibility block: the Han
# characters both scripts share or fold onto.
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def has_han(text: str) -> bool:
    return HAN.search(text) is not None


@cache
def _converter() -> opencc.OpenCC:
    import opencc

    return opencc.OpenCC("t2s")


def fold_chinese(text: str) -> str:
    """The text with Traditional Chinese folded to Simplified; other text unchanged."""
    if not has_han(text):
        return text
    return str(_converter().convert(text))


def han_bigrams(text: str) -> list[str]:
    """Overlapping pairs of Han characters, run by run (a lone character stands alone).

    Chinese is written without spaces, so words are not delimited; character
    bigrams are the usual retrieval unit for it (Lucene's CJK analyzer does the same).
    """
    grams: list[str] = []
    for run in _HAN_RUN.findall(text):
        if len(run) == 1:
            grams.append(run)
        else:
            grams.extend(run[i : i + 2] for i in range(len(run) - 1))
    return grams
