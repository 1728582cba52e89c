"""Each task's version (Inspect's `Task(version=...)`), recorded in every log it writes.

A version is raised by one whenever the keys or the meaning of the task's scores
change, so a score can be traced to the task that made it (inspect_evals versions
its evals so). docs/changelog.md names each task's current version (a test checks
it); the leaderboard and `debatebench-eval report` show the versions they read.
"""

from __future__ import annotations

from collections.abc import Iterable

TASK_VERSIONS: dict[str, int] = {
    "debate": 1,
    "judge": 1,
    "judge_validation": 1,
    "fact_check_validation": 1,
    "judge_sensitivity": 1,
    "crucible": 1,
    "panel": 1,
    "adjudicate": 1,
    "oversight": 2,
}


def versions_line(found: Iterable[tuple[str, int | str]]) -> str:
    """`task versions: debate 1, judge 1`: each task once, in the order first seen, with
    every version its logs carry (`debate 1, 2` when logs of two versions were read)."""
    seen: dict[str, list[str]] = {}
    for task, version in found:
        versions = seen.setdefault(task, [])
        if str(version) not in versions:
            versions.append(str(version))
    return "task versions: " + ", ".join(f"{t} {', '.join(v)}" for t, v in seen.items())


def under_title(text: str, task: str, version: int | str) -> str:
    """A report's Markdown with the line naming the task version it was computed from
    under its title (`task` as the log names it: `debatebench/debate`)."""
    title, _, rest = text.partition("\n")
    name = task.rsplit("/", 1)[-1]
    return f"{title}\n\nComputed from a log of task {name}, version {version}.\n{rest}"
