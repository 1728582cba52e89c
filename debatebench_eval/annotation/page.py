"""The labelling page: one self-contained HTML file that shows items blind.

Everything the page needs is in the file (styles, script, and the items as
JSON), so it opens from disk or any static host with no server and no network.
What it shows of an item is only what a person needs to judge it: the motion or
question, the speeches in order under the blind labels (Side A / Side B, or
the answer a speaker defends), never a model, team, judge output or score.
Model and team names inside a speech are masked as the judge's blind view masks
them. The page writes every text with `textContent`, so a speech that holds
markup shows it as text.
"""

from __future__ import annotations

import hashlib
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
from debatebench_eval.annotation.selection import a_side
from debatebench_eval.judging.blind import Orientation, mask
from debatebench_eval.judging.rubric import default_rubric
from debatebench_eval.record.protocol import other_side

TEMPLATE = "page.html"
DATA_MARK = "/*PAGE_DATA*/"
# JSON inside a <script> element: no character may close it or open a comment.
_SCRIPT_SAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
                "\u2029": "\\u2029"}  # fmt: skip


def page_id(items: Sequence[Item], seed: int) -> str:
    """The page's id: its seed and item count, and a short digest of the items shown
    (two pages of one folder and seed but other debates keep their labels apart)."""
    joined = "\n".join(f"{item.item}:{item.digest}" for item in items)
    return f"seed-{seed}-items-{len(items)}-{hashlib.sha256(joined.encode()).hexdigest()[:8]}"


def page_data(items: Sequence[Item], seed: int) -> dict[str, Any]:
    """What the page embeds: the items as shown, and the questions' scales."""
    rubric = default_rubric()
    return {
        "page": page_id(items, seed),
        "seed": seed,
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
        "items": [shown_item(item, a_side(item, seed)) for item in items],
    }


def first_sentence(description: str) -> str:
    """A dimension's first sentence: what it measures. The rest instructs the judge (how to
    fill its hit ledger, which passages to credit), which a person does not fill."""
    text = " ".join(description.split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def shown_item(item: Item, side_a: str) -> dict[str, Any]:
    """One item as the page shows it, with A being `side_a`."""
    orientation = Orientation(a=side_a, b=other_side(side_a))  # type: ignore[arg-type]
    hidden = list(item.hidden)
    shown: dict[str, Any] = {
        "item": item.item,
        "digest": item.digest,
        "kind": item.kind,
        "a_side": side_a,
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
        shown["sides"] = {
            label: "argues for the motion" if orientation.side(label) == "pro"
            else "argues against the motion"
            for label in ("A", "B")
        }  # fmt: skip
    return shown


def _speaker(item: Item, speech: ItemSpeech, orientation: Orientation) -> str:
    if item.kind == "rubric":
        return f"Side {orientation.label(speech.speaker)}"
    if speech.speaker == "judge":
        return "The judge asks"
    role = "Consultant" if speech.speaker == "consultant" else "Debater"
    return f"{role} for answer {speech.defends}"


def render_page(items: Sequence[Item], seed: int) -> str:
    """The page's HTML, the items embedded."""
    template = resources.files("debatebench_eval.annotation").joinpath(TEMPLATE).read_text("utf-8")
    data = json.dumps(page_data(items, seed), ensure_ascii=False)
    for char, escaped in _SCRIPT_SAFE.items():
        data = data.replace(char, escaped)
    return template.replace(DATA_MARK, data, 1)
