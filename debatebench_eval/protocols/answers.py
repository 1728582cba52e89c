"""Answers for another task's scorer: the question as the panel reads it, and
the `ANSWER:` line the final reply ends with.

A task's scorer reads `state.output.completion`: `match(numeric=True)` the
last number in it, `includes` any occurrence. The final step is told to end
with one line `ANSWER: <answer>` (what `multiple_choice` also reads), and a
multiple-choice sample's letter marks `state.choices` for `choice()`.
"""

from __future__ import annotations

import re
import string

ANSWER_INSTRUCTION = (
    "End your reply with exactly one final line of the form `ANSWER: <answer>`, "
    "giving only the answer on it."
)
PARTICIPANT_INSTRUCTION = "State the answer you currently hold as a line `ANSWER: <answer>`."
_ANSWER = re.compile(r"^\s*\**ANSWER\**\s*:\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)


def question_text(input_text: str, choices: list[str]) -> str:
    """The sample's input, with its choices lettered when it has some."""
    if not choices:
        return input_text
    lettered = "\n".join(
        f"{letter}) {choice}"
        for letter, choice in zip(string.ascii_uppercase, choices, strict=False)
    )
    return f"{input_text}\n\n{lettered}\n\nThe answer is the letter of the correct option."


def parse_answer(text: str) -> str | None:
    """The answer on the reply's last `ANSWER:` line, without decoration."""
    found = _ANSWER.findall(text)
    if not found:
        return None
    return found[-1].strip(" `*") or None


def choice_index(answer: str | None, count: int) -> int | None:
    """The option a letter answer names (`B`, `B)`, `(B)`), or None."""
    if answer is None:
        return None
    match = re.fullmatch(r"\(?([A-Za-z])[).]?", answer.strip())
    if match is None:
        return None
    index = string.ascii_uppercase.index(match.group(1).upper())
    return index if index < count else None
