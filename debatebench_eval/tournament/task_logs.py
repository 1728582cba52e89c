"""Each planned task's newest log in the folder, and whether its debates are settled.

A worker runs in Inspect's selection mode, which does no eval-set bookkeeping:
it runs what it is told, resuming from the log it is told. So the worker itself
decides, as eval_set would, what is left: a task is settled when its newest log
ended in success with every planned debate completed without error (a scored
or an unscored verdict); otherwise that log (crashed, failed, or short of
debates the tournament grew by) is what the next attempt resumes from, keeping
every debate it holds. Logs are paired with tasks by Inspect's own task
identifier, as eval_set pairs them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from inspect_ai.log import (
    EvalLog,
    EvalLogInfo,
    list_eval_logs,
    read_eval_log,
    read_eval_log_samples,
)

from debatebench_eval.core._inspect import filesystem, task_identifier


@dataclass(frozen=True)
class TaskLog:
    info: EvalLogInfo
    header: EvalLog

    @property
    def location(self) -> str:
        return self.info.name

    def completed(self) -> int:
        """Debates in the log that finished without error (0 unless it ended)."""
        header = self.header
        if header.status != "success" or header.invalidated or header.results is None:
            return 0
        results = header.results
        done = results.completed_samples
        if results.logged_samples is not None:  # a drained run: only what it resolved
            done = min(done, results.logged_samples)
        return done

    def settled(self, samples: int) -> bool:
        return self.completed() >= samples


def task_logs(log_dir: str) -> list[TaskLog]:
    infos = list_eval_logs(log_dir)
    return [TaskLog(info, read_eval_log(info, header_only=True)) for info in infos]


def newest_logs(logs: Iterable[TaskLog]) -> dict[str, TaskLog]:
    """The newest log of each task identifier (by the time it was last written)."""
    newest: dict[str, TaskLog] = {}
    for log in logs:
        identifier = task_identifier(log.header, None)
        there = newest.get(identifier)
        if there is None or (log.info.mtime or 0) > (there.info.mtime or 0):
            newest[identifier] = log
    return newest


def tidy_superseded(log_dir: str, identifiers: Iterable[str]) -> list[str]:
    """Remove the older logs of these tasks once their newest log holds every debate
    they finished.

    A resumed task writes a new log (same task id) seeded with every finished
    debate of the log it resumed; the old one (crashed, or ended with failed
    debates) would otherwise be shown by `inspect view` and read as duplicates.
    An older log goes only when the newest ended in success and holds each of its
    error-free samples (by uuid); a worker tidies only its own tasks.
    """
    wanted = set(identifiers)
    groups: dict[str, list[TaskLog]] = {}
    for log in task_logs(log_dir):
        identifier = task_identifier(log.header, None)
        if identifier in wanted:
            groups.setdefault(identifier, []).append(log)
    removed = []
    for logs in groups.values():
        logs.sort(key=lambda log: log.info.mtime or 0, reverse=True)
        newest, older = logs[0], logs[1:]
        if newest.header.status != "success" or not older:
            continue
        kept = _clean_uuids(newest.info)
        for log in older:
            same_task = log.header.eval.task_id == newest.header.eval.task_id
            if same_task and _clean_uuids(log.info) <= kept:
                filesystem(log.location).rm(log.location)
                removed.append(log.location)
    return removed


def _clean_uuids(info: EvalLogInfo) -> set[str | None]:
    found = read_eval_log_samples(
        info, all_samples_required=False, exclude_fields={"events", "messages", "attachments"}
    )
    return {sample.uuid for sample in found if sample.error is None}
