"""`tournament.json`: the schedule a log folder holds, beside Inspect's logs.

It records which tournament the folder is (its identity), every model and
item (motion, question) ever scheduled in it, the matchups an adaptive schedule
chose and its rounds (so `rate` can tell a missing debate from one
never scheduled), the pairs and their task names, and each run. It is read
and written through Inspect's own file access, so the folder may be any
location Inspect accepts for logs (a path, s3://, ...). Inspect never reads it
as a log: only `.eval` files and `.json` files named like logs are logs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from debatebench_eval.core._inspect import file, filesystem
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.runs.location import replace_file
from debatebench_eval.runs.planned import Plan, package_versions
from debatebench_eval.tournament.kinds import DEFAULT, kind_named
from debatebench_eval.tournament.schedule import (
    SCHEMA,
    Schedule,
    Settings,
    first_difference,
    pair_task_name,
)

MANIFEST = "tournament.json"
# Inspect's capture manifest of the planned tasks (INSPECT_EVAL_SET_CAPTURE), for
# runners that speak Inspect's eval-set protocol themselves.
CAPTURE = "tournament-tasks.json"


@dataclass(frozen=True)
class Manifest:
    schedule: Schedule
    runs: tuple[dict[str, Any], ...] = ()
    plan: Plan | None = None
    # An adaptive tournament's rounds, each as its refit found the ratings: the debates
    # rated, the widest interval, the matchups it added, and why it stopped if it did.
    rounds: tuple[dict[str, Any], ...] = ()


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
    """Write the manifest; only the plan step does, so it needs no lock (and a worker
    starting now reads the old plan or the new one, never half of one)."""
    text = json.dumps(_as_dict(manifest), indent=2, ensure_ascii=False) + "\n"
    replace_file(manifest_path(log_dir), text)


def plan_entry(schedule: Schedule, plan: Plan) -> dict[str, Any]:
    """The plan's line in the folder's history of runs."""
    return {
        "time": plan.time,
        "schedule_hash": schedule.schedule_hash,
        "models": list(plan.models),
        "tasks": len(plan.tasks),
        "versions": package_versions(),
    }


def _as_dict(manifest: Manifest) -> dict[str, Any]:
    schedule = manifest.schedule
    records = [item.record for item in schedule.items]
    # A motion tournament's list stands alone; any other kind's items come beside an
    # empty motion list, as the folders written before kinds had it.
    items = {"motions": records} if schedule.item_key == "motions" else {
        "motions": [], schedule.item_key: records}  # fmt: skip
    return {
        "schema": SCHEMA,
        "tournament": schedule.identity_hash,
        "eval_set_id": schedule.eval_set_id,
        "identity": schedule.identity(),
        "models": list(schedule.models),
        **items,
        "pairs": [
            {"models": [a, b], "task": pair_task_name(a, b)} for a, b in schedule.scheduled_pairs
        ],
        "debates": schedule.debates(),
        **({"matchups": [list(c) for c in schedule.chosen]} if schedule.chosen is not None else {}),
        "schedule_hash": schedule.schedule_hash,
        "runs": list(manifest.runs),
        **({"rounds": list(manifest.rounds)} if manifest.rounds else {}),
        **({"plan": manifest.plan.as_dict(CAPTURE)} if manifest.plan else {}),
    }


def _from_dict(data: dict[str, Any]) -> Manifest:
    if data.get("schema") != SCHEMA:
        raise ValueError(f"schema {data.get('schema')!r}, this version reads {SCHEMA}")
    identity = data["identity"]
    settings = dict(identity["settings"])
    limits = {key: settings.pop(key, None) for key in ("cost_limit", "timeout")}
    kind = kind_named(str(settings.get("task", DEFAULT)), "its identity's task")
    items = tuple(kind.items.from_record(record) for record in data.get(kind.items.key, []))
    schedule = Schedule(
        models=tuple(data["models"]),
        judges=tuple(identity["judges"]),
        items=items,
        settings=Settings(kind.name, settings, limits["cost_limit"], limits["timeout"]),
        item_key=kind.items.key,
        chosen=_chosen(data.get("matchups")),
    )
    if schedule.identity_hash != data["tournament"]:
        raise ValueError("its identity does not hash to its 'tournament' field (edited by hand?)")
    plan = Plan.from_dict(data["plan"]) if data.get("plan") else None
    rounds = tuple(data.get("rounds") or ())
    return Manifest(schedule, tuple(data.get("runs", [])), plan, rounds)


def _chosen(found: list[list[str]] | None) -> tuple[tuple[str, str, str], ...] | None:
    if found is None:
        return None
    return tuple((str(a), str(b), str(item)) for a, b, item in found)
