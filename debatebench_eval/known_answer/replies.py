"""The structured replies of the known-answer task, valid by construction.

The judge's answer is an enum over the two answer labels and its confidence a
whole number from 50 to 100 (the probability, in percent, that its answer is
right; sent as a range, which `servers.schema_forms` rewrites as an enum where a
grammar ignores ranges). An open debater's choice is the same enum. No rule
here is left to the checker alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from debatebench_eval.core.reply_model import ReplyModel, prose, whole_number

Label = Literal["A", "B"]
REASON_CHARS = 600
CONFIDENCE = (50, 100)
# `whole_number` and `prose` are whole annotated types: a field's type, never the
# metadata of another `Annotated` (where pydantic would drop their bounds unseen).
if TYPE_CHECKING:
    Confidence = int
    Reason = str
else:
    Confidence = whole_number(*CONFIDENCE)
    Reason = prose(REASON_CHARS)


class JudgeAnswer(ReplyModel):
    """The judge's pick, its stated probability of being right, and a short reason."""

    answer: Label
    confidence: Confidence
    reason: Reason

    def probability_of(self, label: str) -> float:
        """The probability the judge gives answer `label` (its pick gets its confidence)."""
        share = self.confidence / 100
        return share if label == self.answer else 1 - share


class Choice(ReplyModel):
    """An open debater's choice of the answer it will defend."""

    answer: Label
