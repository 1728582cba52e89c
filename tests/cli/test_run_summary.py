"""The terminal after a run: every failed sample and unscored sample with its reason,
whatever the display mode and whichever of the package's tasks ran; how to rerun the
quickstart by hand."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.cli.main import QUICKSTART_ARGS, _again

from support.commands import run_inspect
from support.stub_server import StubServer

DEBATE = ["eval", "debatebench/debate", "--model", "ollama/stub", "--limit", "2",
          "-T", "phases=[opening]", "-T", "fact_check=false"]  # fmt: skip


@pytest.mark.parametrize("display", ["none", "plain"])
def test_unscored_debates_are_listed_with_their_reasons(display: str, tmp_path: Path) -> None:
    with StubServer() as stub:  # its speech is no judgment: both debates go unscored
        result = run_inspect(DEBATE, stub.base_url, tmp_path, display)
    err = result.stderr
    assert result.returncode == 0
    assert "debatebench: debatebench/debate (" in err
    assert "  2 of 2 samples unscored by rubric:" in err
    assert "    carbon-tax: 0 of 1 judges gave a valid score, 1 needed: reading 1 (Side A" in err
    assert "failed" not in err


def test_a_validation_run_lists_the_speeches_its_judge_could_not_rate(tmp_path: Path) -> None:
    args = ["eval", "debatebench/judge_validation", "--model", "ollama/stub", "--limit", "2"]
    with StubServer() as stub:  # its speech is no rating
        err = run_inspect(args, stub.base_url, tmp_path, "none").stderr
    assert "debatebench: debatebench/judge_validation (" in err
    assert "  2 of 2 samples unscored by speech_rating:" in err


@pytest.mark.parametrize(
    ("scorer", "value", "unscored"),
    [
        ("rubric", math.nan, True),
        ("rubric", {"pro_total": 30.0}, False),
        ("speech_rating", {"rating": math.nan, "human_mean": 3.0}, True),
        ("speech_rating", {"rating": 4.0, "human_mean": 3.0}, False),
        ("planted_claims", {"parsed": 0.0, "planted": 6.0}, True),
        ("rubric_sensitivity", {"parsed": 1.0}, False),
        ("outcome", {"decided": 0.0}, True),
        ("outcome", {"decided": 1.0}, False),
    ],
)
def test_each_scorers_no_reading_is_unscored(scorer: str, value: Any, unscored: bool) -> None:
    from debatebench_eval.judging.run_summary import _unscored

    assert _unscored(scorer, value) is unscored


def test_failed_samples_are_listed_with_their_errors(tmp_path: Path) -> None:
    with StubServer() as stub:
        dead = stub.base_url
    err = run_inspect(DEBATE, dead, tmp_path, "none").stderr
    assert "  2 of 2 samples failed:" in err and "did not answer" in err


@pytest.mark.embedded_model  # the command names the weights' file
def test_the_quickstart_says_how_to_run_it_again_by_hand() -> None:
    text = _again(["eval", "debatebench/debate", *QUICKSTART_ARGS])
    assert "-m llama_cpp.server --model " in text and "--model_alias smollm2" in text
    assert "--port 8080" in text and "--n_ctx 4096" in text
    assert "OLLAMA_BASE_URL=http://127.0.0.1:8080/v1 inspect eval debatebench/debate" in text
