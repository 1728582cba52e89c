"""The two answer orders a known-answer judge reads, and the labels exchanged between them.

A judge that favours the answer shown first is right whenever the draw put the
right answer there: read in one order, its accuracy is half its habit. With
`answer_orders=both` (the default) the judge reads every transcript twice, the
second time with A and B exchanged everywhere it reads them: the answers'
order, the answer each speaker defends (the transcript's headings), and every
mention of a label in the speeches and the judge's own questions. The text
inside a `<quote>` is the hidden evidence, which names no label, so it is left
as written and its verified mark stays true. The judge's two probabilities of
the right answer are averaged into the pick (`verdict`).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.options import coerced
from debatebench_eval.judging.options import JudgeCalls
from debatebench_eval.known_answer.record import Speech

ANSWER_ORDERS = ("both", "one")
# The order as recorded, then the labels exchanged.
AS_RECORDED, EXCHANGED = 1, 2

# A capital A or B standing alone (not inside a word such as "AB" or "A-level").
_LABEL = re.compile(r"(?<![\w-])([AB])(?![\w-])")
_QUOTE = re.compile(r"(<quote[^>]*>.*?</quote>)", re.DOTALL | re.IGNORECASE)
# Words before a lone "A" that make it a label ("answer A", "the debater for A").
_CUE = re.compile(
    r"\b(answers?|options?|choices?|choose|chose|chosen|pick|picks|picked|for|than|"
    r"versus|vs\.?|and|or|not|over|between)\s*[\"'(]?$",
    re.IGNORECASE,
)
# Words after a lone "A" that make it a label ("A is right"), where an article
# would be followed by a noun.
_VERB = re.compile(
    r"\s+(is|was|are|says|said|states|claims|has|had|would|could|can|must|should|will|"
    r"does|did|seems|argues|remains|holds|fits|matches|gets|wins|and|or|but|because)\b"
)
_NOUN_NEXT = re.compile(r"\s+[a-z]")


def other_label(label: str) -> str:
    return "B" if label == "A" else "A"


def exchange_labels(text: str) -> str:
    """`text` with every mention of answer A and answer B exchanged, quotes untouched
    (module docstring). An "A" followed by a lower-case word is the article ("A judge
    reads") unless a label cue stands before it or a verb after it."""
    parts = _QUOTE.split(text)
    # The split alternates prose and quotes: quotes sit at the odd places.
    return "".join(part if i % 2 else _exchange(part) for i, part in enumerate(parts))


def _exchange(prose: str) -> str:
    def swap(match: re.Match[str]) -> str:
        label = match.group(1)
        return other_label(label) if _is_label(prose, match) else label

    return _LABEL.sub(swap, prose)


def _is_label(prose: str, match: re.Match[str]) -> bool:
    if match.group(1) == "B":
        return True
    after = prose[match.end() :]
    if not _NOUN_NEXT.match(after) or _VERB.match(after):
        return True
    return _CUE.search(prose[: match.start()]) is not None


def exchanged_speech(speech: Speech) -> Speech:
    """The speech as the judge reads it in the exchanged order."""
    return speech.model_copy(
        update={
            "defends": None if speech.defends is None else other_label(speech.defends),
            "text": exchange_labels(speech.text),
            "shown": exchange_labels(speech.shown),
        }
    )


def shown_label(label: str, order: int) -> str:
    """The label that answer `label` (as recorded) has in reading `order`."""
    return label if order == AS_RECORDED else other_label(label)


def _orders(where: str, value: Any) -> str:
    return arg.choice(where, value, ANSWER_ORDERS)


class OversightJudging(JudgeCalls):
    """The known-answer judge's settings: the judge's calls and the answer orders it reads."""

    GROUP: ClassVar[str] = "judging"

    answer_orders: Annotated[Literal["both", "one"], coerced(_orders, default="both")] = Field(
        default="both",
        description="Known-answer judging: both (the default: every transcript read twice, "
        "answers A and B exchanged everywhere the judge reads them in the second, the two "
        "probabilities averaged) or one (the order drawn; half the judge calls).",
    )

    @property
    def orders(self) -> tuple[int, ...]:
        return (AS_RECORDED, EXCHANGED) if self.answer_orders == "both" else (AS_RECORDED,)
