"""The protocol's rules stated exactly: each phase-list error word for word
(where, what was found, what was expected), the prep phase's nominal order and
how a phase prints. Fast: no model, no Inspect."""

from __future__ import annotations

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.record.protocol import Phase, parse_phase, parse_phases, speaking_order

ALL_NAMES = "prep, opening, rebuttal, retort, conclusion"


def message(call: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(ConfigError) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    return str(caught.value)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("bogus", f"phases: unknown phase 'bogus'; expected one of {ALL_NAMES}."),
        ("prep:short", "phases: 'prep' takes no length, got 'prep:short'; expected plain 'prep'."),
        (
            "opening:huge",
            "phases: unknown length 'huge' in 'opening:huge'; "
            "expected opening:short, opening:medium or opening:long.",
        ),
    ],
)
def test_a_bad_phase_is_named_under_phases_by_default(spec: str, expected: str) -> None:
    assert message(parse_phase, spec) == expected


@pytest.mark.parametrize(
    ("specs", "expected"),
    [
        (5, "phases: got int; expected a list such as [opening, rebuttal]."),
        ("", "phases: the phase list is empty; expected at least one argument phase."),
        (" , ,", "phases: the phase list is empty; expected at least one argument phase."),
        ("prep", "phases: only 'prep' was given; expected at least one argument phase."),
        (["prep", "prep"], "phases: only 'prep' was given; expected at least one argument phase."),
        # Only a list in both brackets loses them.
        ("opening, rebuttal]", f"phases: unknown phase 'rebuttal]'; expected one of {ALL_NAMES}."),
        ("[opening, rebuttal", f"phases: unknown phase '[opening'; expected one of {ALL_NAMES}."),
    ],
)
def test_a_bad_phase_list_is_named_under_phases_by_default(specs: object, expected: str) -> None:
    assert message(parse_phases, specs) == expected


def test_a_bad_phase_in_a_list_is_named_where_the_list_came_from() -> None:
    got = message(parse_phases, "opening, bogus", where="run.yaml phases")
    assert got == f"run.yaml phases: unknown phase 'bogus'; expected one of {ALL_NAMES}."


def test_empty_items_of_a_phase_list_are_skipped() -> None:
    assert parse_phases("[opening,, rebuttal:long, ]") == (
        Phase("opening", "medium"),
        Phase("rebuttal", "long"),
    )
    assert parse_phases(["opening", " ", "retort:short"]) == (
        Phase("opening", "medium"),
        Phase("retort", "short"),
    )


@pytest.mark.parametrize(("first", "second"), [("pro", "con"), ("con", "pro")])
def test_prep_is_listed_as_first_then_the_other_side(first: str, second: str) -> None:
    phases = (Phase("prep", None), Phase("opening", "medium"), Phase("prep", None))
    orders = speaking_order(phases, first)  # type: ignore[arg-type]
    assert orders == [(first, second), (first, second), (first, second)]


def test_a_phase_prints_as_its_spec() -> None:
    assert str(Phase("prep", None)) == "prep"
    assert str(Phase("opening", "short")) == "opening:short"
