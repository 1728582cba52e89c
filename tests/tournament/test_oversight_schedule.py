"""An oversight tournament's inputs: checked before anything is written or any model
is called, and its identity (the task kind and its settings) kept apart from a
debate tournament's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.cli.main import main
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.known_answer.questions import Question
from debatebench_eval.tournament.manifest import Manifest, read_manifest, write_manifest
from debatebench_eval.tournament.runner import pair_tasks, requested_schedule

from support.oversight_questions import question_file

MODELS = "ollama/m1,ollama/m2"


def _plan(tmp_path: Path, *extra: str) -> list[str]:
    return ["tournament", "plan", "--task", "oversight", "--models", MODELS, "--judges",
            "ollama/j1", "--log-dir", str(tmp_path / "t"), "--dry-run", *extra]  # fmt: skip


def _schedule(**given: Any) -> Any:
    asked: dict[str, Any] = {"models": MODELS, "judges": "ollama/j1", "motions": None,
                             "limit": None, "format": None, "seed": 1,
                             "allow_self_judging": False, "task_items": ["rounds=1"],
                             "task": "oversight", **given}  # fmt: skip
    return requested_schedule(**asked)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["-T", "protocol=consultancy"],
            "-T protocol: consultancy: a tournament needs two debaters",
        ),
        (["-T", "protocol=expert"], "-T protocol: expert: a tournament needs two debaters"),
        (["-T", "questions=x.jsonl"], "-T questions: set by the tournament itself"),
        (["-T", "paired=false"], "-T paired: set by the tournament itself"),
        (["-T", "seed=3"], "-T seed: set by the tournament itself"),
        (["-T", "rounds=many"], "rounds"),
        (["-T", "format=classic"], "-T format: unknown option"),
        (["--motions", "default"], "--motions: given with --task oversight"),
        (["--format", "classic"], "--format: given with --task oversight"),
        (["--limit", "99"], "--limit: got 99"),
        (["--questions", "missing.jsonl"], "missing.jsonl: file not found"),
    ],
)
def test_bad_input_is_one_message_and_nothing_runs(
    tmp_path: Path, capsys: Any, extra: list[str], message: str
) -> None:
    assert main(_plan(tmp_path, *extra)) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "t").exists()


def test_questions_only_with_oversight(tmp_path: Path, capsys: Any) -> None:
    plan = ["tournament", "plan", "--models", MODELS, "--judges", "ollama/j1", "--dry-run"]
    assert main([*plan, "--questions", "q.jsonl", "--log-dir", str(tmp_path)]) == 2
    assert "--questions: given with --task debate" in capsys.readouterr().err


def test_a_dry_run_names_the_questions(tmp_path: Path, capsys: Any) -> None:
    assert main(_plan(tmp_path, "--limit", "3")) == 0
    out = capsys.readouterr().out
    assert "2 models, 3 questions" in out and "1 pair(s) x 3 questions x 2 sides = 6" in out


def test_the_identity_names_the_task_and_its_settings() -> None:
    schedule = _schedule()
    assert schedule.identity()["settings"] == {"task": "oversight", "task_args": {"rounds": 1},
                                               "seed": 1, "allow_self_judging": False}  # fmt: skip
    assert _schedule(task_items=["rounds=2"]).identity_hash != schedule.identity_hash
    assert _schedule(task_items=["rounds=1", "protocol=open"]).identity_hash != (
        schedule.identity_hash
    )
    debate = _schedule(task="debate", task_items=[])
    assert "task" not in debate.identity()["settings"], "a debate identity is what it was"


def test_a_folder_holds_one_kind_of_tournament(tmp_path: Path, capsys: Any) -> None:
    folder = str(tmp_path / "t")
    write_manifest(folder, Manifest(_schedule()))
    read = read_manifest(folder)
    assert read is not None and read.schedule == _schedule()
    assert main(["tournament", "plan", "--models", MODELS, "--judges", "ollama/j1",
                 "--log-dir", folder, "--dry-run"]) == 2  # fmt: skip
    assert (
        "holds a --task oversight tournament, this one is --task debate" in capsys.readouterr().err
    )


def test_questions_grow_in_order_and_one_edited_under_its_id_is_refused(tmp_path: Path) -> None:
    path = question_file(tmp_path)
    first = _schedule(questions=str(path), limit=2)
    grown = first.grown(_schedule(questions=str(path), limit=4))
    assert grown.item_ids == ("q0", "q1", "q2", "q3")
    assert grown.debates() == 4 * 2 and grown.schedule_hash != first.schedule_hash
    path.write_text(path.read_text().replace("harbour town 0?", "harbour town zero?"))
    with pytest.raises(ConfigError, match=r"question 'q0'.*differs"):
        first.grown(_schedule(questions=str(path)))


def test_each_pair_is_one_task_with_both_orders_of_every_question(tmp_path: Path) -> None:
    schedule = _schedule(questions=str(question_file(tmp_path)), limit=3)
    [task] = pair_tasks(schedule, schedule.pairs)
    ids = [sample.id for sample in task.dataset]
    assert ids == ["q0", "q0.swapped", "q1", "q1.swapped", "q2", "q2.swapped"]
    assert task.name == "ollama-m1_vs_ollama-m2"
    assert isinstance(schedule.items[0].value, Question) and schedule.item_key == "questions"


def _result(pair: tuple[str, str], question: str, swapped: bool, right: bool | None) -> Any:
    """A debate of `pair` in which the judge sided with pair[0] (None: unscored)."""
    from debatebench_eval.matches.results import DebateResult

    pro, con = (pair[1], pair[0]) if swapped else pair
    if right is None:
        return DebateResult(pair, question, swapped, pro, con, "unscored", reason="no reply")
    side = "con" if swapped else "pro"
    return DebateResult(pair, question, swapped, pro, con, "scored", sided_with=side,
                        correct=right)  # fmt: skip


def test_the_oversight_board_counts_accuracy_per_pair_by_hand() -> None:
    from debatebench_eval.tournament.kind import Rated
    from debatebench_eval.tournament.oversight_board import oversight_board

    ab, ac = ("a/x", "b/x"), ("a/x", "c/x")
    # Right picks per question, (pair[0] pro, pair[0] con): a/b 5 of 8, a/c 6 of 6 once
    # q3, whose second debate went unscored, is left out for that pair.
    picks = {ab: {"q0": (True, False), "q1": (True, True), "q2": (False, False),
                  "q3": (True, True)},
             ac: {"q0": (True, True), "q1": (True, True), "q2": (True, True),
                  "q3": (True, None)}}  # fmt: skip
    results = [_result(pair, q, swapped, rights[swapped])
               for pair, questions in picks.items() for q, rights in questions.items()
               for swapped in (False, True)]  # fmt: skip
    header = {"identity": {"settings": {"task_args": {}}, "judges": ["j/x"]},
              "models": ["a/x", "b/x", "c/x"], "questions": ["q0", "q1", "q2", "q3"]}  # fmt: skip
    rated = Rated(header, ("a/x", "b/x", "c/x"), ("j/x",), results)
    board, text, pairs = oversight_board(rated, 200, 0)
    found = {tuple(p["models"]): p for p in board["pairs"]}
    assert found[ab]["accuracy"]["value"] == 5 / 8 and found[ab]["debates"] == 8
    assert 0 <= found[ab]["accuracy"]["low"] < 5 / 8 < found[ab]["accuracy"]["high"] <= 1
    assert found[ac]["accuracy"] == {"value": 1.0, "low": 1.0, "high": 1.0}
    assert found[ac]["debates"] == 6
    assert board["models"][0]["model"] == "a/x", "the judge always sided with a"
    assert board["separation"][0] == ["a/x"] and "Separated results: {a/x} >" in text
    assert board["counts"]["unscored"] == 1 and board["counts"]["eligible_debates"] == 14
    # Over every rated debate each question weighs the same: q0 3 of 4, q2 2 of 4.
    assert board["accuracy"]["n"] == 14 and board["accuracy"]["value"] == pytest.approx(
        (0.75 + 1 + 0.5 + 1) / 4
    )
    assert (
        "| unscored | c/x | a/x | q3 | no reply |" in text and "| twin | a/x | c/x | q3 |" in text
    )
    assert len(pairs) == 2
