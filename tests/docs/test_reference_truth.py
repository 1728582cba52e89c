"""The reference says what the code holds: every record field has a meaning, and
the scorers each task runs are the ones it builds (issue 29, item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.util import StoreModel
from pydantic import BaseModel, Field

from debatebench_eval._registry import TASKS
from debatebench_eval.cli import reference, score_keys
from debatebench_eval.core._inspect import registry_info
from debatebench_eval.core.task_versions import TASK_VERSIONS
from debatebench_eval.protocols.tasks import DEBATE_TYPES

from support.paths import FIXTURES

PACKAGE_PREFIX = "debatebench_eval/"
# The inputs a task cannot be built without; every other option keeps its default.
REQUIRED_INPUTS = {
    "judge": lambda folder: {"transcripts": str(FIXTURES / "debatebench-mirror-1-transcript.json")},
    "panel": lambda folder: {"task": "Migrate now?"},
    "adjudicate": lambda folder: {"proposal": str(proposal(folder)),
                                  "debate_type": DEBATE_TYPES[0]},
}  # fmt: skip


def proposal(folder: Path) -> Path:
    path = folder / "proposal.md"
    path.write_text("Measure burnout with one survey item.\n", encoding="utf-8")
    return path


def undescribed() -> list[tuple[str, str]]:
    """(model, field) for every field the records page shows without a meaning."""
    return [
        (section.name, row[0])
        for section in reference.record_tables()
        for row in section.rows
        if not row[3].strip()
    ]


def test_every_record_field_has_a_meaning() -> None:
    assert undescribed() == []
    names = {section.name for section in reference.record_tables()}
    # Every nested model gets its own table, so none of their fields goes unchecked.
    assert {"Turn", "TurnUsage", "RunSettings", "SideSettings", "Passage"} <= names
    assert {"CallRecord", "Claim", "EvidenceCheck", "CrucibleRun", "Diagnosis"} <= names
    assert {"Seat", "DeliberationTurn", "Signal", "RoundResult", "Outcome"} <= names


def test_a_new_field_without_a_description_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    class Nested(BaseModel):
        described: int = Field(default=0, description="Said.")
        bare: int = 0

    class NewRecord(StoreModel):
        nested: Nested = Field(default_factory=Nested, description="Said too.")
        plain: str = ""

    monkeypatch.setattr(reference, "RECORDS", ((NewRecord, "A test record"),))
    assert undescribed() == [("NewRecord", "`plain`"), ("Nested", "`bare`")]
    assert "| `described` | integer | `0` | Said. |" in reference.records_page()


def test_the_descriptions_do_not_reach_the_stored_record() -> None:
    from debatebench_eval.interop.transcript_file import read_transcript
    from debatebench_eval.record.store import Turn

    record = read_transcript(FIXTURES / "debatebench-mirror-1-transcript.json")
    dumped = record.model_dump(mode="json")
    assert set(dumped) == {"schema_version", "run", "turns", "passages", "complete"}
    assert set(dumped["turns"][0]) == set(Turn.model_fields)


def test_each_task_runs_the_scorers_the_reference_lists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no deliberation workspace is found above it
    built, versions = {}, {}
    for factory in TASKS:
        name = registry_info(factory).name.removeprefix(PACKAGE_PREFIX)
        task = factory(**REQUIRED_INPUTS.get(name, lambda folder: {})(tmp_path))
        scorers = [registry_info(s).name.removeprefix(PACKAGE_PREFIX) for s in task.scorer or []]
        built[name] = tuple(scorers)
        versions[name] = task.version
    assert built == dict(score_keys.TASK_SCORERS)
    # Each task is built with its version, the one the changelog names.
    assert versions == TASK_VERSIONS
