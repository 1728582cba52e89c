"""Both judge checks through the real `inspect eval` and the real `ollama/` provider,
against the loopback stub server answering as the oracle judge; then the project's
`trust` and `report` commands on their logs, and a bad data file on the command line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from debatebench_eval.trust.digests import KEY_FILE, bundled_set_dir

from support.commands import only_log, run
from support.judge_checks import stub_oracle
from support.stub_server import StubBehaviour, StubServer

CLI = str(Path(sys.executable).parent / "debatebench-eval")


def oracle_server() -> StubServer:
    # Ollama's digest gives the judge a fingerprint, so its records can be matched.
    return StubServer(
        StubBehaviour(
            script=lambda request: stub_oracle(request["messages"]),
            digests={"judge": "sha256:0racle"},
        )
    )


def command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)


def inspect(args: list[str], base_url: str, log_dir: Path) -> tuple[int, str]:
    process = run(args, base_url, log_dir, wait=False)
    _, stderr = process.communicate(timeout=600)
    return process.returncode, stderr


def metric_values(log) -> dict[str, float]:  # type: ignore[no-untyped-def]
    return {n: m.value for s in log.results.scores for n, m in s.metrics.items()}


def check_run(tmp_path: Path, task: str, *options: str) -> tuple[Any, Any, Any]:
    """The check run as a user runs it, then `trust LOG` and `report LOG`."""
    with oracle_server() as stub:
        args = ["eval", f"debatebench/{task}", "--model", "ollama/judge", *options]
        code, stderr = inspect(args, stub.base_url, tmp_path / "logs")
        assert code == 0, stderr
        log = only_log(tmp_path / "logs")
        trust = command("trust", log.location)
        report = command("report", log.location, "-o", str(tmp_path / "report"))
    assert log.status == "success" and report.returncode == 0
    return log, trust, (tmp_path / "report" / "report.md").read_text()


def test_fact_check_validation_from_the_command_line(tmp_path: Path) -> None:
    log, trust, report = check_run(tmp_path, "fact_check_validation", "--limit", "4")
    assert len(log.samples or []) == 4
    found = metric_values(log)
    assert found["macro_f1"] == 1.0 and found["claim_recall"] == 1.0 and found["planted"] == 32
    score = (log.samples or [])[0].scores["planted_claims"]
    assert score.metadata["judge_identities"][0]["fingerprint"] == "ollama:sha256:0racle"
    assert score.metadata["trust"]["checks"]["fact_check_validation"]["status"] == "not_run"
    # Four debates of 64 are not the check: recorded, with the reason, and not passed.
    assert trust.returncode == 1, trust.stderr
    assert "macro_f1 1.000" in trust.stdout and "only part of the bundled set" in trust.stdout
    assert "| supported | 1.000 | 1.000 | 1.000 |" in report
    assert "Computed from a log of task fact_check_validation, version 1." in report


def test_judge_sensitivity_from_the_command_line(tmp_path: Path) -> None:
    options = ("-T", "limit_sources=1", "-T", "degradations=[truncated, strawman]")
    log, trust, report = check_run(tmp_path, "judge_sensitivity", *options)
    assert len(log.samples or []) == 7
    found = metric_values(log)
    assert found["pairs_judged"] == 4 and found["sensitivity"] == 1.0
    assert found["swap_flip_rate"] == 0 and found["unchanged_moved"] == 0
    assert trust.returncode == 1 and "sensitivity 1.000" in trust.stdout
    assert "| truncated |" in report and "| strawman |" in report


def test_a_bad_key_row_on_the_command_line_is_one_message(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    shutil.copytree(bundled_set_dir(), folder)
    key = folder / KEY_FILE
    rows = key.read_text().splitlines()
    row = json.loads(rows[2])
    rows[2] = json.dumps({**row, "verdict": "probably"})
    key.write_text("\n".join(rows) + "\n")
    with StubServer() as stub:
        code, stderr = inspect(
            [
                "eval",
                "debatebench/fact_check_validation",
                "--model",
                "ollama/judge",
                "-T",
                f"data={folder}",
            ],
            stub.base_url,
            tmp_path / "logs",
        )
        requests = list(stub.behaviour.requests)
    assert code != 0 and requests == []
    assert f"{key}: row 3: verdict: got 'probably'" in stderr
    assert "Traceback" not in stderr
