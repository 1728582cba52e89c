"""The run settings are one group, each key an option of its own (`-T probe=false`,
taken with no message); a bad value names the option as typed. The seed and the
timeout are Inspect's own (`--seed`, `--timeout`)."""

from __future__ import annotations

import logging

import pytest

from debatebench_eval.cli import surface
from debatebench_eval.cli.main import main
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import task_taker
from debatebench_eval.core.run_options import RUN_KEYS, RunOptions, run_options
from debatebench_eval.debating.task import debate
from debatebench_eval.interop.judge_task import judge

TAKER = task_taker("t", ("other",))


def test_flat_keys_are_taken_with_no_message(caplog: pytest.LogCaptureFixture) -> None:
    flat = {"empty_retries": "3", "probe": "false", "judge_budget": 100}
    with caplog.at_level(logging.WARNING):
        run = run_options(flat, TAKER)
    assert (run.empty_retries, run.probe) == (3, False)
    assert flat == {"judge_budget": 100}  # left for the other groups
    assert not caplog.records


def test_defaults_fill_what_is_not_given() -> None:
    run = run_options({}, TAKER, defaults={"empty_retries": 5})
    assert (run.empty_retries, run.probe) == (5, True)
    assert RunOptions.option_keys() == RUN_KEYS == ("empty_retries", "probe")


@pytest.mark.parametrize(
    ("flat", "message"),
    [
        ({"probe": "maybe"}, "-T probe: got 'maybe'; expected true or false."),
        ({"empty_retries": "x"}, "-T empty_retries: got 'x'; expected an integer of at least 0."),
    ],
)
def test_a_bad_value_names_the_option_as_typed(flat: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        run_options(flat, TAKER)
    assert str(caught.value).startswith(message)


def test_a_task_reads_only_the_keys_it_has() -> None:
    """The judge task makes no debater call: `empty_retries` is not one of its settings."""
    with pytest.raises(ConfigError, match=r"-T empty_retries: unknown argument\(s\) empty_retries"):
        judge(transcripts="x", empty_retries=3)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"probe": "maybe"}, "-T probe: got 'maybe'; expected true or false."),
        ({"empty_retries": -1}, "-T empty_retries: got -1; expected an integer of at least 0."),
        ({"seed": 3}, "-T seed: a form this package no longer takes; expected Inspect's own"),
        ({"timeout": 30}, "-T timeout: a form this package no longer takes; expected Inspect's"),
    ],
)
def test_the_debate_task_reads_its_run_settings_as_options(
    given: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        debate(**given)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("task", "keys"),
    [
        ("debate", RUN_KEYS),
        ("panel", (*RUN_KEYS, "protocol", "final_budget", "workspace")),
        ("crucible", ("probe",)),
        ("judge", ("probe",)),
        ("fact_check_validation", ("probe",)),
    ],
)
def test_every_task_page_and_listing_shows_each_key_it_takes(
    task: str, keys: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    item = surface.by_name("task")[f"debatebench/{task}"]
    assert set(keys) <= {option.name for option in item.options()}
    assert set(keys) <= item.option_names()
    main(["list"])
    listed = capsys.readouterr().out.split(f"{item.name} options:", 1)[1].split(" options:")[0]
    assert all(f"{key}: " in listed for key in keys)
