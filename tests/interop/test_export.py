"""Export writes debatebench 0.1.2's transcript and score formats; transcripts read back in."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from debatebench.api import load_transcript
from inspect_ai.log import EvalLog

from debatebench_eval.cli.main import main
from debatebench_eval.interop.export import export_log, transcript_from_record
from debatebench_eval.interop.transcript_file import read_transcript

from support.paths import FIXTURES
from support.rejudging import (
    MIRROR_SCORES,
    MIRROR_TRANSCRIPTS,
    as_version_1,
    judge_log,
    mirror_document,
    mirror_folder,
    scripted_judge,
    with_prep,
    write_json,
)
from support.scripted import Script, output

FIXTURE = FIXTURES / "debatebench-mirror-1-transcript.json"


def test_export_round_trips_through_debatebench_reader(
    run_debate: Callable[..., EvalLog], tmp_path: Path
) -> None:
    log = run_debate(
        roles={"pro": Script("A").model(), "con": Script("B").model()},
        phases="[opening:short, rebuttal, conclusion]",
    )
    written, skipped = export_log(log.location, tmp_path / "out")
    # The scripted judge's prose leaves the debate unscored: no score file, and said so.
    assert len(written) == 1 and len(skipped) == 1
    assert "no score file, the rubric left it unscored (0 of 1 judges" in skipped[0]
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


# Re-judging: transcripts read back in, score files written out.


@pytest.mark.parametrize("path", MIRROR_TRANSCRIPTS, ids=[p.stem for p in MIRROR_TRANSCRIPTS])
def test_an_imported_transcript_exports_back_unchanged(path: Path) -> None:
    document = json.loads(path.read_text())
    exported = transcript_from_record(read_transcript(path))
    assert exported["run"] == document["run"] and exported["turns"] == document["turns"]
    assert exported["schema_version"] == document["schema_version"]


def test_prep_evidence_and_version_1_files_round_trip(tmp_path: Path) -> None:
    prep = with_prep(mirror_document())
    record = read_transcript(write_json(tmp_path / "prep.json", prep))
    exported = transcript_from_record(record)
    assert exported["run"] == prep["run"] and exported["turns"] == prep["turns"]
    assert record.run is not None and record.run.initiative[:2] == ["pro", "pro"]
    old = as_version_1(mirror_document())
    exported = transcript_from_record(read_transcript(write_json(tmp_path / "v1.json", old)))
    assert exported["turns"] == old["turns"] and exported["schema_version"] == 2


def test_finish_reasons_come_back_as_inspects_and_export_as_debatebenchs(tmp_path: Path) -> None:
    document = mirror_document()
    document["turns"][0].update(finish_reason="length", hit_budget=True)
    record = read_transcript(write_json(tmp_path / "cut.json", document))
    assert record.turns[0].finish_reason == "max_tokens"
    assert transcript_from_record(record)["turns"][0]["finish_reason"] == "length"


def _same_shape(ours: dict[str, Any], theirs: dict[str, Any], extra: set[str]) -> None:
    assert set(ours) - extra == set(theirs)
    for key, value in theirs.items():
        assert type(ours[key]) is type(value) or isinstance(ours[key], int | float), key


def test_export_writes_debatebench_score_files_for_judged_debates(tmp_path: Path) -> None:
    log = judge_log(tmp_path, mirror_folder(tmp_path))
    written, skipped = export_log(log.location, tmp_path / "out")
    assert not skipped and len(written) == 2 * len(MIRROR_TRANSCRIPTS)
    for transcript in MIRROR_TRANSCRIPTS:
        name = f"{transcript.stem}-epoch1"
        assert load_transcript(tmp_path / "out" / f"{name}.json").run.topic
        ours = json.loads((tmp_path / "out" / f"{name}-scores.json").read_text())
        theirs_file = MIRROR_SCORES / transcript.name.replace("transcript", "scores")
        theirs = json.loads(theirs_file.read_text())
        _same_shape(ours, theirs, extra={"fact_check", "margin_tier"})
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", ours["judged_at"])
        assert ours["judge_model"] == "mockllm/judge" and ours["judge_budget"] == 6000
        assert ours["winner"] == "con" and ours["winner_reason"] == "total"
        assert ours["fact_check_enabled"] is True
        for side, their_side in zip(ours["sides"], theirs["sides"], strict=True):
            _check_side(side, their_side)
        claims = ours["fact_check"]["claims"]
        assert len(claims) == 8 and {"phase_index", "side_index", "claim", "verdict"} <= set(
            claims[0]
        )
        assert {(c["phase_index"], c["side_index"]) for c in claims} == {
            (t["phase_index"], t["side_index"]) for t in json.loads(transcript.read_text())["turns"]
        }


def _check_side(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    _same_shape(ours, theirs, extra=set())
    assert (ours["side_index"], ours["side"]) == (theirs["side_index"], theirs["side"])
    for name, dimension in theirs["dimensions"].items():
        mine = ours["dimensions"][name]
        assert set(mine) == set(dimension) and mine["max"] == dimension["max"]
    dims = ours["dimensions"]
    # Means of two blind orientations: Side A's extra clarity point shows as a half.
    assert dims["clarity"]["score"] == (9.5 if ours["side"] == "con" else 7.5)
    assert isinstance(dims["argument_quality"]["score"], int)
    assert ours["total"] == sum(d["score"] for d in dims.values())
    assert dims["clarity"]["justification"].endswith("clarity noted.")
    assert dims["evidence_grounding"]["prep_grounded"] is False
    ledger = dims["rebuttal_effectiveness"]
    assert len(ledger["hit_ledger"]) == 1 and ledger["hit_ledger_reported"] is True


def test_a_score_file_names_the_passages_a_claim_cites(tmp_path: Path) -> None:
    prep = with_prep(mirror_document())
    path = write_json(tmp_path / "prep.json", prep)
    log = judge_log(tmp_path, path, scripted_judge(passage="args-me:101"), judge_budget=6000)
    written, _ = export_log(log.location, tmp_path / "out")
    transcript, scores = (json.loads(p.read_text()) for p in written)
    assert transcript["turns"][:2] == prep["turns"][:2]  # the evidence is exported back
    # 6000: the scripted ledger's 10 claims fit the claims a 3000 budget allows (7).
    assert scores["judge_budget"] == 6000 and "note" not in scores["fact_check"]
    first = scores["fact_check"]["claims"][0]
    assert first["evidence_ids"] == ["args-me:101"] and first["verdict"] == "supported"
    grounded = [s["dimensions"]["evidence_grounding"]["prep_grounded"] for s in scores["sides"]]
    assert grounded == [True, True]


def test_without_a_fact_check_or_a_usable_judgment(tmp_path: Path) -> None:
    log = judge_log(tmp_path, MIRROR_TRANSCRIPTS[0], fact_check=False)
    written, _ = export_log(log.location, tmp_path / "checked")
    scores = json.loads(written[1].read_text())
    assert scores["fact_check_enabled"] is False and "fact_check" not in scores
    prose = Script("judge", lambda n, m, c: output("judge", "Con argued better."))
    log = judge_log(tmp_path / "prose", MIRROR_TRANSCRIPTS[0], prose, fact_check=False)
    written, skipped = export_log(log.location, tmp_path / "unscored")
    assert [p.name for p in written] == [f"{MIRROR_TRANSCRIPTS[0].stem}-epoch1.json"]
    assert skipped == [
        f"{MIRROR_TRANSCRIPTS[0].stem}-epoch1: no score file, the rubric left it unscored "
        f"({((log.samples or [])[0].scores or {})['rubric'].reason[:200]})"
    ]
