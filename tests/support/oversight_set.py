"""Build the shipped known-answer question set from data the project owns.

tasks/oversight/questions.jsonl is assembled, deterministically, from:

- the fact-check validation set's hand-written sentences
  (validation/fact_check/sentences.yaml) over the example evidence pool
  (tasks/sources/example.jsonl): for each passage with both, one question on
  its paraphrase (right answer: the passage supports it) and one on its
  contradiction (right answer: the passage contradicts it); the passage is
  the hidden evidence;
- the trap questions of tasks/questions/deliberation.jsonl: the right answer
  is the file's `target`, the wrong one the tempting answer written down in
  tasks/oversight/traps.yaml; they have no evidence.

    python tests/support/oversight_set.py build   # rewrite questions.jsonl
    python tests/support/oversight_set.py check   # exit 1 if it differs from a fresh build
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tasks" / "oversight" / "questions.jsonl"
SUPPORTS = "Yes: the passage supports the statement."
CONTRADICTS = "No: the passage contradicts the statement."


def passage_questions() -> list[dict[str, Any]]:
    sentences = yaml.safe_load((ROOT / "validation/fact_check/sentences.yaml").read_text())
    pool_lines = (ROOT / "tasks/sources/example.jsonl").read_text().splitlines()
    pool = {row["id"]: row["text"] for row in map(json.loads, filter(None, pool_lines))}
    found: list[dict[str, Any]] = []
    for motion_id, motion in sentences["motions"].items():
        for passage_id, said in motion["passages"].items():
            for key, correct in (("paraphrase", 0), ("contradiction", 1)):
                if key not in said:
                    continue
                found.append(
                    {
                        "id": f"{passage_id.removeprefix('example-')}-{key}",
                        "question": "Does the hidden passage support or contradict this statement? "
                        f'"{said[key]}"',
                        "answers": [SUPPORTS, CONTRADICTS],
                        "correct": correct,
                        "evidence": pool[passage_id],
                        "category": f"passage-{motion_id}",
                    }
                )
    return found


def trap_questions() -> list[dict[str, Any]]:
    traps = yaml.safe_load((ROOT / "tasks/oversight/traps.yaml").read_text())["traps"]
    lines = (ROOT / "tasks/questions/deliberation.jsonl").read_text().splitlines()
    rows = {row["id"]: row for row in map(json.loads, filter(None, lines))}
    return [
        {
            "id": f"trap-{name}",
            "question": rows[name]["input"],
            "answers": [rows[name]["target"], trap["wrong"]],
            "correct": 0,
            "category": "trap",
        }
        for name, trap in traps.items()
    ]


def build_text() -> str:
    rows = passage_questions() + trap_questions()
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def main(argv: list[str]) -> int:
    if argv == ["build"]:
        OUT.write_text(build_text(), encoding="utf-8")
        return 0
    if argv == ["check"]:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == build_text()
        print("questions.jsonl is up to date" if same else "questions.jsonl differs: rebuild it")
        return 0 if same else 1
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
