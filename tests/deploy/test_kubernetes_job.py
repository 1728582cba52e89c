"""The shipped Kubernetes template: it parses, its worker Job is Indexed with as many
workers as it tells each worker there are, the index comes from the completion index,
the folder is on s3:// with credentials from a Secret, and every container's command
line is one this checkout's argument parser accepts."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from support.command_line import refusal, subcommands
from support.paths import ROOT

TEMPLATE = ROOT / "deploy" / "kubernetes" / "tournament-indexed-job.yaml"
_VARIABLE = re.compile(r"\$\(([A-Z_][A-Z0-9_]*)\)")


def documents() -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(TEMPLATE.read_text(encoding="utf-8")) if d]


def by_step() -> dict[str, dict[str, Any]]:
    return {d["metadata"]["labels"]["step"]: d for d in documents()}


def container(job: dict[str, Any]) -> dict[str, Any]:
    (only,) = job["spec"]["template"]["spec"]["containers"]
    return only


def expanded(args: list[str], values: dict[str, str]) -> list[str]:
    """The arguments as the kubelet hands them over: each $(VAR) replaced."""
    return [_VARIABLE.sub(lambda m: values[m.group(1)], arg) for arg in args]


def test_the_steps_are_a_config_then_plan_work_and_rate_jobs() -> None:
    steps = by_step()
    assert list(steps) == ["config", "plan", "work", "rate"]
    assert steps["config"]["kind"] == "ConfigMap"
    assert all(steps[s]["kind"] == "Job" for s in ("plan", "work", "rate"))
    # Each Job's pods carry the same step label, so `-l step=...` selects them too.
    for step in ("plan", "work", "rate"):
        assert steps[step]["spec"]["template"]["metadata"]["labels"]["step"] == step


def test_the_workers_are_an_indexed_job_told_their_index_and_their_number() -> None:
    work = by_step()["work"]
    spec = work["spec"]
    assert spec["completionMode"] == "Indexed"
    assert spec["completions"] == spec["parallelism"]
    args = container(work)["args"]
    assert args[:2] == ["tournament", "worker"]
    assert args[args.index("--index") + 1] == "$(JOB_COMPLETION_INDEX)"
    assert int(args[args.index("--workers") + 1]) == spec["completions"]


def test_every_step_reads_the_s3_folder_and_its_credentials_from_a_secret() -> None:
    steps = by_step()
    assert steps["config"]["data"]["LOG_DIR"].startswith("s3://")
    for step in ("plan", "work", "rate"):
        found = container(steps[step])
        sources = found["envFrom"]
        assert {"configMapRef": {"name": "debatebench-tournament"}} in sources
        assert any("secretRef" in source for source in sources), step
        assert "$(LOG_DIR)" in found["args"], step


@pytest.mark.parametrize("step", ["plan", "work", "rate"])
def test_each_command_line_is_one_the_parser_accepts(step: str) -> None:
    steps = by_step()
    found = container(steps[step])
    assert found["command"] == ["debatebench-eval"]
    values = {**steps["config"]["data"], "JOB_COMPLETION_INDEX": "0"}
    args = expanded(found["args"], values)
    if args[1] not in subcommands("tournament"):
        pytest.skip(f"`tournament {args[1]}` is not in this checkout yet (issue 27, item 1)")
    assert refusal(args) is None, refusal(args)


def test_a_flag_the_parser_does_not_take_is_refused() -> None:
    # The check above would pass vacuously if refusal() accepted anything.
    assert "unrecognized arguments: --no-such-flag" in str(
        refusal(["tournament", "rate", "s3://b/t", "--no-such-flag"])
    )
