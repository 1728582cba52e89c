"""The labels of the worked example in docs/guides/human-labels.md, made without people.

Draws which debates are labelled (a seeded random draw of four of the six, as
prediction-powered inference needs) and which side each shows as A, then writes
one row per debate for two annotators:

- `assistant`: the developer's AI assistant read each debate blind (the sides as
  A and B, no model names, no judge output: `--show` prints exactly that) and
  chose; its choices are the `ASSISTANT` table below. Not people.
- `rule-words`: a scripted rule, the side that spoke more words wins.

    python results/human-labels/make_labels.py --show     # the drawn debates, blind
    python results/human-labels/make_labels.py > results/human-labels/labels.jsonl
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from debatebench_eval.annotation.items import Item, load_items

HERE = Path(__file__).parent
LOGS = HERE / "tournament"
SEED = 39
LABELLED = 4
PAGE = f"script-seed-{SEED}-items-{LABELLED}"
# The assistant's reading of each drawn debate (by the order --show prints them).
ASSISTANT = ["A", "tie", "B", "tie"]


def drawn() -> list[tuple[Item, str]]:
    rng = random.Random(SEED)
    items = sorted((i for i in load_items(LOGS) if i.kind == "rubric"), key=lambda i: i.item)
    chosen = sorted(rng.sample(items, LABELLED), key=lambda i: i.item)
    return [(item, rng.choice(["pro", "con"])) for item in chosen]


def show() -> None:
    for n, (item, a_side) in enumerate(drawn()):
        print(f"=== debate {n}: {item.prompt}")
        for speech in item.speeches:
            letter = "A" if speech.speaker == a_side else "B"
            print(f"--- Side {letter}, {speech.stage}:\n{speech.text}\n")


def words(item: Item, side: str) -> int:
    return sum(len(s.text.split()) for s in item.speeches if s.speaker == side)


def rows() -> list[dict[str, object]]:
    found = []
    for n, (item, a_side) in enumerate(drawn()):
        b_side = "con" if a_side == "pro" else "pro"
        by_words = words(item, a_side) - words(item, b_side)
        rule = "A" if by_words > 0 else "B" if by_words < 0 else "tie"
        for who, winner in (("assistant", ASSISTANT[n]), ("rule-words", rule)):
            found.append({"item": item.item, "digest": item.digest, "annotator": who,
                          "a_side": a_side, "winner": winner, "scores": None, "answer": None,
                          "confidence": None, "labelled_at": "2026-12-05T09:40:00Z",
                          "page": PAGE})  # fmt: skip
    return found


if __name__ == "__main__":
    if "--show" in sys.argv:
        show()
    else:
        print("".join(json.dumps(row) + "\n" for row in rows()), end="")
