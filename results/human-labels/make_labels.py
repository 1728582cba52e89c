"""The labels of the worked example in docs/guides/human-labels.md, made in the page.

Writes the labelling page for four of the tournament's six debates
(`debatebench-eval annotate ... --size 4 --seed 39`, shipped as `page.html`, with
its key `page.key.json` beside it), opens it in headless Chromium (Debian's
`chromium`) and labels every debate by keyboard as two annotators, each in a fresh
browser profile; each annotator's labels are the page's own Export, and
`labels.jsonl` is the two exports one after the other. Neither annotator is a
person:

- `llm-screenshots`: an LLM that read screenshots of each debate on this page
  (blind: sides as A and B, no model names, no judge output) and chose; its
  choices are the `LLM_READING` table below, as the page shows the sides. The
  script presses the keys.
- `rule-words`: a word-count rule, the side whose speeches on the page hold more
  words wins (equal: a tie).

    python results/human-labels/make_labels.py
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from debatebench_eval.cli.main import main  # noqa: E402

from support.browser import Browser  # noqa: E402

HERE = Path(__file__).parent
SIZE, SEED = 4, 39
# The LLM's reading of each debate, in the page's order: the motion's opening words (a
# check that the page still shows the debates read) and the key pressed.
LLM_READING = [
    ("A national minimum wage", "b"),  # A argues for the wage it must oppose; B argues for it
    ("Wealthy democracies", "a"),  # A argues for UBI; B, assigned against, praises it too
    ("A federal carbon tax", "a"),  # A states the case for the tax; B never mentions it
    ("A national minimum wage", "t"),  # both tell an off-topic joke and argue nothing
]
WORDS = (
    "[...document.querySelectorAll('#speeches article.side-{side} p')]"
    ".map(p => p.innerText.split(/\\s+/).filter(Boolean).length).reduce((a, b) => a + b, 0)"
)


def by_words(browser: Browser) -> str:
    a, b = (browser.evaluate(WORDS.format(side=side)) for side in "AB")
    return "a" if a > b else "b" if b > a else "t"


def by_llm_reading(browser: Browser) -> str:
    motion = str(browser.evaluate("document.getElementById('prompt').textContent"))
    expected, key = LLM_READING[int(browser.evaluate("window.labelsPage.state().index"))]
    if expected not in motion:
        raise SystemExit(f"the page shows {motion!r} where the LLM read {expected!r}")
    return key


def label(page: Path, annotator: str, choose: Callable[[Browser], str], folder: Path) -> str:
    """Label every debate of the page as `annotator`; the page's Export, as text."""
    with Browser(folder / "profile") as browser:
        browser.open(page.as_uri())
        browser.evaluate("document.getElementById('annotator').focus()")
        browser.type_text(annotator)
        browser.press("Tab")  # out of the name field: the shortcuts work again
        for _ in range(SIZE):
            browser.evaluate("document.getElementById('item-title').focus()")
            browser.press(choose(browser))
            browser.press("n")
        progress = browser.evaluate("document.getElementById('progress-label').textContent")
        if progress != f"{SIZE} of {SIZE} labelled":
            raise SystemExit(f"{annotator}: the page says {progress!r}")
        browser.allow_downloads(folder / "downloads")
        browser.evaluate("document.getElementById('export').click()")
        files = browser.wait_for(lambda: sorted((folder / "downloads").glob("*.jsonl")), "export")
        return Path(files[0]).read_text()


def make() -> None:
    page = HERE / "page.html"
    logs = HERE / "tournament"
    size, seed = str(SIZE), str(SEED)
    if main(["annotate", str(logs), "-o", str(page), "--size", size, "--seed", seed]) != 0:
        raise SystemExit("annotate failed")
    # The browser may still be writing its profile as it exits: leftovers are harmless.
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as scratch:
        exports = [
            label(page, who, choose, Path(scratch) / who)
            for who, choose in (("llm-screenshots", by_llm_reading), ("rule-words", by_words))
        ]
    (HERE / "labels.jsonl").write_text("".join(exports))
    shutil.rmtree(HERE / "__pycache__", ignore_errors=True)


if __name__ == "__main__":
    make()
