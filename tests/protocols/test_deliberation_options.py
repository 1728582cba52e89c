"""The settings panel and adjudicate share are one group, declared once, each key an
option of its own, each bad value named as typed, each task with its own protocol when
none is given."""

from __future__ import annotations

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import task_taker
from debatebench_eval.protocols.options import deliberation_options
from debatebench_eval.protocols.solver import deliberate
from debatebench_eval.protocols.tasks import PANEL_ARGS, panel

TAKER = task_taker("panel", PANEL_ARGS)


def test_each_task_has_its_own_protocol_when_none_is_given() -> None:
    assert deliberation_options({}, TAKER, "adjudication").protocol == "adjudication"
    given = {"protocol": "panel"}
    assert deliberation_options(given, TAKER, "adjudication").protocol == "panel"


def test_the_keys_are_coerced_and_moved_out() -> None:
    flat = {"final_budget": "1500", "send_effort": "true"}
    options = deliberation_options(flat, TAKER, "panel")
    assert (options.final_budget, options.send_effort) == (1500, True)
    assert flat == {}  # moved out, so the task's own unknown-key check sees none


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"final_budget": 0}, "-T final_budget: got 0; expected an integer of at least 1."),
        ({"persona_models": "maybe"}, "-T persona_models: got 'maybe'; expected true or false."),
        ({"empty_retries": -1}, "-T empty_retries: got -1; expected an integer"),
        ({"deliberation": {"final_budget": 9}}, "-T deliberation: a form this package no"),
    ],
)
def test_the_panel_task_names_a_bad_value_as_typed(given: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        panel(task="Now or later?", **given)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"seed": 3}, "-S seed: a form this package no longer takes; expected Inspect's own"),
        ({"empty_retries": "x"}, "-S empty_retries: got 'x'; expected an integer of at least 0."),
        ({"final_budget": 0}, "-S final_budget: got 0; expected an integer of at least 1."),
        ({"send_effort": "maybe"}, "-S send_effort: got 'maybe'; expected true or false."),
        ({"protocol": True}, "-S protocol: YAML read the value as True; expected a string"),
    ],
)
def test_the_deliberate_solver_names_a_bad_value_with_its_flag(
    given: dict[str, object], message: str
) -> None:
    """The solver's run and deliberation settings go through the same groups as the
    tasks', named as `-S` arguments."""
    with pytest.raises(ConfigError) as caught:
        deliberate(**given)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)
