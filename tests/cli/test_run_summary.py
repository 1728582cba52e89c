"""The terminal after a run: every failed sample and unscored sample with its reason,
whatever the display mode and whichever of the package's tasks ran; how to rerun the
quickstart by hand."""

from __future__ import annotations

import hashlib
import math
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalSampleSummary
from inspect_ai.scorer import Score

from debatebench_eval.cli.main import QUICKSTART_ARGS, _again, _judged
from debatebench_eval.judging.run_summary import WIDTH, shorten, unscored_lines, verdict_line

from support.commands import INSPECT, run_inspect
from support.stub_server import StubBehaviour, StubServer

DEBATE = ["eval", "debatebench/debate", "--model", "ollama/stub", "--limit", "2",
          "-T", "phases=[opening]", "-T", "fact_check=false"]  # fmt: skip


@pytest.mark.parametrize("display", ["none", "plain"])
def test_unscored_debates_are_listed_with_their_reasons(
    display: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with StubServer() as stub:  # its speech is no judgment: both debates go unscored
        result = run_inspect(DEBATE, stub.base_url, tmp_path, display)
    err = result.stderr
    assert result.returncode == 0  # Inspect's own command; the project's commands exit 1
    assert "debatebench: debatebench/debate (" in err
    assert "  0 of 2 debates scored:" in err
    assert "    carbon-tax: UNSCORED: 0 of 1 judges gave a valid score, 1 needed: reading 1" in err
    assert "failed" not in err.lower()
    assert "Headline" not in result.stdout + err  # the headline is found, scored or not
    assert err.rstrip().splitlines()[-1] == (
        "debatebench: NOTHING WAS SCORED: 0 of 2 samples of this run were scored "
        "(each reason is above)"
    )
    # The project's own commands exit 1 on such a run, saying so last.
    assert _judged(str(tmp_path), set()) == 1
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == (
        "debatebench-eval quickstart: nothing was scored: 0 of 2 samples (each reason is "
        "listed above); the debate itself is in the log"
    )


def test_the_summary_starts_a_line_of_its_own_in_output_captured_whole(tmp_path: Path) -> None:
    # `2>&1` into a file, as CI keeps a run's output: Inspect's full display leaves its
    # last stdout line unended (80 spaces of padding) where the summary would go on.
    with StubServer() as stub:
        env = {**os.environ, "OLLAMA_BASE_URL": stub.base_url, "NO_COLOR": "1"}
        result = subprocess.run(
            [INSPECT, *DEBATE, "--log-dir", str(tmp_path), "--display", "full"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600,
        )  # fmt: skip
    merged = result.stdout
    starts = [found.start() for found in re.finditer("debatebench: ", merged)]
    assert len(starts) == 2  # the log's heading and the last line (nothing was scored)
    assert all(merged[start - 1] == "\n" for start in starts), merged[starts[0] - 90 :]


def test_each_scored_debate_gets_its_winner_margin_tier_and_trust(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(fill_schemas=True)) as stub:  # a judge that always parses
        result = run_inspect(DEBATE, stub.base_url, tmp_path, "plain")
    err = result.stderr
    assert "  2 of 2 debates scored:" in err
    # Both sides tie on the stub's scores, so the coin toss names either side.
    assert re.search(
        r"\n    carbon-tax: ollama/stub won as (PRO|CON) by 0\.0 of 100 \(tie, coin toss\) · "
        r"UNRESOLVED · judge identity unverifiable\n",
        err,
    )
    assert "NOTHING" not in err and "Headline" not in result.stdout + err
    assert _judged(str(tmp_path), set()) == 0
    # A figure one judge cannot give (agreement) is not a `nan` row of the table.
    assert "panel_alpha" not in result.stdout and "win_rate" in result.stdout


def test_a_constant_judge_says_which_figures_are_undefined_and_why(tmp_path: Path) -> None:
    args = ["eval", "debatebench/judge_validation", "--model", "ollama/stub", "--limit", "40"]
    with StubServer(StubBehaviour(reply="<score>3</score>")) as stub:
        result = run_inspect(args, stub.base_url, tmp_path, "plain")
    out = result.stdout + result.stderr
    assert "raised on an empty sample set" not in out and "Headline" not in out
    assert (
        "  undefined: tau_c, tau_c_low, tau_c_high, tau_b, within_source_tau, "
        "within_topic_tau: the judge gave all 40 rated speeches the same score (3): a constant "
        "ranks nothing"
    ) in result.stderr
    assert "tau_b" not in result.stdout and "parse_rate" in result.stdout


def test_a_validation_run_lists_the_speeches_its_judge_could_not_rate(tmp_path: Path) -> None:
    args = ["eval", "debatebench/judge_validation", "--model", "ollama/stub", "--limit", "2"]
    with StubServer() as stub:  # its speech is no rating
        err = run_inspect(args, stub.base_url, tmp_path, "none").stderr
    assert "debatebench: debatebench/judge_validation (" in err
    assert "  speech-rating failed on all 2 samples (none scored):" in err


def test_a_scorer_that_failed_on_every_debate_says_so() -> None:
    def sample(n: int, fact_check: Score) -> EvalSampleSummary:
        scores = {"rubric": Score(value={"pro_total": 30.0}), "fact_check": fact_check}
        return EvalSampleSummary(id=f"d{n}", epoch=1, input="", target="", scores=scores)

    failed = [sample(n, Score.unscored(reason="no ledger")) for n in range(3)]
    assert unscored_lines(failed, skip="rubric")[0] == (
        "  fact-check failed on all 3 samples (none scored):"
    )
    some = [*failed[:2], sample(2, Score(value={"pro_contradicted": 0.0}))]
    assert unscored_lines(some, skip="rubric")[0] == "  2 of 3 samples unscored by fact_check:"


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
    assert "  0 of 2 debates scored:" in err and ": FAILED: " in err and "did not answer" in err


@pytest.mark.embedded_model  # the command names the weights' file
def test_the_quickstart_says_how_to_run_it_again_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from debatebench_eval.cli import embedded

    weights = tmp_path / "model.gguf"  # the quickstart ran on real weights; any file here
    weights.write_bytes(b"weights")
    monkeypatch.setattr(embedded, "gguf_path", lambda: weights)
    text = _again(["eval", "debatebench/debate", *QUICKSTART_ARGS])
    assert "-m llama_cpp.server --model " in text and "--model_alias smollm2" in text
    assert "--port 8080" in text and "--n_ctx 4096" in text
    # The judge keeps the identity the quickstart gave it, so its trust record still matches.
    sha = hashlib.sha256(b"weights").hexdigest()
    assert (
        f"DEBATEBENCH_JUDGE_FINGERPRINT=http://127.0.0.1:8080/v1=sha256:{sha} "
        "OLLAMA_BASE_URL=http://127.0.0.1:8080/v1 inspect eval debatebench/debate"
    ) in text


def test_a_long_reason_is_cut_in_its_middle_keeping_what_to_change() -> None:
    said = "x" * 400
    reason = (
        "reading 1 (Side A = PRO) by ollama/j: the prompt and the judge budget do not fit the "
        f"judge's context window (the server said: {said}); lower -T judge_budget"
    )
    short = shorten(reason)
    assert len(short) <= WIDTH
    assert short.startswith("reading 1 (Side A = PRO) by ollama/j: the prompt and the judge")
    assert short.endswith(" …; lower -T judge_budget")
    assert (
        shorten("a short reason; lower -T judge_budget") == "a short reason; lower -T judge_budget"
    )
    assert shorten("y" * 500).endswith("…") and len(shorten("y" * 500)) <= WIDTH


@pytest.mark.parametrize(
    ("meta", "line"),
    [
        ({"winner": "pro", "winner_model": "ollama/a", "margin": 17.5, "margin_tier": "RESOLVED",
          "winner_reason": "total", "trust": {"status": "trusted"}},
         "ollama/a won as PRO by 17.5 of 100 · RESOLVED · judge trusted"),
        ({"winner": "con", "winner_model": "ollama/b", "margin": 0.0, "margin_tier": "UNRESOLVED",
          "winner_reason": "steelman_tiebreak", "trust": "Key removed from summary (> 1k)"},
         "ollama/b won as CON by 0.0 of 100 (tie, broken on steelman) · UNRESOLVED · "
         "judge trust not in the summary (see the log)"),
        ({"winner": "tie", "winner_model": None, "margin": 8.0, "margin_tier": "UNRESOLVED",
          "winner_reason": "swap_disagreed", "trust": {"status": "unvalidated"}},
         "a tie: the swapped readings named different winners (swap_rule=survive; the mean "
         "was 8.0 of 100) · UNRESOLVED · judge unvalidated"),
    ],
)  # fmt: skip
def test_a_debates_line_names_the_winning_model_side_margin_tier_and_trust(
    meta: dict[str, Any], line: str
) -> None:
    assert verdict_line(meta) == line
