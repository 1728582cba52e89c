"""The run settings are one group whose flat form is the documented one: `-T probe=false`
is taken with no message, `-T run="{probe: false}"` gives the same, and a bad value
names the option as typed."""

from __future__ import annotations

import logging

import pytest

from debatebench_eval.cli import surface
from debatebench_eval.cli.main import main
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import task_taker
from debatebench_eval.core.run_options import RUN_KEYS, RunOptions, run_options
from debatebench_eval.debate.task import debate
from debatebench_eval.interop.judge_task import judge
from debatebench_eval.judging.options import JudgingOptions

TAKER = task_taker("t", ("other",))


def test_flat_keys_are_taken_with_no_message(caplog: pytest.LogCaptureFixture) -> None:
    flat = {"seed": "3", "probe": "false", "judge_budget": 100}
    with caplog.at_level(logging.WARNING):
        run = run_options(flat, TAKER)
    assert (run.seed, run.probe) == (3, False)
    assert flat == {"judge_budget": 100}  # left for the other groups
    assert not caplog.records


def test_a_group_that_is_not_flat_primary_still_names_its_form(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING):
        JudgingOptions.gather(None, {"judge_budget": 100}, TAKER)
    assert 'judging="{judge_budget: ...}"' in caplog.text


def test_the_group_form_gives_the_same() -> None:
    assert run_options({"run": {"seed": 3, "probe": False}}, TAKER) == run_options(
        {"seed": 3, "probe": False}, TAKER
    )


def test_defaults_fill_what_is_not_given() -> None:
    run = run_options({}, TAKER, defaults={"timeout": 30})
    assert (run.seed, run.timeout, run.empty_retries, run.probe) == (None, 30, 2, True)
    assert RunOptions.option_keys() == RUN_KEYS


@pytest.mark.parametrize(
    ("flat", "message"),
    [
        ({"seed": -1}, "-T seed: got -1; expected an integer of at least 0."),
        ({"run": {"probe": "maybe"}}, "-T run.probe: got 'maybe'; expected true or false."),
        ({"empty_retries": "x"}, "-T empty_retries: got 'x'; expected an integer of at least 0."),
        (
            {"run": {"prob": 1}},
            "-T run.prob: unknown key(s) prob; expected one of seed, timeout, empty_retries",
        ),
        ({"run": {"seed": 1}, "seed": 2}, "-T seed: given also as -T run.seed; expected each"),
        ({"run": 3}, '-T run: got 3; expected a mapping such as -T run="{seed: ...}"'),
    ],
)
def test_a_bad_value_names_the_option_as_typed(flat: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        run_options(flat, TAKER)
    assert str(caught.value).startswith(message)


def test_a_task_reads_only_the_keys_it_has() -> None:
    """The judge task makes no debater call: `seed` is not one of its settings."""
    with pytest.raises(ConfigError, match=r"-T seed: unknown argument\(s\) seed for task judge"):
        judge(transcripts="x", seed=3)
    only_probe = r"-T run.seed: unknown key\(s\) seed; expected one of probe"
    with pytest.raises(ConfigError, match=only_probe):
        judge(transcripts="x", run={"seed": 3})


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"probe": "maybe"}, "-T probe: got 'maybe'; expected true or false."),
        ({"run": {"timeout": 0}}, "-T run.timeout: got 0; expected an integer of at least 1."),
        ({"seed": -2}, "-T seed: got -2; expected an integer of at least 0."),
    ],
)
def test_the_debate_task_reads_its_run_settings_from_the_group(
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
        ("crucible", ("seed", "timeout", "probe")),
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
