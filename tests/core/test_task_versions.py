"""Every task carries a version, the changelog names it, and what reads logs shows it."""

from __future__ import annotations

import re
from pathlib import Path

from debatebench_eval._registry import TASKS
from debatebench_eval.core._inspect import registry_info
from debatebench_eval.core.task_versions import TASK_VERSIONS, under_title, versions_line

CHANGELOG = Path(__file__).resolve().parents[2] / "docs" / "changelog.md"


def test_every_registered_task_has_a_version_and_only_those() -> None:
    names = {registry_info(factory).name.rsplit("/", 1)[-1] for factory in TASKS}
    assert set(TASK_VERSIONS) == names
    assert all(isinstance(v, int) and v >= 1 for v in TASK_VERSIONS.values())


def test_the_changelog_names_each_tasks_current_version() -> None:
    text = CHANGELOG.read_text(encoding="utf-8")
    for task, version in TASK_VERSIONS.items():
        assert re.search(rf"^- `{task}` version {version}\b", text, re.MULTILINE), (
            f"docs/changelog.md has no line '- `{task}` version {version}': a task's version "
            "is raised with a changelog line saying what changed in its scores"
        )


def test_versions_are_named_once_per_task_in_the_order_seen() -> None:
    found = [("debate", 1), ("debate", 1), ("debate", 2), ("judge", 1)]
    assert versions_line(found) == "task versions: debate 1, 2, judge 1"


def test_a_report_names_its_task_version_under_its_title() -> None:
    text = under_title("# Title\n\nbody\n", "debatebench/fact_check_validation", 3)
    assert text == (
        "# Title\n\nComputed from a log of task fact_check_validation, version 3.\n\nbody\n"
    )
