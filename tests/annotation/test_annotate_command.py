"""`debatebench-eval annotate`: the page written blind (on screen and in its source), its
key beside it, what it says it wrote, and one clear message for each bad input."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.annotation.items import load_items
from debatebench_eval.annotation.page import page_data
from debatebench_eval.annotation.page_key import PageKey, blind_id, page_key, read_key
from debatebench_eval.cli.main import main
from debatebench_eval.judging.rubric import default_rubric

from support.annotation_logs import BROKEN, INJECTION, STARTED


def annotate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["annotate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def key_of_page(page: Path) -> PageKey:
    return read_key(page.with_name(page.stem + ".key.json"))


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
    assert f"key: {tmp_path / 'out' / 'page.key.json'} (which debate each id" in out
    assert re.search(r"6 debates on the page \(stratified over pair and motion, seed 0", out)
    assert re.search(r"  \d rubric debates \(who argued better\)", out)
    assert re.search(r"  \d known-answer debates \(which answer is right\)", out)
    assert f"passed over {STARTED}: still being written" in out
    assert re.search(rf"passed over \S*{BROKEN}: not readable", out)
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
    assert set(data) == {"page", "dimensions", "scale", "items"}
    for shown in data["items"]:
        assert set(shown) <= {"item", "kind", "prompt", "speeches", "answers", "sides"}


def test_the_source_knows_debates_by_opaque_ids_and_the_key_beside_it_names_them(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "labels.html"
    assert annotate(capsys, str(log_folder), "-o", str(page), "--size", "6", "--seed", "4")[0] == 0
    html = page.read_text(encoding="utf-8")
    items = {item.item: item for item in load_items(log_folder)}
    for item in items.values():
        for secret in (item.item, item.log, item.log.removesuffix(".eval"), str(item.uuid),
                       item.digest):  # fmt: skip
            assert secret not in html, secret
    for field in ("a_side", "digest", "sample_id", "swapped", 'seed"', '"pro"', '"con"'):
        assert field not in html, field
    key = key_of_page(page)
    data = embedded(page)
    assert key.page == data["page"] and key.seed == 4
    assert [shown["item"] for shown in data["items"]] == list(key.items)
    for shown in data["items"]:
        entry = key.items[shown["item"]]
        item = items[entry.item]
        # The key alone says which debate an id is and which side the page shows as A.
        assert shown["item"] == blind_id(item, entry.a_side)
        assert (entry.digest, entry.kind) == (item.digest, item.kind)
        if item.kind == "rubric":
            pro = "A" if entry.a_side == "pro" else "B"
            assert f"Side {pro} argues for the motion." in shown["sides"]
            opener = item.speeches[0].speaker
            assert shown["speeches"][0]["who"] == f"Side {'A' if opener == entry.a_side else 'B'}"


def test_the_seed_and_most_informative_are_said_and_change_the_page(
    log_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pages = {}
    keys = {}
    for name, extra in (("a", ["--seed", "1"]), ("b", ["--seed", "2"]),
                        ("c", ["--most-informative"])):  # fmt: skip
        page = tmp_path / f"{name}.html"
        code, out, _ = annotate(capsys, str(log_folder), "-o", str(page), "--size", "6", *extra)
        assert code == 0
        pages[name] = embedded(page)
        keys[name] = key_of_page(page)
    assert "most informative first" in out
    sides = {name: [(e.item, e.a_side) for e in key.items.values() if e.kind == "rubric"]
             for name, key in keys.items()}  # fmt: skip
    orders = {name: [e.item for e in key.items.values()] for name, key in keys.items()}
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
    assert re.search(rf"passed over \S*{BROKEN}: not readable", err)


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
    assert (
        f"{tmp_path / 'nowhere'}: no such folder or log file; expected a folder of Inspect logs"
        in err
    )


def test_each_dimension_is_explained_to_people_by_what_it_measures() -> None:
    dimensions = page_data([], page_key([], 0))["dimensions"]
    assert [d["key"] for d in dimensions] == list(default_rubric().names)
    rebuttal = next(d for d in dimensions if d["key"] == "rebuttal_effectiveness")
    assert rebuttal["help"] == "How well the side answers the opponent's points."
    assert all(d["help"].endswith(".") and "ledger" not in d["help"] for d in dimensions)
