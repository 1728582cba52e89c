"""Command-line runs: the real `inspect eval` and the real `ollama/` provider
against a loopback stub server, and the project's own command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

from debatebench_eval.judging.figures import figures_of
from debatebench_eval.record.store import DebateRecord

from support.stub_server import StubBehaviour, StubServer

INSPECT = str(Path(sys.executable).parent / "inspect")


def inspect_eval(args: list[str], base_url: str, log_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "OLLAMA_BASE_URL": base_url,
        "INSPECT_LOG_DIR": str(log_dir),
        "NO_COLOR": "1",
    }
    return subprocess.run(
        [INSPECT, "eval", "debatebench/debate", "--display", "plain", *args],
        env=env, capture_output=True, text=True, timeout=240,
    )  # fmt: skip


def only_log(log_dir: Path):  # type: ignore[no-untyped-def]
    logs = list_eval_logs(str(log_dir))
    assert len(logs) == 1
    return read_eval_log(logs[0].name)


def test_debate_from_the_command_line_records_a_complete_transcript(tmp_path: Path) -> None:
    with StubServer() as stub:
        result = inspect_eval(
            ["--model", "ollama/stub", "--model-role", "con=ollama/stub-con", "--limit", "2",
             "-T", "phases=[opening:short, rebuttal:long, conclusion:short]",
             "-T", "budget={con: 20}",
             "--temperature", "0.4", "--seed", "5"],
            stub.base_url, tmp_path,
        )  # fmt: skip
        requests = list(stub.behaviour.requests)
    assert result.returncode == 0, result.stderr
    log = only_log(tmp_path)
    assert log.status == "success" and len(log.samples or []) == 2
    for sample in log.samples or []:
        record = sample.store_as(DebateRecord)
        assert record.complete and len(record.turns) == 6
        assert all(turn.text for turn in record.turns)
        con = [t for t in record.turns if t.side == "con"]
        assert all(t.budget == 20 and t.hit_budget and t.finish_reason == "max_tokens" for t in con)
        assert {t.model for t in con} == {"stub-con"}
    debaters = [r for r in requests if "debater in a formal" in r["messages"][0]["content"]]
    assert len(debaters) == 12
    assert {r["model"] for r in debaters} == {"stub", "stub-con"}
    # Command-line generate settings reach the role model too.
    assert {r.get("temperature") for r in requests} == {0.4}
    assert {r["max_tokens"] for r in debaters if r["model"] == "stub-con"} == {20}
    # The judge (the main model here) asked for JSON by schema; the stub's prose
    # is unusable, so after one repair each the samples are unscored, not zero.
    judged = [r for r in requests if r not in debaters]
    assert judged and all(r["response_format"]["type"] == "json_schema" for r in judged)
    for sample in log.samples or []:
        rubric = (sample.scores or {})["rubric"]
        assert rubric.reason and "not valid JSON" in rubric.reason
        assert rubric.metadata and rubric.metadata["readings"][0]["orientations"][0]["repairs"] == 1


def test_unreachable_server_fails_fast_naming_its_url(tmp_path: Path) -> None:
    with StubServer() as closed:  # a port that was just listening, now closed
        dead = closed.base_url
    result = inspect_eval(
        ["--model", "ollama/stub", "--limit", "1", "-T", "phases=[opening]"], dead, tmp_path
    )
    log = only_log(tmp_path)
    error = (log.samples or [])[0].error
    assert error is not None and dead in error.message and "did not answer" in error.message
    # A failed debate does not fail Inspect's run (the others would go on): exit 0,
    # the failure listed on stderr and the last line saying nothing was scored.
    assert result.returncode == 0 and "FAILED:" in result.stderr
    assert result.stderr.rstrip().splitlines()[-1].startswith("debatebench: NOTHING WAS SCORED")


def test_bad_task_argument_is_one_message_without_traceback(tmp_path: Path) -> None:
    result = inspect_eval(
        ["--model", "ollama/stub", "-T", "budgt=100"], "http://unused/v1", tmp_path
    )
    assert result.returncode != 0
    assert "-T budgt: unknown argument(s) budgt for task debate" in result.stderr + result.stdout
    assert "Traceback" not in result.stderr + result.stdout


def test_empty_speech_from_the_server_fails_the_samples(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(empty=True)) as stub:
        inspect_eval(
            [
                "--model",
                "ollama/stub",
                "--limit",
                "1",
                "-T",
                "phases=[opening]",
                "-T",
                "empty_retries=1",
            ],
            stub.base_url,
            tmp_path,
        )
        assert len(stub.behaviour.requests) == 2
    sample = (only_log(tmp_path).samples or [])[0]
    assert sample.error is not None and "phase 0 (opening:medium), side pro" in sample.error.message


def test_project_command_lists_tasks_and_scorers() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "debatebench_eval", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "debatebench/debate" in result.stdout and "debatebench/turn_stats" in result.stdout
    assert "export" in result.stdout


def test_eval_retry_completes_failed_debates_once_the_server_recovers(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(empty=True)) as stub:
        args = [
            "--model",
            "ollama/stub",
            "--limit",
            "2",
            "-T",
            "phases=[opening]",
            "-T",
            "empty_retries=0",
        ]
        inspect_eval(args, stub.base_url, tmp_path)
        failed = only_log(tmp_path)
        assert all(sample.error is not None for sample in failed.samples or [])
        stub.behaviour.empty = False
        env = {
            **os.environ,
            "OLLAMA_BASE_URL": stub.base_url,
            "INSPECT_LOG_DIR": str(tmp_path / "retry"),
        }
        result = subprocess.run(
            [INSPECT, "eval-retry", failed.location, "--display", "plain"],
            env=env, capture_output=True, text=True, timeout=240,
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    retried = only_log(tmp_path / "retry")
    assert retried.status == "success"
    assert sorted(str(s.id) for s in retried.samples or []) == sorted(
        str(s.id) for s in failed.samples or []
    )
    assert all(s.error is None and s.store_as(DebateRecord).complete for s in retried.samples or [])


def test_inspect_score_rejudges_a_saved_log_with_another_judge_role(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(fill_schemas=True)) as stub:
        first = inspect_eval(
            ["--model", "ollama/stub", "--model-role", "judge=ollama/judge-one", "--limit", "1",
             "-T", "format=lightning", "-T", "fact_check=false"],
            stub.base_url, tmp_path / "logs",
        )  # fmt: skip
        assert first.returncode == 0, first.stderr
        log_file = list_eval_logs(str(tmp_path / "logs"))[0].name
        rejudged = tmp_path / "rejudged.eval"
        second = subprocess.run(
            [INSPECT, "score", log_file, "--scorer", "debatebench/rubric",
             "--model-role", "judge=ollama/judge-two", "--action", "append",
             "--output-file", str(rejudged), "--display", "plain"],
            env={**os.environ, "OLLAMA_BASE_URL": stub.base_url, "NO_COLOR": "1"},
            capture_output=True, text=True, timeout=240,
        )  # fmt: skip
        judged_by = [
            r["model"] for r in stub.behaviour.requests if "response_format" in r
        ]  # judge calls only
    assert second.returncode == 0, second.stderr
    scores = (read_eval_log(str(rejudged)).samples or [])[0].scores or {}
    # The original judgment is kept; the re-judge is appended under a new name.
    assert scores["rubric"].metadata["judges"] == ["ollama/judge-one"]
    assert scores["rubric1"].metadata["judges"] == ["ollama/judge-two"]
    assert figures_of(scores["rubric1"])["judges"] == 1
    assert judged_by.count("judge-two") == 2  # both orientations


def test_a_debate_with_prep_on_the_shipped_pool(tmp_path: Path) -> None:
    with StubServer() as stub:
        result = inspect_eval(
            ["--model", "ollama/stub", "--sample-id", "carbon-tax", "-T", "fact_check=false",
             "-T", "phases=[prep, opening, conclusion]", "-T", "sources=[example]",
             "-T", "prep_budget=30"],
            stub.base_url, tmp_path,
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    sample = (only_log(tmp_path).samples or [])[0]
    record = sample.store_as(DebateRecord)
    assert record.complete and {p.side for p in record.passages} == {"pro", "con"}
    prep = [t for t in record.turns if t.phase == "prep"]
    assert len(prep) == 2 and all(t.text and t.budget == 30 for t in prep)
    spoken = [t for t in record.turns if t.phase != "prep"]
    assert all(t.cited_ids == ["P1"] for t in spoken)
    assert {t.side for t in spoken if t.citation_problems} == {"con"}  # P1 is pro's


def test_the_quickstart_checks_turns_against_the_embedded_context() -> None:
    from debatebench_eval.cli.embedded import CONTEXT_TOKENS
    from debatebench_eval.cli.main import QUICKSTART_ARGS

    assert f"context_window={CONTEXT_TOKENS}" in QUICKSTART_ARGS
