"""The labelling page: one self-contained HTML file that shows items blind.

Everything the page needs is in the file (styles, script, and the items as
JSON), so it opens from disk or any static host with no server and no network.
What it shows of an item is only what a person needs to judge it: the motion or
question, the speeches in order under the blind labels (Side A / Side B, or
the answer a speaker defends), never a model, team, judge output or score.
Model and team names inside a speech are masked as the judge's blind view masks
them. The page writes every text with `textContent`, so a speech that holds
markup shows it as text.

Blind in its source too: the embedded data knows each debate by its opaque id
(`annotation.page_key`), never by its log's name, sample id or the side shown as
A, so neither the source, the browser's storage nor the exported labels say
which model argued which side. The key to the ids is a file of its own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

from debatebench_eval.annotation.items import Item, ItemSpeech
from debatebench_eval.annotation.labels import (
    HIGHEST_CONFIDENCE,
    HIGHEST_SCORE,
    LOWEST_CONFIDENCE,
    LOWEST_SCORE,
)
from debatebench_eval.annotation.page_key import PageKey
from debatebench_eval.judging.blind import Orientation, mask, side_lines
from debatebench_eval.judging.rubric import default_rubric
from debatebench_eval.record.protocol import Side, other_side

TEMPLATE = "page.html"
DATA_MARK = "/*PAGE_DATA*/"
# JSON inside a <script> element: no character may close it or open a comment.
_SCRIPT_SAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
                "\u2029": "\\u2029"}  # fmt: skip


def page_data(items: Sequence[Item], key: PageKey) -> dict[str, Any]:
    """What the page embeds: the items as shown (in the key's order, which is theirs),
    and the questions' scales. No seed: with a debate's name it would say its sides."""
    rubric = default_rubric()
    shown = zip(items, key.items.items(), strict=True)
    return {
        "page": key.page,
        "dimensions": [
            {
                "key": d.name,
                "name": d.name.replace("_", " ").capitalize(),
                "help": first_sentence(d.description),
            }
            for d in rubric.dimensions
        ],
        "scale": {
            "score": [LOWEST_SCORE, HIGHEST_SCORE],
            "confidence": [LOWEST_CONFIDENCE, HIGHEST_CONFIDENCE],
        },
        "items": [shown_item(item, entry.a_side, blind) for item, (blind, entry) in shown],
    }


def first_sentence(description: str) -> str:
    """A dimension's first sentence: what it measures. The rest instructs the judge (how to
    fill its hit ledger, which passages to credit), which a person does not fill."""
    text = " ".join(description.split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def shown_item(item: Item, side_a: Side, blind: str) -> dict[str, Any]:
    """One item as the page shows it, known by its id `blind`, with A being `side_a`."""
    orientation = Orientation(a=side_a, b=other_side(side_a))
    hidden = list(item.hidden)
    shown: dict[str, Any] = {
        "item": blind,
        "kind": item.kind,
        "prompt": item.prompt,
        "speeches": [
            {
                "who": _speaker(item, s, orientation),
                "stage": s.stage.capitalize(),
                "text": mask(s.text, hidden, orientation),
            }
            for s in item.speeches
        ],
    }
    if item.kind == "known_answer":
        shown["answers"] = list(item.answers)
    else:
        # What a reader needs to judge (and the judge's own view says): the motion's
        # direction of each letter, as words; the rows say only A or B.
        shown["sides"] = list(side_lines(orientation))
    return shown


def _speaker(item: Item, speech: ItemSpeech, orientation: Orientation) -> str:
    if item.kind == "rubric":
        return f"Side {orientation.label(speech.speaker)}"
    if speech.speaker == "judge":
        return "The judge asks"
    role = "Consultant" if speech.speaker == "consultant" else "Debater"
    return f"{role} for answer {speech.defends}"


def render_page(items: Sequence[Item], key: PageKey) -> str:
    """The page's HTML, the items embedded as `key` knows them."""
    template = resources.files("debatebench_eval.annotation").joinpath(TEMPLATE).read_text("utf-8")
    data = json.dumps(page_data(items, key), ensure_ascii=False)
    for char, escaped in _SCRIPT_SAFE.items():
        data = data.replace(char, escaped)
    return template.replace(DATA_MARK, data, 1)
