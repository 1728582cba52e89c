"""What a plan asked its workers to run: each task by Inspect's identifier, with its
samples and how many of them the folder's logs did not hold yet when it was planned,
and the packages that computed the identifiers."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any

# The packages whose code enters a task's identifier: a worker running other versions
# would compute other identifiers, find none of its tasks and run other code.
IDENTIFYING_PACKAGES = ("debatebench-eval", "inspect-ai")


@dataclass(frozen=True)
class PlannedTask:
    """One task as the plan step captured it: its Inspect identifier, its samples, and
    how many of them were still to run when it was planned."""

    name: str
    identifier: str
    samples: int
    todo: int

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "identifier": self.identifier, "samples": self.samples,
                "todo": self.todo}  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlannedTask:
        return cls(str(data["name"]), str(data["identifier"]), int(data["samples"]),
                   int(data["todo"]))  # fmt: skip


@dataclass(frozen=True)
class Plan:
    """What the last plan step asked the workers to run."""

    time: str
    models: tuple[str, ...]
    tasks: tuple[PlannedTask, ...]
    # The packages that computed the tasks' identifiers (none in a plan written before
    # they were recorded).
    versions: dict[str, str] = field(default_factory=dict)

    def as_dict(self, capture: str) -> dict[str, Any]:
        return {"time": self.time, "models": list(self.models), "capture": capture,
                "versions": self.versions,
                "tasks": [task.as_dict() for task in self.tasks]}  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Plan:
        tasks = tuple(PlannedTask.from_dict(t) for t in data["tasks"])
        versions = {str(k): str(v) for k, v in (data.get("versions") or {}).items()}
        return cls(str(data["time"]), tuple(data.get("models") or ()), tasks, versions)


def package_versions() -> dict[str, str]:
    found = {}
    for name in IDENTIFYING_PACKAGES:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found
