"""One source for what each task, scorer and solver accepts (`list`, the reference, the
docs' command check)."""

from __future__ import annotations

import re

import pytest

from debatebench_eval.cli import score_keys, surface
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.debating.task import debate
from debatebench_eval.judging.options import JudgeCalls, JudgingOptions
from debatebench_eval.known_answer.orders import OversightJudging
from debatebench_eval.truth_crucible.options import ScoringOptions
from debatebench_eval.validation.fact_check_task import fact_check_validation


def test_every_object_that_reads_unknown_options_says_which() -> None:
    missing = [
        item.name
        for item in surface.registered()
        if item.takes_unknown() and item.short not in surface._ACCEPTS
    ]
    assert not missing, f"add a row to cli.surface._ACCEPTS for {missing}"


def test_every_scorer_has_its_keys_and_every_task_its_scorers() -> None:
    names = {item.short for item in surface.registered()}
    scorers = {item.short for item in surface.registered() if item.kind == "scorer"}
    tasks = {item.short for item in surface.registered() if item.kind == "task"}
    assert set(score_keys.scorer_keys()) == scorers
    assert set(score_keys.TASK_SCORERS) == tasks
    assert {s for run in score_keys.TASK_SCORERS.values() for s in run} <= names


def test_every_option_has_a_meaning_from_its_docstring() -> None:
    undocumented = [
        f"{item.name} {option.name}"
        for item in surface.registered()
        for option in item.options()
        if not option.doc
    ]
    assert not undocumented, f"document these in the factory's Args: {undocumented}"


@pytest.mark.parametrize(
    ("factory", "name", "key"),
    [(debate, "debate", "judge_budgt"), (fact_check_validation, "fact_check_validation", "rubric")],
)
def test_a_key_the_surface_refuses_the_factory_refuses_too(
    factory: object, name: str, key: str
) -> None:
    # The surface reads the factories' own constants: it must not be looser than them.
    assert key not in surface.by_name("task")[f"debatebench/{name}"].option_names()
    with pytest.raises(ConfigError, match="unknown argument"):
        factory(**{key: "1"})  # type: ignore[operator]


def test_docstring_args_join_continued_lines() -> None:
    doc = "Summary.\n\nArgs:\n    a: First line\n        continued.\n    b (int): Other.\n"
    assert surface.docstring_args(doc) == {"a": "First line continued.", "b": "Other."}


def listing(capsys: pytest.CaptureFixture[str]) -> str:
    from debatebench_eval.cli.main import main

    assert main(["list"]) == 0
    return capsys.readouterr().out


def section(out: str, heading: str) -> str:
    """A block of `list`'s output, from its heading to the next heading."""
    start = out.index(f"\n{heading}") + 1
    ends = [out.find(f"\n\n{h}", start) for h in ("debatebench/", "judging options:")]
    return out[start : min([end for end in ends if end != -1] or [len(out)])]


def test_list_names_every_option_each_object_accepts_at_one_indent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = listing(capsys)
    for item in surface.registered():
        if not item.option_names():
            continue
        text = section(out, f"{item.name} options:")
        # Its own options and its run settings: each an entry at the entries' indent.
        for name in item.option_names() - set(item.group_keys()):
            assert f"\n    {name}: " in text, (item.name, name)
        judged = r"^    judging options \(listed below\): ((?:.|\n        )*)$"
        judging = re.search(judged, text, re.M)
        if item.group_keys():
            assert judging is not None, item.name
            assert " ".join(judging.group(1).split()).split(", ") == list(item.group_keys())
        else:
            assert judging is None, item.name


def test_list_documents_each_judging_key_once_under_its_group(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = listing(capsys)
    groups = surface.judging_groups()
    assert [doc.group for doc in groups] == [
        JudgeCalls, JudgingOptions, ScoringOptions, OversightJudging
    ]  # fmt: skip
    calls, rubric = ({item.short for item in doc.users} for doc in groups[:2])
    assert {"oversight", "judge_accuracy", "adjudicate", "crucible"} <= calls
    assert "oversight" not in rubric and "fact_check_validation" not in rubric
    assert groups[2].users_text() == "the task crucible and the scorer crucible_score"
    assert groups[3].users_text() == "the task oversight and the scorer judge_accuracy"
    for doc in groups:
        assert doc.options, doc.group
        text = section(out, f"judging options: {doc.what}, taken by")
        for option in doc.options:
            assert text.count(f"\n    {option.name}: ") == 1, (doc.group, option.name)
        heading = " ".join(text.split("\n\n")[0].split())
        assert f"taken by {doc.users_text()} (-T key=value" in heading
    # Declared on the base alone: what every judging group shares is listed once.
    assert out.count("\n    judge_budget: ") == 1


def test_a_note_after_the_args_is_no_part_of_the_last_option() -> None:
    doc = "Summary.\n\nArgs:\n    a: First\n        more.\n    b: Other.\n\nA note on all.\n"
    assert surface.docstring_args(doc) == {"a": "First more.", "b": "Other."}
    assert surface.after_args(doc) == "A note on all."
    oversight = surface.by_name("task")["debatebench/oversight"]
    meanings = surface.docstring_args(oversight.doc)
    assert "judge's settings" not in meanings["paired"]
    assert "judge's settings" in surface.after_args(oversight.doc)


def test_a_union_field_reads_as_its_members() -> None:
    [strict] = [o for o in surface.group_fields(JudgeCalls) if o.name == "strict_judge"]
    assert strict.type == 'bool or "family"'
