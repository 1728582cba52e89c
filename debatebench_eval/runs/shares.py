"""Which planned tasks a worker runs: the K-th of N shares, or the tasks a file names.

A share is a function of the plan alone (never of what the log folder holds when
the worker starts), so every worker of one plan, started anywhere and at any
time, computes the same partition: no task is in two shares and none is in no
share. Tasks are dealt longest first to the share with the least work so far,
the work being the debates each task still had to run when it was planned
(a grown tournament's new pairs are whole, its old ones nearly done).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.runs.planned import PlannedTask

AUTO: Literal["auto"] = "auto"


def check_share(index: int, workers: int) -> None:
    if workers < 1:
        raise ConfigError("--workers", f"got {workers}", "an integer of at least 1")
    if not 0 <= index < workers:
        raise ConfigError(
            "--index", f"got {index} with --workers {workers}",
            f"0 to {workers - 1} (0-based, as SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are)",
        )  # fmt: skip


def parse_workers(text: str) -> int | Literal["auto"]:
    """`--workers` of `tournament run`: a number of worker processes, or `auto`."""
    if text.strip().lower() == AUTO:
        return AUTO
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise ConfigError("--workers", f"got {text}", f"an integer of at least 1, or {AUTO}")
    return count


def auto_workers(cores: int, tasks: int) -> int:
    """One worker per core, as a worker's calls are bound by its own process's CPU once
    the server keeps up, and no more than there are tasks (a worker's share is whole
    tasks): at least one."""
    return max(1, min(cores, tasks))


def deal(tasks: Sequence[PlannedTask], workers: int) -> list[list[PlannedTask]]:
    """The plan's tasks in `workers` shares, each share in the plan's order."""
    shares: list[list[PlannedTask]] = [[] for _ in range(workers)]
    loads = [0] * workers
    order = {task.identifier: i for i, task in enumerate(tasks)}
    for task in sorted(tasks, key=lambda t: (-t.todo, -t.samples, t.name)):
        # Ties go to the lowest index, so the partition is the same everywhere.
        lightest = min(range(workers), key=lambda k: (loads[k], len(shares[k]), k))
        shares[lightest].append(task)
        loads[lightest] += task.todo
    return [sorted(share, key=lambda t: order[t.identifier]) for share in shares]


def named_tasks(text: str, where: str, tasks: Sequence[PlannedTask]) -> list[PlannedTask]:
    """The planned tasks a task list names: one name a line; blank lines and lines
    starting with `#` are skipped; each name once."""
    by_name = {task.name: task for task in tasks}
    chosen: list[PlannedTask] = []
    for number, line in enumerate(text.splitlines(), start=1):
        name = line.strip()
        if not name or name.startswith("#"):
            continue
        if name not in by_name:
            shown = ", ".join(sorted(by_name)[:5]) + (", ..." if len(by_name) > 5 else "")
            raise ConfigError(
                f"{where}, line {number}", f"{name!r} is not a planned task",
                f"a task name of the plan, one a line ({shown})",
            )  # fmt: skip
        if by_name[name] in chosen:
            raise ConfigError(f"{where}, line {number}", f"{name!r} is listed twice", "each once")
        chosen.append(by_name[name])
    if not chosen:
        raise ConfigError(where, "names no task", "task names of the plan, one a line")
    return chosen
