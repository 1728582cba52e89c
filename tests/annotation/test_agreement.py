"""`debatebench-eval agreement` on a real folder of debates and labels written for it:
each label's opaque id resolved through the page's key, every figure computed from the
matched labels, each unusable label named by file and line, the judge's human-agreement
record written where the gate reads it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import get_model

from debatebench_eval.annotation.agreement import human_winner
from debatebench_eval.annotation.items import Item, load_items
from debatebench_eval.annotation.labels import match_labels, read_labels
from debatebench_eval.annotation.page_key import KEY_SUFFIX, blind_id, key_of, write_key
from debatebench_eval.cli.main import main
from debatebench_eval.core.errors import DebateError
from debatebench_eval.judging.gate import judge_trust
from debatebench_eval.trust.check_records import HUMAN, load_check_records

from support.paths import RESULTS


class Page:
    """The debates a page showed, each with the side shown as A: the key of the labels."""

    def __init__(self) -> None:
        self.shown: list[tuple[Item, Any]] = []

    def label(
        self, of: Item, annotator: str, winner: str | None, a_side: str = "pro", **kw: Any
    ) -> dict[str, Any]:
        """A row as the page exports it for `of` shown with `a_side` as A."""
        side = of.a_side or a_side
        self.shown.append((of, side))
        found = {"item": blind_id(of, side), "annotator": annotator, "winner": winner,
                 "labelled_at": "2026-12-05T09:00:00Z", "page": "seed-1-items-6"}  # fmt: skip
        found.update(kw)
        return found

    def write(self, path: Path, rows: list[dict[str, Any]]) -> Path:
        """The labels file, and the page's key beside it."""
        write_key(key_of(self.shown, 1), path.with_name(f"page{KEY_SUFFIX}"))
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
    page = Page()
    rows = [page.label(it, who, agree(it, side), a_side=side)
            for it in items for who, side in (("ada", "pro"), ("bo", "con"))]  # fmt: skip
    labels = page.write(tmp_path / "labels.jsonl", rows)
    # The A/B letters are read back through the key's side shown as A: every label names
    # the judge's side.
    winners = {i.item: i.verdict.winner for i in items if i.verdict}
    assert all(human_winner(lb) == winners[lb.debate.name] for lb in read_labels([labels]))
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
    page = Page()
    rows = [page.label(it, "ada", flip[agree(it, "pro")]) for it in items]
    labels = page.write(tmp_path / "labels.jsonl", rows)
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
    page = Page()
    # The page showed one debate as it was before its text changed, and one of a log
    # that is not in this folder.
    changed = page.label(items[0].model_copy(update={"digest": "f" * 16}), "ada", "A")
    unknown = page.label(items[1].model_copy(update={"item": "elsewhere.eval:m9:1"}), "ada", "A")
    good = page.label(items[1], "bo", "A")
    labels = page.write(tmp_path / "mixed.jsonl", [changed, unknown, good])
    code = main(["agreement", str(log_folder), str(labels), "--no-record", "--resamples", "200"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"{labels}: line 1: item {items[0].item} changed since it was labelled" in out
    assert f"{labels}: line 2: item elsewhere.eval:m9:1 is not in the folder" in out
    assert "1 matched" in out and "trust record: not written (--no-record)" in out


def test_an_id_no_key_holds_is_an_error_naming_its_line_and_key_names_the_key(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = judged(log_folder)
    page = Page()
    labels = page.write(tmp_path / "labels.jsonl", [page.label(items[0], "ada", "A")])
    stray = Page().label(items[0], "ada", "A", a_side="con")  # shown the other way round
    labels.write_text(labels.read_text() + json.dumps(stray) + "\n")
    assert main(["agreement", str(log_folder), str(labels), "--no-record"]) == 2
    err = capsys.readouterr().err
    assert f"{labels}: line 2: item: id {stray['item']} is on none of the pages" in err
    # Labels kept away from their key read it when it is named.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = elsewhere / "labels.jsonl"
    moved.write_text(labels.read_text().splitlines()[0] + "\n")
    assert main(["agreement", str(log_folder), str(moved), "--no-record"]) == 2
    assert "beside the labels: none was found" in capsys.readouterr().err
    key = str(tmp_path / f"page{KEY_SUFFIX}")
    assert main(["agreement", str(log_folder), str(moved), "--key", key, "--no-record",
                 "--resamples", "200"]) == 0  # fmt: skip
    assert "1 matched" in capsys.readouterr().out


def test_labels_for_other_debates_are_refused_saying_so(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = Page()
    first = judged(log_folder)[0]
    other = [page.label(first.model_copy(update={"item": f"other.eval:m{i}:1"}), "ada", "A")
             for i in range(3)]  # fmt: skip
    labels = page.write(tmp_path / "other.jsonl", other)
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
    page = Page()
    bad = page.label(judged(log_folder)[0], "ada", "C")
    labels = page.write(tmp_path / "bad.jsonl", [bad])
    assert main(["agreement", str(log_folder), str(labels)]) == 2
    err = capsys.readouterr().err
    assert str(labels) in err and "line 1" in err and "winner" in err


def test_known_answer_labels_give_the_humans_accuracy_beside_the_judges(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from debatebench_eval.annotation.agreement import correct_answer

    known = [i for i in load_items(log_folder) if i.kind == "known_answer" and i.verdict]
    assert known
    page = Page()
    rows = [page.label(it, "ada", None, answer=correct_answer(it), confidence=80)
            for it in known]  # fmt: skip
    labels = page.write(tmp_path / "known.jsonl", rows)
    assert main(["agreement", str(log_folder), str(labels), "--json", "--no-record",
                 "--resamples", "200"]) == 0  # fmt: skip
    found = json.loads(capsys.readouterr().out)
    ka = found["known_answer"]
    assert ka["humans_accuracy"]["value"] == 1.0
    right = sum(bool(i.verdict and i.verdict.pick_right) for i in known) / len(known)
    assert ka["judge_accuracy"]["value"] == pytest.approx(right)
    assert ka["humans_minus_judge"]["value"] == pytest.approx(1.0 - right)


def test_the_worked_examples_page_and_labels_are_blind_and_resolve_through_its_key() -> None:
    example = RESULTS / "human-labels"
    for shipped in ("page.html", "labels.jsonl"):
        text = (example / shipped).read_text(encoding="utf-8")
        for secret in ("smollm2", "ollama", "swapped", "a_side", "KBkR55W8M5h8aA4qaBkMJd"):
            assert secret not in text, (shipped, secret)
    found = match_labels(
        read_labels([example / "labels.jsonl"]), load_items(example / "tournament")
    )
    assert len(found.matched) == 8 and not found.changed and not found.unknown
    assert {label.annotator for label, _ in found.matched} == {"llm-screenshots", "rule-words"}
