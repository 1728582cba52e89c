"""The labelling page in a real browser (headless Chromium over the DevTools protocol),
opened from a file:// URL as a person would open it: three debates labelled by
keyboard, the labels surviving a reload, exported as a file the project reads back,
imported into a fresh browser profile; plus the page's accessibility basics and
screenshots at a desktop and a phone size."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.annotation.items import load_items
from debatebench_eval.annotation.labels import match_labels, read_labels
from debatebench_eval.cli.main import main

from support.annotation_logs import INJECTION
from support.browser import Browser, require, shots_folder

PROGRESS = "document.getElementById('progress-label').textContent"
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

    labels = read_labels(exported)
    assert len(labels) == 3 and {lb.annotator for lb in labels} == {"Ada Lovelace"}
    found = match_labels(labels, load_items(log_folder))
    assert len(found.matched) == 3 and not found.changed and not found.unknown
    for label, item in found.matched:
        assert label.a_side in ("pro", "con")
        assert (label.winner is not None) == (item.kind == "rubric")

    with Browser(tmp_path / "fresh-profile") as fresh:
        fresh.open(url)
        assert fresh.evaluate(PROGRESS) == "0 of 6 labelled"
        fresh.set_files("#import", exported[0])
        fresh.wait_for(lambda: fresh.evaluate(PROGRESS) == "3 of 6 labelled", "the import")
        assert fresh.evaluate("document.getElementById('annotator').value") == "Ada Lovelace"
        assert fresh.evaluate("window.labelsPage.exportText()") == text
        assert "3 labels loaded" in fresh.evaluate("document.getElementById('status').textContent")
        # A file with a label for a debate not on the page and one whose text changed.
        rows = [json.loads(line) for line in text.splitlines()]
        stray = tmp_path / "stray.jsonl"
        stray.write_text("".join(json.dumps(r) + "\n" for r in (
            {**rows[0], "item": "other.eval:x:1", "annotator": "Bo"},
            {**rows[1], "digest": "0" * 16, "annotator": "Bo"},
            {**rows[2], "annotator": "Bo"},
            {**rows[2], "annotator": "Cy", "winner": "Z", "answer": "Z"},
        )) + "{not json\n")  # fmt: skip
        fresh.set_files("#import", stray)
        status = fresh.wait_for(lambda: fresh.evaluate(
            "document.getElementById('status').textContent.includes('1 labels loaded') && "
            "document.getElementById('status').textContent"), "the second import")  # fmt: skip
        assert "1 for debates not on this page, left out" in status
        assert "1 for debates whose text changed, left out" in status
        assert "2 unreadable or incomplete lines, left out" in status
        merged = read_labels([_write(tmp_path / "merged.jsonl", fresh)])
        assert sorted(lb.annotator for lb in merged) == ["Ada Lovelace"] * 3 + ["Bo"]


def _write(path: Path, browser: Browser) -> Path:
    path.write_text(browser.evaluate("window.labelsPage.exportText()"))
    return path


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
