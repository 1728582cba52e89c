"""`trust` and `report` take the kinds of log their help names, and refuse any other
log, a file that is no log and a missing one with one line saying what they need
(issue 44, items 5 and 6)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog, read_eval_log

from debatebench_eval.cli import main as cli
from debatebench_eval.cli.reference import help_text
from debatebench_eval.cli.score_keys import TASK_SCORERS


@pytest.fixture
def debate_log(run_debate: Any) -> EvalLog:
    """A debate as the quickstart leaves one: a log that measures no judge."""
    log: EvalLog = run_debate(phases="[opening]", fact_check=False)
    return log


def as_kind(header: EvalLog, kind: str) -> EvalLog:
    """The header of a log of task `kind` that ran the scorers that task runs."""
    [template, *_] = header.eval.scorers or []
    scorers = [template.model_copy(update={"name": f"debatebench/{name}"})
               for name in TASK_SCORERS[kind]]  # fmt: skip
    spec = header.eval.model_copy(
        update={"task": f"debatebench/{kind}", "task_registry_name": f"debatebench_eval/{kind}",
                "scorers": scorers}
    )  # fmt: skip
    return header.model_copy(update={"eval": spec})


def log_help(command: str) -> str:
    """The help `debatebench-eval COMMAND --help` gives its LOG argument."""
    parser = cli.command_parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    found = sub.choices[command]
    [log] = [action for action in found._actions if action.dest == "log"]
    return help_text(found, log)


@pytest.mark.parametrize(
    ("command", "named", "handler"),
    [("trust", cli.TRUST_LOGS, cli._trust_maker), ("report", cli.REPORT_LOGS, cli._report_writer)],
)
def test_the_help_names_exactly_the_kinds_the_command_handles(
    debate_log: EvalLog, command: str, named: tuple[str, ...], handler: Any
) -> None:
    header = read_eval_log(str(debate_log.location), header_only=True)
    handled = tuple(kind for kind in TASK_SCORERS if handler(as_kind(header, kind)) is not None)
    assert sorted(handled) == sorted(named)
    assert log_help(command).startswith(f"a {', '.join(named[:-1])} or {named[-1]} log")


def test_trust_refuses_a_debate_log_saying_what_a_record_needs(
    debate_log: EvalLog, private_trust_records: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["trust", str(debate_log.location)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("debatebench-eval trust: ")
    assert f"a {debate_log.eval.task} log, which does not measure a judge" in err
    assert "not judge_validation" not in err
    assert "a judge_validation, fact_check_validation or judge_sensitivity log" in err
    assert "inspect eval debatebench/judge_validation --model JUDGE" in err
    assert "debatebench-eval agreement FOLDER LABELS" in err
    assert not private_trust_records.exists() or not any(private_trust_records.iterdir())


def test_report_refuses_a_kind_it_has_no_report_for(
    debate_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inspect_ai.log import write_eval_log

    panel = as_kind(read_eval_log(str(debate_log.location)), "panel")
    write_eval_log(panel, str(tmp_path / "panel.eval"))
    out = tmp_path / "report"
    assert cli.main(["report", str(tmp_path / "panel.eval"), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "a debatebench/panel log, which has no report" in err
    assert f"report reads {log_help('report')}" in err
    assert not out.exists()
    # The debate it was made from has one.
    assert cli.main(["report", str(debate_log.location), "-o", str(out)]) == 0
    assert (out / "report.md").is_file()


@pytest.mark.parametrize("command", ["trust", "report"])
@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("missing.eval", None, "no such log file"),
        ("notes.eval", "not a zip", "not a readable Inspect log"),
        ("notes.json", "{}", "not a readable Inspect log"),
    ],
)
def test_no_log_there_is_one_line_not_a_traceback(
    command: str,
    name: str,
    content: str | None,
    says: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content, encoding="utf-8")
    out = ["-o", str(tmp_path / "report")] if command == "report" else []
    assert cli.main([command, str(path), *out]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"debatebench-eval {command}: {path}: {says}")
    assert len(err.splitlines()) == 1
