"""Phases are data; initiative alternates over argument phases only."""

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.record.protocol import Phase, parse_phase, parse_phases, speaking_order


def test_length_defaults_to_medium_and_maps_to_sentences() -> None:
    assert parse_phase("opening") == Phase("opening", "medium")
    assert [parse_phase(f"rebuttal:{n}").sentences for n in ("short", "medium", "long")] == [
        2,
        5,
        10,
    ]


def test_prep_takes_no_length() -> None:
    assert parse_phase("prep") == Phase("prep", None)
    with pytest.raises(ConfigError, match="'prep' takes no length"):
        parse_phase("prep:short")


@pytest.mark.parametrize(
    ("spec", "message"),
    [("closing", "unknown phase 'closing'"), ("opening:huge", "unknown length 'huge'")],
)
def test_bad_phase_names_what_was_wrong(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_phase(spec)


def test_phase_list_from_string_or_list() -> None:
    as_text = parse_phases("[opening:short, rebuttal:long, conclusion]")
    assert as_text == parse_phases(["opening:short", "rebuttal:long", "conclusion"])
    assert [str(p) for p in as_text] == ["opening:short", "rebuttal:long", "conclusion:medium"]


def test_empty_or_prep_only_list_is_rejected() -> None:
    with pytest.raises(ConfigError, match="empty"):
        parse_phases([])
    with pytest.raises(ConfigError, match="only 'prep'"):
        parse_phases(["prep"])


def test_initiative_alternates_and_prep_does_not_count() -> None:
    phases = parse_phases(["prep", "opening", "rebuttal", "retort", "rebuttal", "conclusion"])
    firsts = [first for first, _ in speaking_order(phases)]
    assert firsts[1:] == ["pro", "con", "pro", "con", "pro"]
    without_prep = [first for first, _ in speaking_order(phases[1:])]
    assert without_prep == firsts[1:]


def test_any_phase_list_is_walked_as_given() -> None:
    phases = parse_phases(["rebuttal"] * 5)
    orders = speaking_order(phases)
    assert len(orders) == 5
    assert all(set(order) == {"pro", "con"} for order in orders)
