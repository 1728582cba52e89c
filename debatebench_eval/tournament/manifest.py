"""`tournament.json`: the schedule a log folder holds, beside Inspect's logs.

It records which tournament the folder is (its identity), every model and
motion ever scheduled in it (so `rate` can tell a missing debate from one
never scheduled), the pairs and their task names, and each run. It is read
and written through Inspect's own file access, so the folder may be any
location Inspect accepts for logs (a path, s3://, ...). Inspect never reads it
as a log: only `.eval` files and `.json` files named like logs are logs.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from debatebench_eval.core._inspect import file, filesystem
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.record.motions import Motion
from debatebench_eval.tournament.schedule import (
    SCHEMA,
    Schedule,
    Settings,
    first_difference,
    motion_record,
    pair_task_name,
)

MANIFEST = "tournament.json"


@dataclass(frozen=True)
class Manifest:
    schedule: Schedule
    runs: tuple[dict[str, Any], ...] = ()
    shards: int = 1


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
    difference = first_difference(there.identity(), here.identity()) or "the settings differ"
    raise ConfigError(
        where,
        f"holds another tournament ({difference})",
        "the same settings as the tournament there, or another --log-dir",
    )


def write_manifest(log_dir: str, manifest: Manifest) -> None:
    """Write the manifest (atomically on a local disk: shards may write together)."""
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


def update_manifest(log_dir: str, change: Callable[[Manifest | None], Manifest]) -> Manifest:
    """Read, change and write the manifest as one step.

    Shards started together each add their run (and may grow the schedule); on a
    local disk a lock file makes their read-change-write steps take turns, so no
    shard's entry is lost. A remote folder has no lock: the tournaments guide
    (docs/guides/tournaments.md) says to start shards there a few seconds apart.
    """
    with _locked(log_dir):
        manifest = change(read_manifest(log_dir))
        write_manifest(log_dir, manifest)
    return manifest


@contextmanager
def _locked(log_dir: str) -> Iterator[None]:
    path = manifest_path(log_dir)
    if not filesystem(path).is_local():
        yield
        return
    folder = Path(path).parent
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f".{MANIFEST}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield


def run_entry(
    schedule: Schedule, shard: tuple[int, int], models: tuple[str, ...]
) -> dict[str, Any]:
    return {
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
        "schedule_hash": schedule.schedule_hash,
        "models": list(models),
        "shard": f"{shard[0]}/{shard[1]}",
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
        "pairs": [{"models": [a, b], "task": pair_task_name(a, b)} for a, b in schedule.pairs],
        "debates": schedule.debates(),
        "schedule_hash": schedule.schedule_hash,
        "shards": manifest.shards,
        "runs": list(manifest.runs),
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
            phases=tuple(settings["phases"]),
            format=settings["format"],
            task_args=tuple(sorted(settings["task_args"].items())),
            seed=int(settings["seed"]),
            allow_self_judging=bool(settings["allow_self_judging"]),
            rubric_sha256=settings["rubric_sha256"],
        ),
    )
    if schedule.identity_hash != data["tournament"]:
        raise ValueError("its identity does not hash to its 'tournament' field (edited by hand?)")
    return Manifest(schedule, tuple(data.get("runs", [])), int(data.get("shards", 1)))
