"""Options are typed groups, declared once, each key an option of its own; each bad value
is one message naming the option as typed (`-T judge_budget`, `-S judge_budget`), and a
form no longer taken one message naming the form to give."""

from __future__ import annotations

import inspect
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval._registry import SCORERS, TASKS
from debatebench_eval.core import arguments
from debatebench_eval.core import options as option_groups
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import OptionGroup, Taker
from debatebench_eval.core.resources import data_file
from debatebench_eval.debating.task import debate
from debatebench_eval.interop.judge_task import judge
from debatebench_eval.judging import options as judging_options
from debatebench_eval.judging.fact_check import fact_check
from debatebench_eval.judging.options import JudgeCalls, JudgingOptions
from debatebench_eval.judging.rubric import load_rubric
from debatebench_eval.judging.rubric_scorer import rubric
from debatebench_eval.protocols.tasks import adjudicate, panel
from debatebench_eval.truth_crucible.options import ScoringOptions
from debatebench_eval.truth_crucible.scorer import crucible_score
from debatebench_eval.truth_crucible.task import crucible
from debatebench_eval.validation.fact_check_task import fact_check_validation

RUBRIC = data_file("scorers", "rubric.yaml")


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: debate(judge_budget=0),
            "-T judge_budget: got 0; expected an integer of at least 1.",
        ),
        (
            lambda: rubric(swap_judging="maybe"),
            "-S swap_judging: got 'maybe'; expected true or false.",
        ),
        (
            lambda: debate(leaning_margin=20),
            "-T leaning_margin: 20.0 is above resolved_margin 15.0; expected at most it.",
        ),
        (
            lambda: debate(judge_budgit=5),
            "-T judge_budgit: unknown argument(s) judge_budgit for task debate; expected one of",
        ),
        (
            lambda: fact_check_validation(swap_judging=False),
            "-T swap_judging: unknown argument(s) swap_judging for task fact_check_validation; "
            "expected one of data, judge_budget, judge_schema, probe, require_validated_judge.",
        ),
        (
            lambda: fact_check(swap=1),
            "-S swap: unknown argument(s) swap for scorer fact_check; expected one of fact_check,",
        ),
        (
            lambda: crucible(judges=2, judge_quorum=3),
            "-T judge_quorum: 3 is above judges 2; expected at most the number",
        ),
        (
            lambda: crucible(judges=12),
            "-T judges: got 12; expected an integer from 1 to 9.",
        ),
    ],
)
def test_a_bad_value_is_one_message_naming_the_option_as_typed(
    build: Callable[[], Any], message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        build()
    assert message in str(caught.value)


def test_the_label_does_not_depend_on_what_was_built_before() -> None:
    # A scorer built first (-S) must not change how the next task names its options.
    for build, flag in ((lambda: rubric(judge_budget=0), "-S"),
                        (lambda: debate(judge_budget=0), "-T"),
                        (lambda: rubric(judge_budget=0), "-S")):  # fmt: skip
        with pytest.raises(ConfigError, match=f"^{flag} judge_budget: got 0"):
            build()


# Every form the package no longer takes, on each kind of taker, with the form to give.
@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: debate(judging={"judge_budget": 900}),
            "-T judging: a form this package no longer takes; expected each judging setting as "
            "an option of its own, e.g. -T judge_budget=1024.",
        ),
        (
            lambda: rubric(judging={"judge_budget": 900}),
            "-S judging: a form this package no longer takes; expected each judging setting as "
            "an option of its own, e.g. -S judge_budget=1024.",
        ),
        (lambda: crucible(judging={"judges": 2}), "-T judging: a form this package no longer"),
        (lambda: crucible_score(judging={"judges": 2}), "-S judging: a form this package"),
        (lambda: judge(transcripts=_transcript(), judging={}), "-T judging: a form this"),
        (
            lambda: debate(run={"probe": False}),
            "-T run: a form this package no longer takes; expected each run setting as an "
            "option of its own, e.g. -T probe=false.",
        ),
        (
            lambda: panel(task="t", deliberation={"final_budget": 900}),
            "-T deliberation: a form this package no longer takes; expected each setting as an "
            "option of its own, e.g. -T final_budget=1500.",
        ),
        (
            lambda: debate(pro_budget=500),
            '-T pro_budget: a form this package no longer takes; expected -T budget="{pro: N, '
            'con: M}"',
        ),
        (lambda: debate(con_budget=500), "-T con_budget: a form this package no longer takes"),
        (
            lambda: debate(seed=3),
            "-T seed: a form this package no longer takes; expected Inspect's own --seed",
        ),
        (lambda: crucible(seed=3), "-T seed: a form this package no longer takes"),
        (
            lambda: panel(task="t", timeout=30),
            "-T timeout: a form this package no longer takes; expected Inspect's own --timeout",
        ),
        (lambda: fact_check_validation(timeout=30), "-T timeout: a form this package no longer"),
    ],
)
def test_an_old_form_is_one_message_naming_the_new_one(
    build: Callable[[], Any], message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        build()
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_flat_key_is_taken_with_no_message(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        options = JudgingOptions.parse(
            {"judge_budget": "900", "swap_judging": "false"}, Taker("task judge")
        )
        judge(transcripts=_transcript(), judge_budget="900")
    assert (options.judge_budget, options.swap_judging) == (900, False)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_the_options_are_coerced_once_per_task(monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[Path] = []
    validated: list[type] = []

    def counted(path: Path) -> Any:
        loads.append(path)
        return load_rubric(path)

    original = JudgingOptions.model_validate.__func__  # type: ignore[attr-defined]

    def validate(cls: type[JudgingOptions], *args: Any, **kwargs: Any) -> Any:
        validated.append(cls)
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(judging_options, "load_rubric", counted)
    monkeypatch.setattr(JudgingOptions, "model_validate", classmethod(validate))
    debate(rubric=str(RUBRIC))
    # Validated by the task (its solver shares it) and by each judging scorer, which the
    # task builds from the checked values as `inspect score` builds it from the log; the
    # bundled rubric reaches them as not given, so its file is read once.
    assert (len(loads), len(validated)) == (1, 3)


@dataclass
class Coercions:
    """What one task build coerced: each group's validations, and each option's
    coercions by its key."""

    groups: Counter[str] = field(default_factory=Counter)
    keys: Counter[str] = field(default_factory=Counter)
    depth: int = 0

    def saw(self, where: str) -> None:
        self.keys[re.split(r"[ .]", where)[-1]] += 1


@pytest.fixture
def coercions(monkeypatch: pytest.MonkeyPatch) -> Iterator[Coercions]:
    """Counts every group validation, every field a group coerces, and every call of a
    coercion helper made outside a group (a second coercion by an older path)."""
    seen = Coercions()
    validate_group = OptionGroup.model_validate.__func__  # type: ignore[attr-defined]
    field_label = option_groups.label_of

    def validate(cls: type[OptionGroup], *args: Any, **kwargs: Any) -> Any:
        seen.groups[cls.__name__] += 1
        seen.depth += 1
        try:
            return validate_group(cls, *args, **kwargs)
        finally:
            seen.depth -= 1

    def label_of(info: Any) -> str:
        where = field_label(info)
        seen.saw(where)
        return where

    def spied(helper: Callable[..., Any]) -> Callable[..., Any]:
        def spy(where: str, *args: Any, **kwargs: Any) -> Any:
            if not seen.depth:  # inside a group its field's coercion is counted once above
                seen.saw(where)
            return helper(where, *args, **kwargs)

        return spy

    monkeypatch.setattr(OptionGroup, "model_validate", classmethod(validate))
    monkeypatch.setattr(option_groups, "label_of", label_of)
    for name in ("text", "boolean", "integer", "choice", "listed"):
        monkeypatch.setattr(arguments, name, spied(getattr(arguments, name)))
    yield seen


# The run settings every one of these tasks reads, as the command line gives them.
_RUN: dict[str, Any] = {"probe": "false"}


def _debate(_: Path) -> Any:
    return debate(**_RUN, empty_retries=1, budget=500, judge_budget=900, fact_check=False)


def _panel(_: Path) -> Any:
    setup = {"final_budget": "900", "persona_models": "false", "send_effort": True}
    return panel(task="Now or later?", rounds=2, budget=500, **_RUN, **setup, empty_retries=1)


def _adjudicate(folder: Path) -> Any:
    proposal = folder / "proposal.md"
    proposal.write_text("Adopt the new method.\n", encoding="utf-8")
    return adjudicate(
        proposal=str(proposal),
        debate_type="method_fit",
        **_RUN,
        empty_retries=1,
        final_budget=900,
        persona_models=False,
        judge_schema="false",
    )


def _crucible(_: Path) -> Any:
    judging = {"judges": 2, "judge_quorum": 2, "judge_schema": "false"}
    return crucible(**_RUN, claims=4, rounds=1, steelman="false", **judging)


_BUILDS: dict[str, tuple[Callable[[Path], Any], dict[str, int]]] = {
    # The task's judging group, then the rubric scorer's (built from its checked values).
    "debate": (_debate, {"RunOptions": 1, "JudgingOptions": 2}),
    "panel": (_panel, {"RunOptions": 1, "DeliberationOptions": 1}),
    "adjudicate": (_adjudicate, {"RunOptions": 1, "DeliberationOptions": 1, "JudgeCalls": 1}),
    # One topic (the shipped example): each topic's scoring is checked over its own defaults.
    "crucible": (_crucible, {"RunOptions": 1, "ScoringOptions": 1}),
}


@pytest.mark.parametrize("name", list(_BUILDS))
def test_a_task_coerces_each_group_and_each_option_once(
    name: str, coercions: Coercions, tmp_path: Path
) -> None:
    build, groups = _BUILDS[name]
    build(tmp_path)
    assert dict(coercions.groups) == groups
    assert "probe" in coercions.keys
    # The rubric scorer checks again the judging values the task checked and hands it.
    again = set(JudgingOptions.model_fields) if name == "debate" else set()
    twice = {key: n for key, n in coercions.keys.items() if n > 1 and key not in again}
    assert not twice, f"task {name} coerced these options more than once: {twice}"


def test_the_judging_settings_are_declared_once() -> None:
    """No task or scorer declares a judging setting in its own signature: they take the
    group, whose fields (and their help) are the one declaration."""
    judging_keys = set(JudgingOptions.model_fields) | set(ScoringOptions.model_fields)
    for factory in (*TASKS, *SCORERS):
        declared = set(inspect.signature(factory).parameters)
        assert not declared & judging_keys, (factory.__name__, declared & judging_keys)
    shared = set(JudgeCalls.model_fields)
    assert shared <= set(JudgingOptions.model_fields) & set(ScoringOptions.model_fields)


def test_the_debate_task_takes_at_most_20_options() -> None:
    params = inspect.signature(debate).parameters.values()
    named = [p for p in params if p.kind is not inspect.Parameter.VAR_KEYWORD]
    assert len(named) <= 20


def test_none_is_not_given_and_defaults_fill_what_was_not_given() -> None:
    given = JudgingOptions.gather({"judge_budget": None, "strict_judge": None}, Taker("x"))
    options = JudgingOptions.checked(given, defaults={"judge_budget": 1234, "swap_judging": None})
    assert (options.judge_budget, options.strict_judge, options.swap_judging) == (1234, False, True)


def _transcript() -> str:
    from support.rejudging import MIRROR_TRANSCRIPTS

    return str(MIRROR_TRANSCRIPTS[0])


def test_a_deliberation_option_is_named_with_the_flag_it_came_with() -> None:
    from debatebench_eval.protocols.solver import deliberate
    from debatebench_eval.protocols.tasks import panel

    for build, flag in ((lambda: deliberate(table="bad name"), "-S"),
                        (lambda: panel(task="t", table="bad name"), "-T"),
                        (lambda: deliberate(rounds="many"), "-S")):  # fmt: skip
        with pytest.raises(ConfigError, match=f"^{flag} (table|rounds): "):
            build()


def test_a_scorer_is_built_again_from_the_group_its_log_recorded(tmp_path: Path) -> None:
    """`inspect score LOG` calls each scorer with the options the log recorded: the
    whole group, dumped, with the bundled rubric as no path of this machine."""
    options = JudgingOptions.checked(
        JudgingOptions.gather({"judge_budget": 900, "fact_check": False}, Taker("x"))
    )
    recorded = options.model_dump()
    assert recorded["rubric"] is None
    for scorer in (rubric, fact_check):
        scorer(**recorded)  # no key refused
    again = JudgingOptions.parse(recorded, Taker("x"))
    assert again == options
    copy = tmp_path / "mine.yaml"
    copy.write_text(RUBRIC.read_text(encoding="utf-8"), encoding="utf-8")
    custom = JudgingOptions(rubric=load_rubric(copy))
    assert custom.model_dump()["rubric"] == str(copy)
    assert JudgingOptions.parse(custom.model_dump(), Taker("x")).rubric == custom.rubric
