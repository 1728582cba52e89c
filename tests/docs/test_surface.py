"""One source for what each task, scorer and solver accepts (`list`, the reference, the
docs' command check)."""

from __future__ import annotations

import pytest

from debatebench_eval.cli import score_keys, surface
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.debating.task import debate
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
