"""`run-KEY.json`: a sharded run's plan, beside its logs.

It records the task and Inspect's options as the command line gave them (every
worker parses them again, so a worker on another machine makes the same tasks),
the number of shards, and the plan: each shard's task by Inspect's identifier
with its samples. Only the plan step writes it; workers read it. Several runs
may share a folder (Inspect's `./logs`), each under its own key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from debatebench_eval.core._inspect import file, filesystem
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.runs.location import replace_file
from debatebench_eval.runs.planned import Plan
from debatebench_eval.runs.sharded import RunSpec

SCHEMA = 1


@dataclass(frozen=True)
class RunFile:
    key: str
    spec: RunSpec
    plan: Plan
    # Which plan step wrote it: the workers it started wait for this one.
    plan_id: str = ""

    @property
    def eval_set_id(self) -> str:
        # Every worker stamps its logs with it (selection mode).
        return f"debatebench-run-{self.key}"


def run_file_path(log_dir: str, key: str) -> str:
    return f"{log_dir.rstrip('/')}/run-{key}.json"


def capture_path(log_dir: str, key: str) -> str:
    """Inspect's capture manifest of the shards, for runners that speak its protocol."""
    return f"{log_dir.rstrip('/')}/run-{key}-tasks.json"


def read_run_file(log_dir: str, key: str) -> RunFile | None:
    """The folder's plan of run `key`, or None where there is none."""
    path = run_file_path(log_dir, key)
    if not filesystem(path).exists(path):
        return None
    try:
        with file(path, "r") as handle:
            data = json.load(handle)
        if data.get("schema") != SCHEMA:
            raise ValueError(f"schema {data.get('schema')!r}, this version reads {SCHEMA}")
        spec = RunSpec(str(data["task"]), tuple(data["options"]), log_dir, int(data["shards"]))
        plan = Plan.from_dict(data["plan"])
        return RunFile(str(data["key"]), spec, plan, str(data.get("plan_id", "")))
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ConfigError(
            path, f"not a readable run plan ({type(exc).__name__}: {exc})",
            "the file `debatebench-eval run` wrote; remove it to plan the run again",
        ) from None  # fmt: skip


def write_run_file(run: RunFile) -> None:
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "key": run.key,
        "eval_set_id": run.eval_set_id,
        "task": run.spec.task,
        "options": list(run.spec.options),
        "shards": run.spec.shards,
        "plan_id": run.plan_id,
        "plan": run.plan.as_dict(capture_path(run.spec.log_dir, run.key).rsplit("/", 1)[-1]),
    }
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    replace_file(run_file_path(run.spec.log_dir, run.key), text)
