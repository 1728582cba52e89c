"""The terminal after a run: every failed sample and unscored debate with its reason,
whatever the display mode; how to rerun the quickstart by hand."""

from __future__ import annotations

from pathlib import Path

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
    assert "  2 of 2 debates unscored by rubric:" in err
    assert "    carbon-tax: 0 of 1 judges gave a valid score, 1 needed: reading 1 (Side A" in err
    assert "failed" not in err


def test_failed_samples_are_listed_with_their_errors(tmp_path: Path) -> None:
    with StubServer() as stub:
        dead = stub.base_url
    err = run_inspect(DEBATE, dead, tmp_path, "none").stderr
    assert "  2 of 2 samples failed:" in err and "did not answer" in err


def test_the_quickstart_says_how_to_run_it_again_by_hand() -> None:
    text = _again(["eval", "debatebench/debate", *QUICKSTART_ARGS])
    assert "-m llama_cpp.server --model " in text and "--model_alias smollm2" in text
    assert "--port 8080" in text and "--n_ctx 4096" in text
    assert "OLLAMA_BASE_URL=http://127.0.0.1:8080/v1 inspect eval debatebench/debate" in text
