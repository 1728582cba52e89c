"""What a worker checks before it runs anything: the plan's packages, and which copy
of the package the workers `tournament run` starts import."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import debatebench_eval
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.runs import processes
from debatebench_eval.runs.planned import Plan, package_versions
from debatebench_eval.tournament.worker import check_same_packages


def plan_by(versions: dict[str, str]) -> Plan:
    return Plan("2026-12-04T00:00:00+00:00", ("ollama/a", "ollama/b"), (), versions)


def test_a_worker_on_the_plans_packages_goes_on() -> None:
    check_same_packages(plan_by(package_versions()), "t")
    check_same_packages(plan_by({}), "t")  # a plan written before versions were recorded


def test_a_worker_on_other_packages_is_stopped_naming_both_versions() -> None:
    versions = {**package_versions(), "inspect-ai": "0.3.1"}
    with pytest.raises(ConfigError) as error:
        check_same_packages(plan_by(versions), "t")
    message = str(error.value)
    assert "inspect-ai 0.3.1 there" in message and "tournament plan" in message
    assert "debatebench-eval 0" not in message, "only the package that differs"


def test_workers_import_the_package_from_where_the_command_did(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = Path(debatebench_eval.__file__).resolve().parents[1]
    # Installed (or editable): the interpreter finds it wherever the worker starts.
    monkeypatch.setattr(sys, "path", ["/somewhere/bin", str(root), "/usr/lib/python3"])
    assert processes.package_path_env() is None
    # `python -m` from inside a checkout: only the current folder had it.
    monkeypatch.setattr(sys, "path", [str(root), "/usr/lib/python3"])
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    env = processes.package_path_env()
    assert env is not None and env["PYTHONPATH"].split(":") == [str(root), str(tmp_path)]
    # And never the folder the worker happens to start in.
    assert processes.this_package()[1:3] == ["-P", "-m"]
