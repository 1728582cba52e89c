"""Deliberations from the command line: the real `inspect eval` and the real
`ollama/` provider against the loopback stub server, the echo provider with no
server at all, and the project's init / new / export commands."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from debatebench_eval.protocols.record import DeliberationRecord

from support.deliberation import DONE
from support.paths import FIXTURES
from support.stub_server import StubBehaviour, StubServer

BIN = Path(sys.executable).parent
DEAD = "http://127.0.0.1:9/v1"  # nothing listens there


def command(
    args: list[str], cwd: Path, base_url: str = DEAD, program: str = "inspect"
) -> subprocess.CompletedProcess[str]:
    # Wide columns: Inspect wraps its messages at the terminal's width.
    env = {**os.environ, "OLLAMA_BASE_URL": base_url, "NO_COLOR": "1", "COLUMNS": "400"}
    extra = ["--log-dir", str(cwd / "logs"), "--display", "plain"] if args[0] == "eval" else []
    return subprocess.run(
        [str(BIN / program), *args, *extra],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def only_log(folder: Path):  # type: ignore[no-untyped-def]
    logs = list_eval_logs(str(folder / "logs"))
    assert len(logs) == 1
    return read_eval_log(logs[0].name)


def prompt_of(request: dict[str, Any]) -> str:
    return str(request["messages"][-1]["content"])


def panel_replies(request: dict[str, Any]) -> str | None:
    if "Synthesize the debate" in prompt_of(request):
        return (
            "Defer the migration one quarter.\nANSWER: 60"
            if "rolls" in prompt_of(request)
            else ("Defer the migration one quarter.")
        )
    if "12 rolls" in prompt_of(request):
        return f"ANSWER: 60\n\n{DONE}"
    return f"Agreed.\n\n{DONE}"


def test_a_panel_from_the_command_line(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(script=panel_replies)) as stub:
        result = command(
            ["eval", "debatebench/panel", "-T", "task=Should we migrate to Postgres now or defer?",
             "--model", "ollama/stub", "--model-role", "synthesizer=ollama/stub-synth"],
            tmp_path, stub.base_url,
        )  # fmt: skip
        requests = list(stub.behaviour.requests)
    assert result.returncode == 0, result.stderr
    log = only_log(tmp_path)
    record = (log.samples or [])[0].store_as(DeliberationRecord)
    assert record.complete and record.outcome is not None
    assert (record.outcome.stop_reason, record.outcome.rounds) == ("settled", 2)
    assert record.outcome.answer == "Defer the migration one quarter."
    assert [r["model"] for r in requests] == ["stub"] * 4 + ["stub-synth"]
    assert [r["max_tokens"] for r in requests] == [1000] * 4 + [2000]
    assert all("Should we migrate to Postgres now or defer?" in prompt_of(r) for r in requests)
    heurema = command(["export", log.location, "--format", "heurema", "-o", "out"], tmp_path,
                      program="debatebench-eval")  # fmt: skip
    assert heurema.returncode == 0, heurema.stderr
    result_json = json.loads((tmp_path / "out" / "panel_1.heurema.json").read_text())
    assert result_json["outcome"] == "settled" and len(result_json["turns"]) == 4


def test_adjudication_from_the_command_line_and_its_ar_debate_record(tmp_path: Path) -> None:
    (tmp_path / "proposal.md").write_text("Measure teacher burnout with one survey item.\n")
    with StubServer(StubBehaviour(fill_schemas=True)) as stub:
        result = command(
            ["eval", "debatebench/adjudicate", "-T", "proposal=proposal.md",
             "-T", "debate_type=method_fit", "--model", "ollama/stub"],
            tmp_path, stub.base_url,
        )  # fmt: skip
        requests = list(stub.behaviour.requests)
    assert result.returncode == 0, result.stderr
    judged = [r for r in requests if "response_format" in r]
    assert len(judged) == 1 and len(requests) == 9
    record = (only_log(tmp_path).samples or [])[0].store_as(DeliberationRecord)
    assert record.outcome is not None and record.outcome.answer == "accept"
    exported = command(
        ["export", only_log(tmp_path).location, "--format", "ar-debate"], tmp_path,
        program="debatebench-eval",
    )  # fmt: skip
    assert exported.returncode == 0, exported.stderr
    folder = tmp_path / "analysis" / "debate_logs"
    (decision,) = folder.glob("method_fit_*_*.json")
    data = json.loads(decision.read_text())
    assert (
        re.fullmatch(r"dbt-[0-9a-f]{8}", data["debate_id"]) and data["final_decision"] == "accept"
    )
    assert data["confidence"] == 0.5 and list(data["transcript"]) == [
        "round_1",
        "round_2",
        "round_3",
    ]
    assert len(list(folder.glob("method_fit_round*_*.md"))) == 8


def math_replies(request: dict[str, Any]) -> str | None:
    prompt = prompt_of(request)
    answer = "60" if "12 rolls" in prompt else "12"
    if "Synthesize the debate" in prompt:
        return f"Both agree.\nANSWER: {answer}"
    return f"ANSWER: {answer}\n\n{DONE}"


def test_deliberate_as_the_solver_of_a_stock_task(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(script=math_replies)) as stub:
        result = command(
            ["eval", f"{FIXTURES / 'stock_task.py'}@stock_math",
             "--solver", "debatebench/deliberate", "-S", "protocol=panel", "-S", "rounds=2",
             "--model", "ollama/stub"],
            tmp_path, stub.base_url,
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    log = only_log(tmp_path)
    assert log.eval.solver == "debatebench/deliberate"
    samples = log.samples or []
    assert len(samples) == 2 and all(s.scores["match"].value == "C" for s in samples)  # type: ignore[index]
    assert all(s.store_as(DeliberationRecord).outcome.rounds == 2 for s in samples)  # type: ignore[union-attr]


def test_the_echo_provider_needs_no_server(tmp_path: Path) -> None:
    result = command(
        ["eval", "debatebench/panel", "-T", "task=Ship it?", "--model", "debatebench-echo/smoke"],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    record = (only_log(tmp_path).samples or [])[0].store_as(DeliberationRecord)
    assert record.outcome is not None and record.outcome.stop_reason == "settled"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["debatebench/panel", "-T", "task_file=plan.md"], "-T task_file: file not found:"),
        (["debatebench/panel", "-T", "task=T", "-T", "with=proposer,"],
         "-T with: an empty persona selector in 'proposer,'"),
        (["debatebench/panel", "-T", "task=T", "-T", "rounds=0"], "-T rounds: got 0"),
        (["debatebench/panel", "-T", "task=Yes: do it"], "-T task: YAML read the value as"),
        (["debatebench/adjudicate", "-T", "proposal=p.md", "-T", "debate_type=vibes"],
         "-T debate_type: got 'vibes'; expected one of research_question"),
        ([f"{FIXTURES / 'stock_task.py'}@stock_math", "--solver", "debatebench/deliberate",
          "-S", "rouns=2"], "-S rouns: unknown argument(s) rouns for solver deliberate"),
        (["debatebench/panel", "-T", "task=T", "-T", "table=review"],
         "personas/skeptic.md: colour: unknown field"),
    ],
)  # fmt: skip
def test_bad_input_is_one_message_without_traceback(
    tmp_path: Path, args: list[str], says: str
) -> None:
    if "table=review" in args:  # a workspace with a malformed persona
        (tmp_path / "debatebench-workspace.yml").write_text("version: 1\n")
        (tmp_path / "personas").mkdir()
        (tmp_path / "personas" / "skeptic.md").write_text(
            "---\nversion: 1\nmodel: inherit\neffort: low\ncolour: red\n---\nYou doubt.\n"
        )
    result = command(["eval", *args, "--model", "debatebench-echo/smoke"], tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and says in " ".join(output.split()), output
    assert "Traceback" not in output


def test_init_twice_then_new(tmp_path: Path) -> None:
    first = command(["init"], tmp_path, program="debatebench-eval")
    assert first.returncode == 0 and first.stdout.count("created ") == 8
    (tmp_path / "personas" / "skeptic.md").write_text(
        "---\nversion: 1\nmodel: inherit\neffort: low\n---\nMy skeptic.\n"
    )
    second = command(["init"], tmp_path, program="debatebench-eval")
    assert second.returncode == 0 and "created " not in second.stdout
    assert "personas/skeptic.md (exists: edited; left as it is)" in second.stdout
    assert (tmp_path / "personas" / "skeptic.md").read_text().endswith("My skeptic.\n")
    new = command(["new", "reviewers/security"], tmp_path, program="debatebench-eval")
    assert new.returncode == 0 and (tmp_path / "personas" / "reviewers" / "security.md").is_file()
    again = command(["new", "reviewers/security"], tmp_path, program="debatebench-eval")
    assert again.returncode == 2 and "already exists" in again.stderr
    run = command(
        ["eval", "debatebench/panel", "-T", "task=T", "-T", "with=security,skeptic",
         "--model", "debatebench-echo/smoke"],
        tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    record = (only_log(tmp_path).samples or [])[0].store_as(DeliberationRecord)
    assert record.run is not None and record.run.shadowed == [
        "persona proposer", "persona skeptic", "persona synthesizer", "table default",
    ]  # fmt: skip
    assert [s.persona_id for s in record.run.participants][:2] == ["reviewers/security", "skeptic"]
