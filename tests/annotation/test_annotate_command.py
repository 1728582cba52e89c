"""`debatebench-eval annotate`: the page written blind, what it says it wrote, and one
clear message for each bad input."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.annotation.page import page_data
from debatebench_eval.cli.main import main
from debatebench_eval.judging.rubric import default_rubric

from support.annotation_logs import BROKEN, INJECTION, STARTED


def annotate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["annotate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def embedded(page: Path) -> dict[str, Any]:
    html = page.read_text(encoding="utf-8")
    found = re.search(r'<script id="page-data" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_page_is_written_blind_and_the_command_says_what_it_holds(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "out" / "page.html"
    code, out, _ = annotate(capsys, str(log_folder), "-o", str(page), "--size", "6")
    assert code == 0 and out.rstrip().endswith(str(page))
    assert re.search(r"6 debates on the page \(stratified over pair and motion, seed 0", out)
    assert re.search(r"  \d rubric debates \(who argued better\)", out)
    assert re.search(r"  \d known-answer debates \(which answer is right\)", out)
    assert f"passed over {STARTED}: still being written" in out
    assert f"passed over {BROKEN}: not readable" in out
    assert "protocol naive, which has no speeches to label" in out
    html = page.read_text(encoding="utf-8")
    for model_or_team in ("mockllm", "alpha", "gamma", "Reform Advocate", "Cautious Skeptic"):
        assert model_or_team not in html, model_or_team
    shown = json.dumps(embedded(page))
    assert "As [withheld], I say" in shown  # a speech naming its model is masked
    for judge_output in ("margin", "verdict", "pick", "p_correct", "winner", "judge", "40.0"):
        assert judge_output not in shown, judge_output
    # Markup in a speech cannot close the data's <script>: only the page's own two end it.
    assert html.count("</script>") == 2
    data = embedded(page)
    assert len(data["items"]) == 6 and data["page"].startswith("seed-0-items-6-")
    for shown in data["items"]:
        assert set(shown) <= {"item", "digest", "kind", "a_side", "prompt", "speeches",
                              "answers", "sides"}  # fmt: skip


def test_the_seed_and_most_informative_are_said_and_change_the_page(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pages = {}
    for name, extra in (("a", ["--seed", "1"]), ("b", ["--seed", "2"]),
                        ("c", ["--most-informative"])):  # fmt: skip
        page = tmp_path / f"{name}.html"
        code, out, _ = annotate(capsys, str(log_folder), "-o", str(page), "--size", "6", *extra)
        assert code == 0
        pages[name] = embedded(page)
    assert "most informative first" in out
    sides = {name: [i["a_side"] for i in data["items"] if i["kind"] == "rubric"]
             for name, data in pages.items()}  # fmt: skip
    orders = {name: [i["item"] for i in data["items"]] for name, data in pages.items()}
    assert sides["a"] != sides["b"] or orders["a"] != orders["b"]
    assert pages["a"]["page"] != pages["b"]["page"]
    assert any(INJECTION in s["text"] for i in pages["c"]["items"] for s in i["speeches"])


def test_asking_for_more_debates_than_the_folder_has_uses_all_and_says_so(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = annotate(capsys, str(log_folder), "-o", str(tmp_path / "p.html"),
                            "--size", "40")  # fmt: skip
    assert code == 0
    assert "asked for 40, the folder has 6: all of them are on the page" in out


def test_a_folder_without_debates_is_one_message_with_what_was_passed_over(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "logs"
    empty.mkdir()
    shutil.copy(log_folder / BROKEN, empty / BROKEN)
    page = tmp_path / "p.html"
    code, out, err = annotate(capsys, str(empty), "-o", str(page))
    assert code == 2 and not page.exists() and out == ""
    assert err.startswith(f"debatebench-eval annotate: {empty}: no finished debate in it; "
                          "expected a folder of debatebench/debate logs")  # fmt: skip
    assert f"passed over {BROKEN}: not readable" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "0"], "--size: 0; expected a whole number of at least 1"),
        (["--size", "-3"], "--size: -3; expected a whole number of at least 1"),
    ],
)
def test_a_bad_size_is_named(
    log_folder: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = annotate(capsys, str(log_folder), *args)
    assert code == 2 and message in err


def test_a_missing_folder_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = annotate(capsys, str(tmp_path / "nowhere"))
    assert code == 2
    assert f"{tmp_path / 'nowhere'}: not a folder; expected a folder of Inspect logs" in err


def test_each_dimension_is_explained_to_people_by_what_it_measures() -> None:
    dimensions = page_data([], 0)["dimensions"]
    assert [d["key"] for d in dimensions] == list(default_rubric().names)
    rebuttal = next(d for d in dimensions if d["key"] == "rebuttal_effectiveness")
    assert rebuttal["help"] == "How well the side answers the opponent's points."
    assert all(d["help"].endswith(".") and "ledger" not in d["help"] for d in dimensions)
