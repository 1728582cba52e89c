"""leaderboard.html in a real browser (headless Chromium over the DevTools protocol) at
1,280 px, a laptop's width: the page never scrolls sideways; a table wider than the
page scrolls inside a box of its own, and a log's long file name breaks in its cell."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from debatebench_eval.cli.main import main
from debatebench_eval.tournament.leaderboard_page import leaderboard_page

from support.browser import Browser, require, shots_folder
from support.paths import RESULTS
from support.planted_defects import JUDGES, cycle

WIDTH, HEIGHT = 1280, 900
# What sticks out sideways: the page's own scroll width, and each table's box
# (where it ends on the page, how wide its content is, how wide it shows it).
LAYOUT = """(() => ({
  page: document.documentElement.scrollWidth,
  view: window.innerWidth,
  free: [...document.querySelectorAll('table')].filter(t => !t.closest('div.table')).length,
  boxes: [...document.querySelectorAll('div.table')].map(b => ({
    right: b.getBoundingClientRect().right, content: b.scrollWidth, shown: b.clientWidth,
    first: b.querySelector('th') ? b.querySelector('th').textContent : ''})),
}))()"""


def _layout(page: Path, profile: Path, shot: Path) -> dict[str, Any]:
    with Browser(profile, WIDTH, HEIGHT) as browser:
        browser.open(page.as_uri())
        found: dict[str, Any] = browser.evaluate(LAYOUT)
        browser.size(WIDTH, int(browser.evaluate("document.documentElement.scrollHeight")))
        browser.screenshot(shot)
        browser.size(WIDTH, HEIGHT)
        # A wide table's box scrolls; the page stays where it was.
        found["scrolled"] = browser.evaluate(
            "[...document.querySelectorAll('div.table')].map(b => "
            "{ b.scrollLeft = 100000; return b.scrollLeft; })"
        )
        found["page_scrolled"] = browser.evaluate("window.scrollTo(100000, 0), window.scrollX")
    return found


def _fits(found: dict[str, Any]) -> None:
    assert found["view"] == WIDTH
    assert found["page"] <= WIDTH, f"the page scrolls sideways: {found['page']} px"
    assert found["page_scrolled"] == 0
    assert found["free"] == 0, "a table outside a box of its own"
    for box in found["boxes"]:
        assert box["right"] <= WIDTH, f"the box of table {box['first']!r} sticks out"


def test_the_worked_example_fits_1280_px(tmp_path: Path) -> None:
    """The shipped tournament with its human labels, rated as its guide's worked example
    (the human-label table among the widest a leaderboard holds)."""
    require()
    out = tmp_path / "board"  # the worked example is read, never written
    source = RESULTS / "human-labels"
    assert main(["tournament", "rate", str(source / "tournament"), "--human",
                 str(source / "labels.jsonl"), "--out", str(out)]) == 0  # fmt: skip
    found = _layout(out / "leaderboard.html", tmp_path / "profile",
                    shots_folder(tmp_path) / "leaderboard-1280.png")  # fmt: skip
    _fits(found)
    assert len(found["boxes"]) >= 8  # every table of the page, the pair logs' too


def test_a_wide_table_scrolls_in_its_box_and_a_long_log_name_breaks(tmp_path: Path) -> None:
    require()
    columns = [f"a long column heading {i}" for i in range(14)]
    wide = "\n".join(
        ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns),
         "| " + " | ".join(f"1234 [567, 8901] {i}" for i in range(len(columns))) + " |"]
    )  # fmt: skip
    markdown = f"# Tournament leaderboard\n\nRatings.\n\n## Wide\n\n{wide}\n"
    root = tmp_path / "tourney"
    log = root / ("2026-01-01T00-00-00-00-00_" + "a-very-long-model-name-" * 6 + "x.eval")
    board = {
        "tournament": {
            "id": "t",
            "folders": [str(root)],
            "logs": [
                {"location": str(log), "pair": ["m1", "m2"], "samples": 6, "status": "success"}
            ],
        }
    }
    page = tmp_path / "leaderboard.html"
    page.write_text(leaderboard_page(board, markdown, {}, str(root)), encoding="utf-8")
    found = _layout(page, tmp_path / "profile", shots_folder(tmp_path) / "wide-1280.png")
    _fits(found)
    by_first = {box["first"]: box for box in found["boxes"]}
    table = by_first[columns[0]]
    assert table["content"] > table["shown"], "the wide table should scroll in its box"
    assert max(found["scrolled"]) > 0  # ... and does
    logs = by_first["pair"]
    assert logs["content"] <= logs["shown"], "the log's name should break, not scroll"


def test_the_order_sections_fit_1280_px(tmp_path: Path) -> None:
    """A board with every new section filled: an alarm, flip sets with their debates,
    a cycle with its edges, and the judge-aware rating with each judge's weight."""
    require()
    path = tmp_path / "outcomes-from-a-panel-of-three-judges-with-long-names.csv"
    judges = [f"judge:{j}" for j in JUDGES]
    lines = [",".join(["motion", "pro", "con", "winner", *judges])]
    lines += [",".join([d.motion, d.pro, d.con, "pro" if d.result == 1 else "con",
                        *(str(v.winner) for v in d.judges)]) for d in cycle()]  # fmt: skip
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "board"
    assert main(["tournament", "rate", "--outcomes", str(path), "--out", str(out)]) == 0
    text = (out / "leaderboard.md").read_text(encoding="utf-8")
    for heading in ("How firm the order is", "Where the order is not an order",
                    "Judges weighed by how well they judge"):  # fmt: skip
        assert f"## {heading}" in text
    found = _layout(out / "leaderboard.html", tmp_path / "profile",
                    shots_folder(tmp_path) / "order-sections-1280.png")  # fmt: skip
    _fits(found)
