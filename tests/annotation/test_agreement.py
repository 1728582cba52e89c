"""`debatebench-eval agreement` on a real folder of debates and labels written for it:
every figure computed from the matched labels, each unusable label named by file and
line, the judge's human-agreement record written where the gate reads it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import get_model

from debatebench_eval.annotation.agreement import human_winner
from debatebench_eval.annotation.items import Item, load_items
from debatebench_eval.annotation.labels import read_labels
from debatebench_eval.cli.main import main
from debatebench_eval.core.errors import DebateError
from debatebench_eval.judging.gate import judge_trust
from debatebench_eval.trust.check_records import HUMAN, load_check_records


def label(
    of: Item, annotator: str, winner: str | None, a_side: str = "pro", **kw: Any
) -> dict[str, Any]:
    found = {"item": of.item, "digest": of.digest, "annotator": annotator,
             "a_side": of.a_side or a_side, "winner": winner,
             "labelled_at": "2026-12-05T09:00:00Z", "page": "seed-1-items-6"}  # fmt: skip
    found.update(kw)
    return found


def write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def judged(log_folder: Path) -> list[Item]:
    return [i for i in load_items(log_folder) if i.kind == "rubric" and i.verdict
            and i.verdict.winner]  # fmt: skip


def agree(item: Item, a_side: str) -> str:
    """The label that names the judge's winner when `a_side` is shown as A."""
    assert item.verdict is not None
    winner = item.verdict.winner
    return "tie" if winner == "tie" else ("A" if winner == a_side else "B")


def test_labels_that_always_agree_give_kappa_and_agreement_of_one(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = judged(log_folder)
    assert len(items) >= 2
    rows = [label(it, who, agree(it, side), a_side=side)
            for it in items for who, side in (("ada", "pro"), ("bo", "con"))]  # fmt: skip
    labels = write(tmp_path / "labels.jsonl", rows)
    # The A/B letters are read back through a_side: every label names the judge's side.
    winners = {i.item: i.verdict.winner for i in items if i.verdict}
    assert all(human_winner(lb) == winners[lb.item] for lb in read_labels([labels]))
    code = main(["agreement", str(log_folder), str(labels), "--json", "--out",
                 str(tmp_path / "trust"), "--resamples", "200"])  # fmt: skip
    found = json.loads(capsys.readouterr().out)
    assert code == 0
    assert found["counts"]["matched"] == len(rows) and found["counts"]["annotators"] == 2
    assert found["winner"]["agreement"]["value"] == 1.0
    assert found["winner"]["kappa"]["value"] == 1.0
    assert found["winner"]["side_bias"]["value"] == 0.0
    # Both annotators agree on every debate: alpha 1 (or undefined when one answer only).
    assert found["humans"]["winner_alpha"]["n"] == len(items)
    assert found["record"]["passed"] is True
    record = json.loads(Path(found["record"]["written"]).read_text())
    assert record["check"] == HUMAN and record["figures"]["kappa"] == 1.0


def test_a_judge_people_disagree_with_fails_the_check_and_the_gate(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    private_trust_records: Path,
) -> None:  # fmt: skip
    items = judged(log_folder)
    flip = {"A": "B", "B": "A", "tie": "A"}
    rows = [label(it, "ada", flip[agree(it, "pro")]) for it in items]
    labels = write(tmp_path / "labels.jsonl", rows)
    code = main(["agreement", str(log_folder), str(labels), "--resamples", "200"])
    out = capsys.readouterr().out
    assert code == 0
    assert "raw agreement 0.000" in out and "NOT PASSED: kappa" in out
    [(_, record)] = load_check_records(HUMAN)
    judge = get_model(f"{record.judge.provider}/{record.judge.model}", memoize=False)
    stamp = asyncio.run(judge_trust([judge], require=False))
    assert stamp["checks"][HUMAN]["status"] == "failed"
    with pytest.raises(DebateError, match=r"require_human_kappa=0.2: judge .* has kappa"):
        asyncio.run(judge_trust([judge], require=False, human_kappa=0.2))


def test_unusable_labels_are_named_by_file_and_line(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = judged(log_folder)
    changed = label(items[0], "ada", "A", digest="f" * 16)
    unknown = label(items[1], "ada", "A", item="elsewhere.eval:m9:1")
    good = label(items[1], "bo", "A")
    labels = write(tmp_path / "mixed.jsonl", [changed, unknown, good])
    code = main(["agreement", str(log_folder), str(labels), "--no-record", "--resamples", "200"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"{labels}: line 1: item {items[0].item} changed since it was labelled" in out
    assert f"{labels}: line 2: item elsewhere.eval:m9:1 is not in the folder" in out
    assert "1 matched" in out and "trust record: not written (--no-record)" in out


def test_labels_for_other_debates_are_refused_saying_so(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = [label(judged(log_folder)[0], "ada", "A", item=f"other.eval:m{i}:1") for i in range(3)]
    labels = write(tmp_path / "other.jsonl", other)
    assert main(["agreement", str(log_folder), str(labels)]) == 1
    err = capsys.readouterr().err
    assert (
        "none of the 3 label(s) can be used: 0 are for debates that changed since, 3 for "
        "debates not in" in err
    )
    assert f"{labels}: line 3: item other.eval:m2:1 is not in the folder" in err


def test_a_malformed_row_is_one_message_naming_file_line_and_field(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = label(judged(log_folder)[0], "ada", "C")
    labels = write(tmp_path / "bad.jsonl", [bad])
    assert main(["agreement", str(log_folder), str(labels)]) == 2
    err = capsys.readouterr().err
    assert str(labels) in err and "line 1" in err and "winner" in err


def test_known_answer_labels_give_the_humans_accuracy_beside_the_judges(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from debatebench_eval.annotation.agreement import correct_answer

    known = [i for i in load_items(log_folder) if i.kind == "known_answer" and i.verdict]
    assert known
    rows = [label(it, "ada", None, answer=correct_answer(it), confidence=80)
            for it in known]  # fmt: skip
    labels = write(tmp_path / "known.jsonl", rows)
    assert main(["agreement", str(log_folder), str(labels), "--json", "--no-record",
                 "--resamples", "200"]) == 0  # fmt: skip
    found = json.loads(capsys.readouterr().out)
    ka = found["known_answer"]
    assert ka["humans_accuracy"]["value"] == 1.0
    right = sum(bool(i.verdict and i.verdict.pick_right) for i in known) / len(known)
    assert ka["judge_accuracy"]["value"] == pytest.approx(right)
    assert ka["humans_minus_judge"]["value"] == pytest.approx(1.0 - right)
