"""The labelling page in a real browser (headless Chromium over the DevTools protocol),
opened from a file:// URL as a person would open it: three debates labelled by
keyboard, the labels surviving a reload, exported as a file the project reads back
through the page's key, imported into a fresh browser profile (each bad line named,
every label counted); the page's source, storage and export blind to models, logs and
sides; the confidence slider's own arrow keys; plus the page's accessibility basics and
screenshots at a desktop and a phone size."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.annotation.items import load_items
from debatebench_eval.annotation.labels import match_labels, read_labels
from debatebench_eval.annotation.page_key import key_path, read_key
from debatebench_eval.cli.main import main

from support.annotation_logs import INJECTION
from support.browser import Browser, require, shots_folder
from support.paths import RESULTS

PROGRESS = "document.getElementById('progress-label').textContent"
BAR = "document.getElementById('progress').value"
STATUS = "document.getElementById('status').textContent"
INDEX = "window.labelsPage.state().index"
STORED = "Object.values(window.labelsPage.state().rows).length"
# The page's controls in the order Tab reaches them on a first, rubric, debate: one stop
# per radio group (arrows move inside it), the known-answer question hidden, and
# Previous disabled.
FOCUS_ORDER = ["annotator", "import", "export", "winner:A", "dims-summary", "next"]


@pytest.fixture(scope="module")
def page(log_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    require()
    out = tmp_path_factory.mktemp("page") / "labels.html"
    assert main(["annotate", str(log_folder), "-o", str(out), "--size", "6", "--seed", "3"]) == 0
    return out


def chosen(browser: Browser) -> Any:
    return browser.evaluate(
        "(() => { const w = document.querySelector('input[name=winner]:checked');"
        " const a = document.querySelector('input[name=answer]:checked');"
        " return w ? w.value : a ? 'answer ' + a.value : null; })()"
    )


def kind(browser: Browser) -> str:
    return str(browser.evaluate("document.getElementById('winner-set').hidden ? 'ka' : 'rubric'"))


def label_three(browser: Browser) -> list[tuple[str, str]]:
    """Label the first three debates by keyboard: a, then b, then t (or a for a
    known-answer debate, where t is no answer); the choices as the page shows them."""
    shown = []
    for key in ("a", "b", "t"):
        if kind(browser) == "ka" and key == "t":
            key = "a"
        browser.press(key)
        shown.append((browser.evaluate("window.labelsPage.state().index"), chosen(browser)))
        browser.press("n")
    return shown


def test_label_by_keyboard_reload_export_and_import(
    page: Path, log_folder: Path, tmp_path: Path
) -> None:
    url = page.as_uri()
    downloads = tmp_path / "downloads"
    with Browser(tmp_path / "profile") as browser:
        browser.open(url)
        assert browser.evaluate(PROGRESS) == "0 of 6 labelled"
        browser.press("a")  # no name yet: nothing is recorded, the name field asks for one
        assert browser.evaluate(STORED) == 0
        assert browser.evaluate("document.activeElement.id") == "annotator"
        browser.type_text("Ada Lovelace")
        browser.press("Tab")  # out of the name field: shortcuts work again
        browser.evaluate("document.getElementById('item-title').focus()")
        shown = label_three(browser)
        assert [index for index, _ in shown] == [0, 1, 2]
        assert all(choice is not None for _, choice in shown)
        assert browser.evaluate(PROGRESS) == "3 of 6 labelled"
        browser.press("ArrowLeft")
        assert browser.evaluate("window.labelsPage.state().index") == 2

        browser.reload()
        assert browser.evaluate(PROGRESS) == "3 of 6 labelled"
        assert browser.evaluate("document.getElementById('annotator').value") == "Ada Lovelace"
        assert chosen(browser) == shown[2][1]
        saved = browser.evaluate(
            "JSON.parse(localStorage.getItem('debatebench-labels:' + "
            "JSON.parse(document.getElementById('page-data').textContent).page))"
        )
        assert len(saved["rows"]) == 3 and saved["annotator"] == "Ada Lovelace"

        browser.allow_downloads(downloads)
        browser.evaluate("document.getElementById('export').click()")
        exported = browser.wait_for(lambda: sorted(downloads.glob("*.jsonl")), "the export")
        text = browser.evaluate("window.labelsPage.exportText()")
    assert exported[0].read_text() == text

    labels = read_labels(exported, [key_path(page)])
    assert len(labels) == 3 and {lb.annotator for lb in labels} == {"Ada Lovelace"}
    found = match_labels(labels, load_items(log_folder))
    assert len(found.matched) == 3 and not found.changed and not found.unknown
    for label, item in found.matched:
        assert label.debate.a_side in ("pro", "con")
        assert (label.winner is not None) == (item.kind == "rubric")

    with Browser(tmp_path / "fresh-profile") as fresh:
        fresh.open(url)
        assert fresh.evaluate(PROGRESS) == "0 of 6 labelled"
        fresh.set_files("#import", exported[0])
        fresh.wait_for(lambda: fresh.evaluate(PROGRESS) == "3 of 6 labelled", "the import")
        assert fresh.evaluate("document.getElementById('annotator').value") == "Ada Lovelace"
        assert fresh.evaluate("window.labelsPage.exportText()") == text
        assert "3 labels loaded" in fresh.evaluate(STATUS)
        rows = [json.loads(line) for line in text.splitlines()]
        stray = tmp_path / "stray.jsonl"
        stray.write_text(_bad_lines(rows))
        fresh.set_files("#import", stray)
        status = fresh.wait_for(lambda: "1 labels loaded" in fresh.evaluate(STATUS)
                                and fresh.evaluate(STATUS), "the second import")  # fmt: skip
        # Each bad line is named by its number and the field that was wrong.
        assert "1 labels loaded; 5 lines left out:" in status
        assert "line 1: field item: no debate 0000000000000000 on this page" in status
        assert "line 2: field a_side: not a field of this page's labels" in status
        assert f"line 4: field {_question(rows[2])}: expected " in status
        assert "line 5: field labelled_at: expected an ISO-8601 time" in status
        assert "line 6: not JSON" in status
        # Every label loaded counts, Bo's beside Ada's own.
        assert fresh.evaluate(PROGRESS) == "3 of 6 labelled (4 labels by 2 annotators; 3 yours)"
        merged = read_labels([_write(tmp_path / "merged.jsonl", fresh)], [key_path(page)])
        assert sorted(lb.annotator for lb in merged) == ["Ada Lovelace"] * 3 + ["Bo"]

    with Browser(tmp_path / "third-profile") as third:
        third.open(url)
        third.evaluate("document.getElementById('annotator').focus()")
        third.type_text("Cy")
        third.set_files("#import", exported[0])  # another annotator's file
        third.wait_for(lambda: third.evaluate(BAR) == 3, "the import")
        assert third.evaluate(PROGRESS) == "3 of 6 labelled (3 labels by 1 annotator; 0 yours)"


def _question(row: dict[str, Any]) -> str:
    return "winner" if row["winner"] is not None else "answer"


def _bad_lines(rows: list[dict[str, Any]]) -> str:
    """A file of one good label by Bo among lines each wrong in one field, and no JSON."""
    bad = (
        {**rows[0], "item": "0" * 16, "annotator": "Bo"},  # a debate not on this page
        {**rows[1], "a_side": "pro", "annotator": "Bo"},  # a field the rows no longer have
        {**rows[2], "annotator": "Bo"},
        {**rows[2], "annotator": "Cy", "winner": "Z", "answer": "Z"},
        {**rows[0], "annotator": "Di", "labelled_at": "yesterday"},
    )
    return "".join(json.dumps(r) + "\n" for r in bad) + "{not json\n"


def _write(path: Path, browser: Browser) -> Path:
    path.write_text(browser.evaluate("window.labelsPage.exportText()"))
    return path


# Everything the browser holds of the page: its live document, its storage, its export.
STORAGE = "JSON.stringify(Object.entries(localStorage))"
DOCUMENT = "document.documentElement.outerHTML"


def test_the_source_storage_and_export_say_nothing_of_models_logs_or_sides(
    tmp_path: Path,
) -> None:
    """On the shipped tournament, whose log is named after its two models and whose
    swapped debates' sample ids end in `.swapped`: label every debate, then look for them."""
    require()
    folder = RESULTS / "human-labels" / "tournament"
    page = tmp_path / "labels.html"
    assert main(["annotate", str(folder), "-o", str(page), "--size", "6", "--seed", "1"]) == 0
    items = load_items(folder)
    secrets = {"ollama", "smollm2", "swapped", "a_side", "digest", 'seed"'}
    for item in items:
        secrets |= {item.item, item.log, item.log.removesuffix(".eval").rsplit("_", 1)[-1],
                    item.sample_id, str(item.uuid), item.digest, *item.models}  # fmt: skip
    with Browser(tmp_path / "profile") as browser:
        browser.open(page.as_uri())
        browser.evaluate("document.getElementById('annotator').focus()")
        browser.type_text("Ada")
        browser.evaluate("document.getElementById('item-title').focus()")
        for key in "abtab":
            browser.press(key)
            browser.press("n")
        browser.press("a")
        assert browser.evaluate(PROGRESS) == "6 of 6 labelled"
        held = {"source": page.read_text(encoding="utf-8"), "document": browser.evaluate(DOCUMENT),
                "storage": browser.evaluate(STORAGE),
                "export": browser.evaluate("window.labelsPage.exportText()")}  # fmt: skip
    for where, text in held.items():
        found = sorted(secret for secret in secrets if secret.lower() in text.lower())
        assert not found, f"the page's {where} holds {found}"
    rows = [json.loads(line) for line in held["export"].splitlines()]
    assert {frozenset(row) for row in rows} == {frozenset(
        ("item", "annotator", "winner", "scores", "answer", "confidence", "labelled_at", "page")
    )}  # fmt: skip
    assert all(value not in ("pro", "con") for row in rows for value in row.values())
    # The key beside the page, and only it, says which debate and side each label meant.
    key = read_key(key_path(page))
    labels_file = tmp_path / "labels.jsonl"
    labels_file.write_text(held["export"])
    found = match_labels(read_labels([labels_file]), items)
    assert len(found.matched) == 6
    for label, item in found.matched:
        assert key.items[label.item].item == item.item
        assert label.debate.a_side == key.items[label.item].a_side


def test_the_confidence_sliders_arrow_keys_move_its_value_not_the_debate(
    page: Path, tmp_path: Path
) -> None:
    with Browser(tmp_path / "profile") as browser:
        browser.open(page.as_uri())
        browser.evaluate("document.getElementById('annotator').focus()")
        browser.type_text("Ada")
        browser.evaluate("document.getElementById('item-title').focus()")
        while kind(browser) != "ka":
            browser.press("n")
        at = browser.evaluate(INDEX)
        slider = "document.getElementById('confidence')"
        browser.evaluate(f"{slider}.focus()")
        start = int(browser.evaluate(f"{slider}.value"))
        browser.press("ArrowRight")
        browser.press("ArrowRight")
        assert int(browser.evaluate(f"{slider}.value")) == start + 2
        browser.press("ArrowLeft")
        assert int(browser.evaluate(f"{slider}.value")) == start + 1
        assert browser.evaluate(INDEX) == at  # still the same debate
        assert browser.evaluate("document.getElementById('confidence-value').textContent") == (
            str(start + 1)
        )
        browser.press("b")  # a letter still answers from the slider
        browser.press("ArrowRight")  # and the label follows the slider
        row = browser.evaluate("Object.values(window.labelsPage.state().rows)[0]")
        assert (row["answer"], row["confidence"]) == ("B", start + 2)
        browser.evaluate("document.getElementById('item-title').focus()")
        browser.press("ArrowRight")  # off the slider the arrows move between debates again
        assert browser.evaluate(INDEX) == at + 1


def test_a_speech_cannot_inject_markup(page: Path, tmp_path: Path) -> None:
    with Browser(tmp_path / "profile") as browser:
        browser.open(page.as_uri())
        texts = []
        for _ in range(6):
            texts.append(browser.evaluate("document.getElementById('speeches').textContent"))
            assert browser.evaluate("document.querySelectorAll('#speeches *:not(article):not(h3)"
                                    ":not(p)').length") == 0  # fmt: skip
            browser.press("n")
        assert browser.evaluate("typeof window.injected") == "undefined"
    assert any(INJECTION in text for text in texts)  # shown as the text it is


def test_controls_are_labelled_reached_in_order_and_readable(page: Path, tmp_path: Path) -> None:
    with Browser(tmp_path / "profile") as browser:
        browser.open(page.as_uri())
        unlabelled = browser.evaluate(
            "[...document.querySelectorAll('input, button, select, textarea')]"
            ".filter((c) => !(c.labels && c.labels.length) && !c.getAttribute('aria-label')"
            " && !(c.tagName === 'BUTTON' && c.textContent.trim())).map((c) => c.outerHTML)"
        )
        assert unlabelled == []
        assert browser.evaluate("document.querySelectorAll('[tabindex]:not([tabindex=\"-1\"])')"
                                ".length") == 0  # fmt: skip
        assert _focus_order(browser) == FOCUS_ORDER
        worst = browser.evaluate(CONTRAST)
        assert worst["ratio"] >= 4.5, worst


def _focus_order(browser: Browser) -> list[str]:
    """The controls Tab reaches from the top of the page, in order."""
    browser.evaluate("document.activeElement && document.activeElement.blur()")
    found: list[str] = []
    for _ in range(len(FOCUS_ORDER) + 2):
        browser.press("Tab")
        name = browser.evaluate(
            "(() => { const e = document.activeElement; if (!e || e === document.body) "
            "return null; if (e.name) return e.name + ':' + e.value;"
            " if (e.tagName === 'SUMMARY') return 'dims-summary'; return e.id; })()"
        )
        if name is None or name in found:
            break
        found.append(name)
    return found


# The lowest contrast of any visible text against the background it sits on (WCAG 2).
CONTRAST = """(() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const back = (e) => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e)
    .backgroundColor); if (c.length === 3 || c[3] > 0) return c.slice(0, 3); }
    return [255, 255, 255]; };
  let worst = { ratio: 99, text: null };
  for (const e of document.querySelectorAll('body *')) {
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !e.getClientRects().length || e.closest('[hidden]')) continue;
    if (e.matches(':disabled')) continue;
    const a = lum(rgb(getComputedStyle(e).color)), b = lum(back(e));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < worst.ratio) worst = { ratio, text: e.textContent.trim().slice(0, 40) };
  }
  return worst;
})()"""


@pytest.mark.parametrize(("width", "height"), [(1600, 1000), (390, 844)])
def test_screenshots_at_desktop_and_phone_sizes(
    page: Path, tmp_path: Path, width: int, height: int
) -> None:
    folder = shots_folder(tmp_path)
    with Browser(tmp_path / "profile", width, height) as browser:
        browser.size(width, height, mobile=width < 600)
        browser.open(page.as_uri())
        first = browser.screenshot(folder / f"page-{width}x{height}-first.png")
        browser.evaluate("document.getElementById('annotator').focus()")
        browser.type_text("Ada")
        browser.evaluate("document.activeElement.blur()")
        browser.press("b")
        browser.evaluate("document.getElementById('winner-set').scrollIntoView()")
        labelled = browser.screenshot(folder / f"page-{width}x{height}-labelled.png")
        while kind(browser) != "ka":  # on to a known-answer debate
            browser.press("n")
        browser.press("a")
        browser.evaluate("document.getElementById('item-title').scrollIntoView()")
        known = browser.screenshot(folder / f"page-{width}x{height}-known-answer.png")
        overflow = browser.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert all(shot.stat().st_size > 10_000 for shot in (first, labelled, known))
    assert not overflow, "the page scrolls sideways"
