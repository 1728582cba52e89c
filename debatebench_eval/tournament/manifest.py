"""`tournament.json`: the schedule a log folder holds, beside Inspect's logs.

It records which tournament the folder is (its identity), every model and
motion ever scheduled in it (so `rate` can tell a missing debate from one
never scheduled), the pairs and their task names, and each run. It is read
and written through Inspect's own file access, so the folder may be any
location Inspect accepts for logs (a path, s3://, ...). Inspect never reads it
as a log: only `.eval` files and `.json` files named like logs are logs.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from debatebench_eval.core._inspect import file, filesystem
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.known_answer.questions import Question
from debatebench_eval.record.motions import Motion
from debatebench_eval.tournament.schedule import (
    DEBATE,
    SCHEMA,
    Schedule,
    Settings,
    first_difference,
    motion_record,
    pair_task_name,
    question_record,
)

MANIFEST = "tournament.json"
# Inspect's capture manifest of the planned tasks (INSPECT_EVAL_SET_CAPTURE), for
# runners that speak Inspect's eval-set protocol themselves.
CAPTURE = "tournament-tasks.json"


@dataclass(frozen=True)
class PlannedTask:
    """One pair's task as the plan step captured it: its Inspect identifier, its
    debates, and how many of them were still to run when it was planned."""

    name: str
    identifier: str
    samples: int
    todo: int

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "identifier": self.identifier, "samples": self.samples,
                "todo": self.todo}  # fmt: skip


@dataclass(frozen=True)
class Plan:
    """What the last `tournament plan` asked the workers to run."""

    time: str
    models: tuple[str, ...]
    tasks: tuple[PlannedTask, ...]
    # The packages that computed the tasks' identifiers (none in a plan written before
    # they were recorded): a worker running others would compute others.
    versions: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"time": self.time, "models": list(self.models), "capture": CAPTURE,
                "versions": self.versions,
                "tasks": [task.as_dict() for task in self.tasks]}  # fmt: skip


@dataclass(frozen=True)
class Manifest:
    schedule: Schedule
    runs: tuple[dict[str, Any], ...] = ()
    plan: Plan | None = None


def manifest_path(log_dir: str) -> str:
    return f"{log_dir.rstrip('/')}/{MANIFEST}"


def read_manifest(log_dir: str) -> Manifest | None:
    """The folder's manifest, or None for a folder no tournament has used."""
    path = manifest_path(log_dir)
    if not filesystem(path).exists(path):
        return None
    try:
        with file(path, "r") as handle:
            data = json.load(handle)
        return _from_dict(data)
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ConfigError(
            path, f"not a readable tournament manifest ({type(exc).__name__}: {exc})",
            "the file `debatebench-eval tournament run` wrote; restore it or use another --log-dir",
        ) from None  # fmt: skip


def check_same_tournament(there: Schedule, here: Schedule, where: str) -> None:
    """One folder, one tournament: name the first setting that differs."""
    if there.identity_hash == here.identity_hash:
        return
    if there.settings.task != here.settings.task:
        raise ConfigError(
            where, f"holds a --task {there.settings.task} tournament, this one is --task "
            f"{here.settings.task}", f"--task {there.settings.task} there, or another --log-dir",
        )  # fmt: skip
    difference = first_difference(there.identity(), here.identity()) or "the settings differ"
    raise ConfigError(
        where,
        f"holds another tournament ({difference})",
        "the same settings as the tournament there, or another --log-dir",
    )


def write_manifest(log_dir: str, manifest: Manifest) -> None:
    """Write the manifest; only the plan step does, so it needs no lock. On a local
    disk the file is replaced atomically (a worker starting now reads the old plan or
    the new one, never half of one); an object store's PUT is atomic already."""
    path = manifest_path(log_dir)
    text = json.dumps(_as_dict(manifest), indent=2, ensure_ascii=False) + "\n"
    fs = filesystem(path)
    if fs.is_local():
        folder = Path(path).parent
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{MANIFEST}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, path)
        return
    fs.mkdir(log_dir, exist_ok=True)
    with file(path, "w") as handle:
        handle.write(text)


def plan_entry(schedule: Schedule, plan: Plan) -> dict[str, Any]:
    """The plan's line in the folder's history of runs."""
    return {
        "time": plan.time,
        "schedule_hash": schedule.schedule_hash,
        "models": list(plan.models),
        "tasks": len(plan.tasks),
        "versions": package_versions(),
    }


def package_versions() -> dict[str, str]:
    found = {}
    for name in ("debatebench-eval", "inspect-ai"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


def _as_dict(manifest: Manifest) -> dict[str, Any]:
    schedule = manifest.schedule
    return {
        "schema": SCHEMA,
        "tournament": schedule.identity_hash,
        "eval_set_id": schedule.eval_set_id,
        "identity": schedule.identity(),
        "models": list(schedule.models),
        "motions": [motion_record(m) for m in schedule.motions],
        **(
            {"questions": [question_record(q) for q in schedule.questions]}
            if schedule.questions
            else {}
        ),
        "pairs": [{"models": [a, b], "task": pair_task_name(a, b)} for a, b in schedule.pairs],
        "debates": schedule.debates(),
        "schedule_hash": schedule.schedule_hash,
        "runs": list(manifest.runs),
        **({"plan": manifest.plan.as_dict()} if manifest.plan else {}),
    }


def _from_dict(data: dict[str, Any]) -> Manifest:
    if data.get("schema") != SCHEMA:
        raise ValueError(f"schema {data.get('schema')!r}, this version reads {SCHEMA}")
    identity = data["identity"]
    settings = identity["settings"]
    schedule = Schedule(
        models=tuple(data["models"]),
        judges=tuple(identity["judges"]),
        motions=tuple(
            Motion(m["id"], m["text"], m["topic"], m.get("category")) for m in data["motions"]
        ),
        settings=Settings(
            # An oversight tournament has no phases, format or rubric.
            phases=tuple(settings.get("phases", ())),
            format=settings.get("format"),
            task_args=tuple(sorted(settings["task_args"].items())),
            seed=int(settings["seed"]),
            allow_self_judging=bool(settings["allow_self_judging"]),
            rubric_sha256=settings.get("rubric_sha256", ""),
            cost_limit=settings.get("cost_limit"),
            timeout=settings.get("timeout"),
            task=settings.get("task", DEBATE),
        ),
        questions=tuple(_question(q) for q in data.get("questions", [])),
    )
    if schedule.identity_hash != data["tournament"]:
        raise ValueError("its identity does not hash to its 'tournament' field (edited by hand?)")
    return Manifest(schedule, tuple(data.get("runs", [])), _plan(data.get("plan")))


def _question(data: dict[str, Any]) -> Question:
    first, second = data["answers"]
    return Question(str(data["id"]), str(data["question"]), (str(first), str(second)),
                    int(data["correct"]), data.get("evidence"), data.get("category"))  # fmt: skip


def _plan(data: dict[str, Any] | None) -> Plan | None:
    """The plan, or None in a folder last written before plans (or by hand)."""
    if data is None:
        return None
    tasks = tuple(
        PlannedTask(str(t["name"]), str(t["identifier"]), int(t["samples"]), int(t["todo"]))
        for t in data["tasks"]
    )
    versions = {str(k): str(v) for k, v in (data.get("versions") or {}).items()}
    return Plan(str(data["time"]), tuple(data["models"]), tasks, versions)
