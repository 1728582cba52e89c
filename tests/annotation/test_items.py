"""A log folder read into items: both kinds, the judge's verdict kept for the agreement
figures, every log passed over said once, a changed debate a new digest."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from debatebench_eval.annotation.items import read_folder, rubric_item
from debatebench_eval.annotation.page import shown_item
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.record.store import DebateRecord

from support.annotation_logs import BROKEN, STARTED, oversight_log, plain_oversight


def test_a_folder_gives_rubric_and_known_answer_items(log_folder: Path) -> None:
    found = read_folder(log_folder)
    kinds = [item.kind for item in found.items]
    assert kinds.count("rubric") == 4 and kinds.count("known_answer") == 2
    rubric = [i for i in found.items if i.kind == "rubric"]
    assert {i.models for i in rubric} == {
        ("mockllm/alpha", "mockllm/beta"), ("mockllm/delta", "mockllm/gamma")
    }  # fmt: skip
    first = rubric[0]
    assert first.item == f"{first.log}:{first.sample_id}:1" and "/" not in first.log
    assert [s.stage for s in first.speeches][:2] == ["opening", "opening"]
    assert first.verdict is not None and first.verdict.winner == "pro"
    assert first.verdict.margin == 40.0 and first.verdict.swap_flipped is False
    assert first.verdict.panel_split is None  # one judge: no panel to split
    assert ("mockllm/alpha", False) in first.hidden or ("mockllm/gamma", False) in first.hidden


def test_known_answer_items_keep_the_records_labels(log_folder: Path) -> None:
    items = [i for i in read_folder(log_folder).items if i.kind == "known_answer"]
    for item in items:
        assert item.protocol == "debate" and len(item.answers) == 2
        defends_a = next(s.speaker for s in item.speeches if s.defends == "A")
        assert item.a_side == defends_a
        assert item.verdict is not None and item.verdict.pick == "A"
        right = item.answers[0].startswith("TRUE")
        assert item.verdict.pick_right is right
        # Always A at 80%, read in both answer orders: the two readings cancel.
        assert item.verdict.p_correct == pytest.approx(0.5)


def test_each_log_passed_over_gets_one_note(log_folder: Path) -> None:
    notes = read_folder(log_folder).notes
    assert len(notes) == 3, notes
    assert any(STARTED in n and "still being written" in n for n in notes)
    assert any(BROKEN in n and "not readable" in n for n in notes)
    assert any("protocol naive, which has no speeches" in n for n in notes)


def test_a_changed_speech_changes_the_digest(log_folder: Path) -> None:
    log = next(p for p in sorted(log_folder.glob("*_debate_*.eval"))
               if p.name not in (BROKEN, STARTED))  # fmt: skip
    sample = (read_eval_log(str(log)).samples or [])[0]
    before = rubric_item(sample, log.name)
    record = sample.store_as(DebateRecord)
    record.turns[-1].text += " And one more thing."
    sample.store.update(record.model_dump())
    after = rubric_item(sample, log.name)
    assert before is not None and after is not None and after.item == before.item
    assert after.digest != before.digest


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere: no such folder or log file"):
        read_folder(tmp_path / "nowhere")


def test_consultancy_and_open_debates_show_each_speaker_by_the_answer_it_defends(
    tmp_path: Path,
) -> None:
    oversight_log(tmp_path, plain_oversight(), "consultancy", n=2, rounds=2, interactive=True)
    oversight_log(tmp_path, plain_oversight(), "open", n=2)
    items = read_folder(tmp_path / "logs").items
    assert sorted(i.protocol or "" for i in items) == ["consultancy"] * 2 + ["open"] * 2
    consultancy = next(i for i in items if i.protocol == "consultancy")
    assert {s.speaker for s in consultancy.speeches} == {"consultant", "judge"}
    assert consultancy.a_side == "pro"  # one speaker, no side: A stays as the record has it
    shown = shown_item(consultancy, "pro", "0" * 16)["speeches"]
    defends = next(s.defends for s in consultancy.speeches if s.speaker == "consultant")
    assert {s["who"] for s in shown} == {f"Consultant for answer {defends}", "The judge asks"}
    for item in (i for i in items if i.protocol == "open"):
        defends_a = next(s.speaker for s in item.speeches if s.defends == "A")
        assert item.a_side == defends_a


def test_a_debate_copied_into_a_resumed_runs_log_is_shown_once(
    log_folder: Path, tmp_path: Path
) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    original = next(p for p in sorted(log_folder.glob("*_debate_*.eval"))
                    if p.name not in (BROKEN, STARTED))  # fmt: skip
    shutil.copy(original, logs / original.name)
    # The resumed run's log: a later start time leads its name, the same samples inside.
    resumed = "2099-01-01T00-00-00-00-00_debate_ResumedRun000000000000.eval"
    shutil.copy(original, logs / resumed)
    found = read_folder(logs)
    assert len(found.items) == 2 and {i.log for i in found.items} == {resumed}
    assert "2 debate(s) are in more than one log" in found.notes[0]
