"""Export writes debatebench 0.1.2's transcript format: its own reader loads it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import Script
from debatebench.api import load_transcript
from inspect_ai.log import EvalLog

from debatebench_eval.cli import main
from debatebench_eval.export import export_log

FIXTURE = Path(__file__).parent / "fixtures" / "debatebench-mirror-1-transcript.json"


def test_export_round_trips_through_debatebench_reader(
    run_debate: Callable[..., EvalLog], tmp_path: Path
) -> None:
    log = run_debate(
        roles={"pro": Script("A").model(), "con": Script("B").model()},
        phases="[opening:short, rebuttal, conclusion]",
    )
    written, skipped = export_log(log.location, tmp_path / "out")
    assert len(written) == 1 and not skipped
    transcript = load_transcript(written[0])
    assert transcript.run.phases == ("opening", "rebuttal", "conclusion")
    assert [(t.phase_index, t.side_index, t.order) for t in transcript.turns] == [
        (0, 0, 0), (0, 1, 1), (1, 1, 0), (1, 0, 1), (2, 0, 0), (2, 1, 1)
    ]  # fmt: skip
    assert transcript.turns[0].length == "short"
    assert [side.model for side in transcript.run.sides] == ["mockllm/A", "mockllm/B"]


def test_export_has_the_fields_debatebench_writes(
    run_debate: Callable[..., EvalLog], tmp_path: Path
) -> None:
    log = run_debate(phases="[opening]")
    ours = json.loads(export_log(log.location, tmp_path)[0][0].read_text())
    theirs = json.loads(FIXTURE.read_text())
    assert set(ours) == set(theirs)
    assert set(ours["run"]) == set(theirs["run"])
    assert set(ours["run"]["sides"][0]) == set(theirs["run"]["sides"][0])
    assert set(ours["turns"][0]) == set(theirs["turns"][0])


def test_export_command_skips_failed_debates(
    run_debate: Callable[..., EvalLog], tmp_path: Path, capsys: object
) -> None:
    log = run_debate(
        roles={"pro": Script("A", lambda n, m, c: __import__("conftest").output("A", "")).model()},
        phases="[opening]",
        empty_retries=0,
    )
    assert main(["export", log.location, "-o", str(tmp_path / "t")]) == 1
    assert "skipped" in capsys.readouterr().err  # type: ignore[attr-defined]
