"""Question files: every format read alike, a bad row named by file, line and field;
the shipped set rebuilt from the project's own data; QuALITY read through `datasets`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.known_answer.quality import best_distractor, is_hard, load_quality
from debatebench_eval.known_answer.questions import default_questions, load_questions

from support import oversight_set

ROW = {"id": "q1", "question": "Which?", "answers": ["right", "wrong"], "correct": 0}


def write_jsonl(path: Path, *rows: dict[str, object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_a_bad_row_names_file_line_and_field(tmp_path: Path) -> None:
    bad = dict(ROW, id="q2", correct=2)
    path = write_jsonl(tmp_path / "q.jsonl", ROW, bad)
    with pytest.raises(ConfigError) as caught:
        load_questions(path)
    assert f"{path}: line 2.correct" in str(caught.value)
    assert "0 or 1" in str(caught.value)


@pytest.mark.parametrize(
    ("change", "field", "expected"),
    [
        ({"answers": ["one"]}, "answers", "two different"),
        ({"answers": ["same", "same"]}, "answers", "two different"),
        ({"question": " "}, "question", "non-empty"),
        ({"id": "Bad Id"}, "id", "lower-case"),
        ({"extra": 1}, "extra", "unknown"),
    ],
)
def test_each_field_is_checked(
    tmp_path: Path, change: dict[str, object], field: str, expected: str
) -> None:
    path = write_jsonl(tmp_path / "q.jsonl", dict(ROW, **change))
    with pytest.raises(ConfigError, match=expected) as caught:
        load_questions(path)
    assert f"line 1.{field}" in str(caught.value)


def test_duplicate_ids_and_both_evidence_forms_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="duplicate question id 'q1'"):
        load_questions(write_jsonl(tmp_path / "d.jsonl", ROW, ROW))
    both = dict(ROW, evidence="text", evidence_file="e.txt")
    with pytest.raises(ConfigError, match="not both"):
        load_questions(write_jsonl(tmp_path / "b.jsonl", both))


def test_csv_yaml_and_evidence_files_read_alike(tmp_path: Path) -> None:
    (tmp_path / "story.txt").write_text("The hidden story.\n")
    (tmp_path / "q.csv").write_text(
        "id,question,answer_0,answer_1,correct,evidence_file\nq1,Which?,right,wrong,1,story.txt\n"
    )
    (tmp_path / "q.yaml").write_text(
        'questions:\n  - {id: q1, question: "Which?", answers: [right, wrong], correct: 1,'
        " evidence_file: story.txt}\n"
    )
    for name in ("q.csv", "q.yaml"):
        (question,) = load_questions(tmp_path / name)
        assert question.answers == ("right", "wrong") and question.right == "wrong"
        assert question.evidence == "The hidden story."
    (tmp_path / "bad.csv").write_text("id,question,answer_0,answer_1,correct\nq1,Which?,a,b,x\n")
    with pytest.raises(ConfigError, match=r"line 2\.correct"):
        load_questions(tmp_path / "bad.csv")


def test_the_shipped_set_is_built_from_the_projects_data() -> None:
    assert oversight_set.main(["check"]) == 0
    questions = default_questions()
    passages = [q for q in questions if q.category and q.category.startswith("passage")]
    traps = [q for q in questions if q.category == "trap"]
    assert len(passages) == 61 and len(traps) == 15
    assert all(q.evidence for q in passages) and not any(q.evidence for q in traps)
    # Supported and contradicted statements both appear, so "always yes" is not right.
    assert {q.correct for q in passages} == {0, 1}


def _validation(answer: int, context: int = 2, distractor: int = 3) -> dict[str, int]:
    return {
        "untimed_annotator_id": "0001",
        "untimed_answer": answer,
        "untimed_eval1_answerability": 1,
        "untimed_eval2_context": context,
        "untimed_best_distractor": distractor,
    }


def _item(
    n: int,
    gold: int = 2,
    speed: tuple[int, ...] = (1, 3, 3, 2, 4),
    untimed: tuple[int, ...] = (2, 2, 2),
) -> dict[str, object]:
    return {
        "question": f"Question {n}?",
        "question_unique_id": f"22966_ABC_{n}",
        "options": ["one", "two", "three", "four"],
        "writer_label": gold,
        "gold_label": gold,
        "validation": [
            _validation(a, distractor=d) for a, d in zip(untimed, (3, 3, 4), strict=True)
        ],
        "speed_validation": [{"speed_annotator_id": "0010", "speed_answer": s} for s in speed],
        "difficult": 1,
    }


def quality_fixture(tmp_path: Path) -> Path:
    """An article shaped as QuALITY's release files are: one hard question, one the timed
    annotators mostly got right, one an untimed annotator got wrong."""
    article = {
        "article_id": "22966",
        "set_unique_id": "22966_ABC",
        "batch_num": "22",
        "writer_id": "1001",
        "source": "Gutenberg",
        "title": "Sky",
        "year": 1956,
        "author": "A. Writer",
        "topic": "fiction",
        "article": "<p>The whole hidden story.</p>",
        "questions": [_item(1), _item(2, speed=(2, 2, 2, 1, 3)), _item(3, untimed=(2, 2, 1))],
        "url": "http://example.org/22966",
        "license": "public domain",
    }
    return write_jsonl(tmp_path / "QuALITY.v1.0.1.htmlstripped.dev", article)


def test_quality_hard_subset_through_datasets(tmp_path: Path) -> None:
    path = quality_fixture(tmp_path)
    (question,) = load_quality(str(path))
    assert question.id == "quality-22966_abc_1"
    # gold 2 ("two"); the untimed annotators named option 3 twice as the best distractor
    assert question.answers == ("two", "three") and question.correct == 0
    assert question.evidence == "<p>The whole hidden story.</p>"
    assert len(load_quality(str(path), hard=False)) == 3


def test_quality_filters_each_rule() -> None:
    assert is_hard(_item(1))
    assert not is_hard(_item(1, speed=(2, 2, 2, 1, 3)))  # timed annotators mostly right
    assert not is_hard(_item(1, untimed=(2, 2, 1)))  # an untimed annotator wrong
    low_context = _item(1)
    low_context["validation"] = [_validation(2, context=1) for _ in range(3)]
    assert not is_hard(low_context)
    assert not is_hard(dict(_item(1), writer_label=3))
    assert best_distractor(_item(1)) == 3


def test_quality_bad_source_is_one_message(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="-T quality"):
        load_quality(str(tmp_path / "missing.jsonl"))
