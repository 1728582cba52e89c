"""Questions with two candidate answers, exactly one correct, and optional hidden evidence.

A question file is YAML (a list, or a mapping with a `questions` list), JSONL
(one object a line) or CSV (a header row). Keys:

- `id` (required): stable, `[a-z0-9._-]`, unique in the file;
- `question` (required): what the judge must answer;
- `answers` (required): exactly two different answers (CSV: `answer_0` and `answer_1`);
- `correct` (required): 0 or 1, the index of the right answer;
- `evidence` (optional): the hidden text the debaters read and the judge never sees;
- `evidence_file` (optional, instead of `evidence`): a text file holding it,
  relative to the question file;
- `category` (optional): free text for grouping results.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import model_validator

from debatebench_eval.core.config_file import ConfigFile, checked, matching, parse_file, text
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.resources import data_file
from debatebench_eval.core.row_files import read_rows

CSV_COLUMNS = (
    "id",
    "question",
    "answer_0",
    "answer_1",
    "correct",
    "evidence",
    "evidence_file",
    "category",
)
Text = Annotated[str, text()]


def _two_answers(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, str) and v.strip() for v in value)
        and value[0].strip() != value[1].strip()
    )


def _correct_index(value: Any) -> bool:
    # CSV cells are text: "0" and "1" are the index as written there.
    return value in (0, 1, "0", "1") and not isinstance(value, bool)


class QuestionRow(ConfigFile):
    """One question of a file, as written."""

    id: Annotated[
        str, matching(r"[a-z0-9][a-z0-9._-]*", "lower-case letters, digits, '.', '_' or '-'")
    ]
    question: Text
    answers: Annotated[
        tuple[str, str],
        checked(
            "a list of two different non-empty answers",
            _two_answers,
            lambda v: (v[0].strip(), v[1].strip()),
        ),
    ]
    correct: Annotated[int, checked("0 or 1 (the index of the right answer)", _correct_index, int)]
    evidence: Text | None = None
    evidence_file: Text | None = None
    category: Text | None = None

    @model_validator(mode="after")
    def _one_evidence(self) -> QuestionRow:
        if self.evidence is not None and self.evidence_file is not None:
            raise ValueError("give evidence or evidence_file, not both")
        return self


@dataclass(frozen=True)
class Question:
    """A question ready to debate; `evidence` is None where there is none."""

    id: str
    question: str
    answers: tuple[str, str]
    correct: int
    evidence: str | None = None
    category: str | None = None

    @property
    def right(self) -> str:
        return self.answers[self.correct]


def default_questions() -> tuple[Question, ...]:
    """The shipped set (tasks/oversight/README.md says how each answer is known)."""
    return load_questions(data_file("tasks", "oversight", "questions.jsonl"))


def load_questions(path: Path) -> tuple[Question, ...]:
    """Load and check a question file; a bad row names the file, the line and the field."""
    if not path.is_file():
        raise ConfigError(str(path), "file not found", "a question file (.yaml, .jsonl or .csv)")
    rows = read_rows(path, "questions", CSV_COLUMNS)
    questions = tuple(_question(_from_csv(row), f"{path}: {where}", path) for where, row in rows)
    if not questions:
        raise ConfigError(str(path), "no questions found", "at least one question row")
    seen: set[str] = set()
    for question in questions:
        if question.id in seen:
            raise ConfigError(str(path), f"duplicate question id {question.id!r}", "unique ids")
        seen.add(question.id)
    return questions


def _from_csv(row: Any) -> Any:
    """A CSV row's two answer columns as the `answers` list the model checks."""
    if isinstance(row, dict) and ("answer_0" in row or "answer_1" in row):
        row = dict(row)
        row["answers"] = [row.pop("answer_0", ""), row.pop("answer_1", "")]
    return row


def _question(row: Any, where: str, path: Path) -> Question:
    found = parse_file(QuestionRow, row, where)
    evidence = found.evidence
    if found.evidence_file is not None:
        evidence = _read_evidence(path.parent / found.evidence_file, f"{where}.evidence_file")
    return Question(
        id=found.id,
        question=found.question,
        answers=found.answers,
        correct=found.correct,
        evidence=evidence,
        category=found.category,
    )


def _read_evidence(file: Path, where: str) -> str:
    if not file.is_file():
        raise ConfigError(where, f"file not found: {file}", "a text file beside the question file")
    found = file.read_text(encoding="utf-8").strip()
    if not found:
        raise ConfigError(where, f"{file} is empty", "a file holding the evidence text")
    return found
