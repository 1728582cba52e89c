"""Oversight tournaments for tests: debaters ollama/m1..m3 and judge ollama/j1 on the
loopback stub server, over the small question file of the oversight tests (right
answers marked TRUE). The scripted judge sides with m1 whenever m1 debates (m1 is
persuasive: it wins every debate, right or wrong), and otherwise picks the TRUE
answer; so the judge is right in half the debates of a pair with m1 (m1 defends
each answer once per question) and in all of m2 against m3."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.cli.main import main

from support.oversight_questions import question_file
from support.stub_server import StubBehaviour, StubServer

MODELS = "ollama/m1,ollama/m2,ollama/m3"
JUDGE = "ollama/j1"
# rounds=1: two speeches and two judge calls a debate (answer_orders=both: the
# judge reads it once in each order).
PER_DEBATE = 4
_ANSWER = re.compile(r"^([AB]): (TRUE|FALSE)", re.MULTILINE)
_SPEECH = re.compile(r"the debater for ([AB])\]\n(.*?)(?=\n\[|\Z)", re.DOTALL)


def persuaded_judge(request: dict[str, Any]) -> str | None:
    """The judge's reply (module docstring); None for a debater's request."""
    if request.get("model") != "j1":
        return None
    prompt = str(request["messages"][-1]["content"])
    speakers = {
        label: re.findall(r"\[by (m\d)\]", text)[0] for label, text in _SPEECH.findall(prompt)
    }
    if set(speakers) != {"A", "B"}:
        raise AssertionError(f"the judge prompt names no speaker for each answer: {prompt}")
    if "m1" in speakers.values():
        pick = next(label for label, model in speakers.items() if model == "m1")
    else:
        pick = next(label for label, mark in _ANSWER.findall(prompt) if mark == "TRUE")
    return json.dumps({"answer": pick, "confidence": 70, "reason": "The stronger case."})


def oversight_tournament(
    tmp_path: Path, behaviour: StubBehaviour, *extra: str, limit: int = 2, command: str = "run"
) -> int:
    """`tournament run --task oversight` (or another step) in-process; its exit code."""
    questions = question_file(tmp_path / "questions")
    with StubServer(behaviour) as stub, pytest.MonkeyPatch.context() as patch:
        patch.setenv("OLLAMA_BASE_URL", stub.base_url)
        return main(["tournament", command, "--task", "oversight", "--models", MODELS,
                     "--judges", JUDGE, "--questions", str(questions), "--limit", str(limit),
                     "-T", "rounds=1", "--log-dir", str(tmp_path / "tourney"),
                     *(["--display", "none"] if command == "run" else []), *extra])  # fmt: skip


def stub_behaviour() -> StubBehaviour:
    return StubBehaviour(tag_speech=True, script=persuaded_judge)
