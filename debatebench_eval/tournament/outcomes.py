"""Reading a tournament's logs back into one result per scheduled debate.

Every `.eval` log under the folder(s) is looked at. A log counts when its task
metadata names this tournament; any other is listed as skipped. Within the
tournament, a debate is found by what its sample says (its pair, its motion,
whether the sides were exchanged), never by its sample id. When one debate is
in several logs (a stale log from a crashed run, or two workers given the
same pair by hand), a debate that finished beats one that failed, then the log
whose run started later, then the smaller uuid; the others are listed as
duplicates. A scheduled debate in no log is `missing`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from inspect_ai.log import EvalLog, EvalLogInfo

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.log_folder import FolderLog, LogFolder, log_file_task
from debatebench_eval.matches.results import DebateResult
from debatebench_eval.tournament.design import design_of
from debatebench_eval.tournament.kind import Rated
from debatebench_eval.tournament.kinds import kind_named
from debatebench_eval.tournament.leaderboard_log import LEADERBOARD_KEY
from debatebench_eval.tournament.manifest import Manifest, check_same_tournament, read_manifest
from debatebench_eval.tournament.schedule import Schedule, pair_task_name


@dataclass(frozen=True)
class UsedLog:
    location: str
    task: str
    task_id: str
    status: str
    eval_id: str
    pair: tuple[str, str]
    samples: int
    versions: dict[str, str] = field(default_factory=dict)
    # The debate task's version the log was made by (Inspect's eval spec task_version).
    task_version: int | str = 0

    def as_dict(self) -> dict[str, Any]:
        return {"location": self.location, "task": self.task, "task_id": self.task_id,
                "status": self.status, "eval_id": self.eval_id, "pair": list(self.pair),
                "samples": self.samples, "versions": self.versions,
                "task_version": self.task_version}  # fmt: skip


@dataclass(frozen=True)
class TournamentLogs:
    """A tournament as its folders hold it."""

    manifest: Manifest
    results: list[DebateResult]
    logs: list[UsedLog]
    skipped: list[dict[str, str]]
    duplicates: list[dict[str, object]]
    folders: list[str]

    @property
    def schedule(self) -> Schedule:
        return self.manifest.schedule


def rated(logs: TournamentLogs) -> Rated:
    """The tournament as its leaderboard rates it, with the header that names it."""
    schedule = logs.schedule
    kind = kind_named(schedule.settings.task)
    header = {
        "source": "tournament",
        "id": schedule.identity_hash,
        "eval_set_id": schedule.eval_set_id,
        "identity": schedule.identity(),
        "task": kind.name,
        "models": list(schedule.models),
        **kind.items.header(schedule.items),
        "pairs": [list(p) for p in schedule.pairs],
        "schedule_hash": schedule.schedule_hash,
        "runs": list(logs.manifest.runs),
        "folders": logs.folders,
        "logs": [log.as_dict() for log in logs.logs],
        "skipped_logs": logs.skipped,
        # Each pair is one task of the tournament's kind: the versions its logs were made by.
        "task_versions": {kind.name: sorted({str(log.task_version) for log in logs.logs})},
        "design": design_of(schedule.adaptive, schedule.debates(), logs.manifest.rounds),
    }
    versions = frozenset(json.dumps(log.versions, sort_keys=True) for log in logs.logs
                         if log.versions)  # fmt: skip
    return Rated(header, schedule.models, schedule.judges, logs.results, logs.duplicates,
                 versions, tuple(logs.folders))  # fmt: skip


def read_manifests(folders: Sequence[str]) -> Manifest:
    """The folders' manifests, merged; they must describe one tournament."""
    merged: Manifest | None = None
    for folder in folders:
        manifest = read_manifest(folder)
        if manifest is None:
            raise ConfigError(
                folder, "no tournament.json in it",
                "a folder written by `debatebench-eval tournament run`",
            )  # fmt: skip
        if merged is None:
            merged = manifest
            continue
        check_same_tournament(merged.schedule, manifest.schedule, folder)
        merged = Manifest(merged.schedule.grown(manifest.schedule), (*merged.runs, *manifest.runs))
    assert merged is not None
    return merged


def read_tournament(
    folders: Sequence[str], pairs: Iterable[tuple[str, str]] | None = None
) -> TournamentLogs:
    """Every scheduled debate (of `pairs`, or of all pairs) with what became of it."""
    manifest = read_manifests(folders)
    schedule = manifest.schedule
    wanted = set(schedule.scheduled_pairs if pairs is None else pairs)
    # Asked for some pairs (a worker's own), only their logs are opened, found by the
    # task name in the file name: the other pairs' workers may be writing theirs.
    names = None if pairs is None else {log_file_task(pair_task_name(*p)) for p in wanted}
    found: dict[tuple[Any, ...], list[tuple[float, DebateResult]]] = {}
    logs: list[UsedLog] = []
    skipped: list[dict[str, str]] = []
    reader = LogFolder(folders, meaning="its debates count as not found")
    for log in reader.logs(names):
        used = _read_log(reader, log, schedule, wanted, found, skipped)
        if used is not None:
            logs.append(used)
    skipped += [{"log": note.location, "why": note.text} for note in reader.take_notes()]
    results, duplicates = _choose(found)
    seen = {r.key for r in results}
    for a, b in sorted(wanted):
        for item in (i.id for i in schedule.pair_items(a, b)):
            for swapped in (False, True):
                if ((a, b), item, swapped) not in seen:
                    pro, con = (b, a) if swapped else (a, b)
                    results.append(
                        DebateResult(
                            (a, b),
                            item,
                            swapped,
                            pro,
                            con,
                            "missing",
                            reason="in no log: not run yet, or lost with its log",
                        )
                    )
    logs.sort(key=lambda log: log.location)
    return TournamentLogs(manifest, results, logs, skipped, duplicates, list(folders))


def _read_log(
    reader: LogFolder,
    log: FolderLog,
    schedule: Schedule,
    wanted: set[tuple[str, str]],
    found: dict[tuple[Any, ...], list[tuple[float, DebateResult]]],
    skipped: list[dict[str, str]],
) -> UsedLog | None:
    info, header = log.info, log.header
    meta = header.eval.metadata or {}
    if LEADERBOARD_KEY in meta:  # the rating written by `rate`, not debates
        return None
    if meta.get("tournament") != schedule.identity_hash:
        why = "another tournament" if "tournament" in meta else "not a tournament log"
        skipped.append({"log": info.name, "why": why})
        return None
    pair = (str(meta["pair"][0]), str(meta["pair"][1]))
    if pair not in wanted:
        return None
    kind = kind_named(schedule.settings.task)
    count = 0
    for sample in reader.samples(log):
        result = kind.outcome(sample, pair, info.name)
        found.setdefault(result.key, []).append((_created(header, info), result))
        count += 1
    return UsedLog(info.name, header.eval.task, header.eval.task_id, header.status,
                   header.eval.eval_id, pair, count, _versions(header),
                   header.eval.task_version)  # fmt: skip


def _created(header: EvalLog, info: EvalLogInfo) -> float:
    """When the log's run started (a copied file's mtime may not say)."""
    try:
        return datetime.fromisoformat(header.eval.created).timestamp()
    except ValueError:
        return (info.mtime or 0.0) / 1000


def _versions(header: EvalLog) -> dict[str, str]:
    packages = header.eval.packages or {}
    return {name: packages[name] for name in ("inspect_ai", "debatebench_eval") if name in packages}


def _choose(
    found: dict[tuple[Any, ...], list[tuple[float, DebateResult]]],
) -> tuple[list[DebateResult], list[dict[str, object]]]:
    results, duplicates = [], []
    for copies in found.values():
        ranked = sorted(copies, key=lambda c: (c[1].status == "error", -c[0], c[1].uuid or ""))
        kept = ranked[0][1]
        results.append(kept)
        # The same sample (same uuid) in an older log is a copy Inspect reused, and
        # a failed attempt was superseded: only a debate that ran twice is a duplicate.
        duplicates += [
            {**copy.listing(), "kept": kept.log}
            for _, copy in ranked[1:]
            if copy.uuid != kept.uuid and copy.status != "error"
        ]
    return results, duplicates
