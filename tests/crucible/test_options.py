"""Task options: each checked with one message naming it, over the topic file's switches."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai.log import EvalLog

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.run_options import RunOptions
from debatebench_eval.truth_crucible.options import debate_options, early_stop, scoring_options
from debatebench_eval.truth_crucible.record import CrucibleRecord
from debatebench_eval.truth_crucible.task import crucible

from support.crucible_replies import FIXTURE_TOPIC, CrucibleScript

Run = Callable[..., EvalLog]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"claims": 11}, "-T claims: got 11; expected an integer from 1 to 10."),
        ({"claims": 0}, "-T claims: got 0; expected an integer of at least 1."),
        ({"rounds": 7}, "-T rounds: got 7; expected an integer from 0 to 6."),
        ({"judges": 10}, "-T judges: got 10; expected an integer from 1 to 9."),
        ({"queries": 6}, "-T queries: got 6; expected an integer from 0 to 5."),
        ({"hits": 0}, "-T hits: got 0; expected an integer of at least 1."),
        ({"neutralize": "loud"}, "-T neutralize: got 'loud'; expected off, diagnose or rewrite."),
        ({"early_stop": 1.5}, "-T early_stop: got 1.5; expected a number of points from 0 to 1."),
        ({"judge_quorum": 4}, "-T judge_quorum: 4 is above judges 3"),
        (
            {"judge_schema": "yaml"},
            "-T judge_schema: got 'yaml'; expected auto, true, false or object.",
        ),
        ({"steelman": "maybe"}, "-T steelman: got 'maybe'; expected true or false."),
        ({"bogus": 1}, "-T bogus: unknown argument(s) bogus for task crucible"),
        ({"topic": "missing.yaml"}, "missing.yaml: file not found"),
    ],
)
def test_a_bad_option_is_one_message_naming_it(args: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        crucible(**args)  # type: ignore[arg-type]
    assert message in str(caught.value)


def test_values_arrive_as_the_command_line_gives_them() -> None:
    given = {"claims": "4", "steelman": "false", "neutralize": False}
    options = debate_options(given, {}, RunOptions())
    assert (options.claims, options.steelman, options.neutralize) == (4, False, "off")
    assert early_stop("none") is None and early_stop(0) is None and early_stop(None) == 0.8
    assert scoring_options({"judge_schema": False}).judge_schema == "false"


def test_command_line_options_override_the_topic_file(tmp_path: Path, run_crucible: Run) -> None:
    shutil.copytree(FIXTURE_TOPIC.parent, tmp_path / "t")
    topic = tmp_path / "t" / "topic.yaml"
    data = yaml.safe_load(topic.read_text())
    data["scoring"] = {"judge_count": 2, "enable_meta_judge": False}
    data["protocol"] = {"enable_position_swap": True}
    topic.write_text(yaml.safe_dump(data))
    from_file = run_of(run_crucible(CrucibleScript(), topic=str(topic), judges=None))
    assert (from_file["position_swap"], from_file["scoring"]["judges"]) == (True, 2)
    assert from_file["scoring"]["meta_judge"] is False
    given = run_of(run_crucible(CrucibleScript(), topic=str(topic), judges=1, position_swap=False))
    assert (given["position_swap"], given["scoring"]["judges"]) == (False, 1)


def test_a_quorum_is_checked_against_the_topic_files_judges(tmp_path: Path) -> None:
    """The scorer the task builds checks nothing again: a quorum that the topic file's
    judge_count allows is not refused against the built-in three judges."""
    shutil.copytree(FIXTURE_TOPIC.parent, tmp_path / "t")
    topic = tmp_path / "t" / "topic.yaml"
    data = yaml.safe_load(topic.read_text())
    data["scoring"] = {"judge_count": 5}
    topic.write_text(yaml.safe_dump(data))
    task = crucible(topic=str(topic), judge_quorum=4)
    assert task.dataset[0].id == "t"
    with pytest.raises(ConfigError, match=r"^-T judge_quorum: 6 is above judges 5"):
        crucible(topic=str(topic), judge_quorum=6)


def run_of(log: EvalLog) -> dict[str, Any]:
    sample = (log.samples or [])[0]
    assert sample.error is None, sample.error
    run = sample.store_as(CrucibleRecord).run
    assert run is not None
    assert sample.scores["crucible_score"].value["judges"] == run.options["scoring"]["judges"]  # type: ignore[index]
    return run.options
