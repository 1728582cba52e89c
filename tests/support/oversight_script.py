"""The oversight task run on one scripted model: speakers that quote the evidence when
they defend the right answer, and a judge that answers by a strategy (right, wrong,
always A, or the side with more verified quotes)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.known_answer.task import oversight

from support.oversight_questions import question_file
from support.oversight_questions import text_of as _text
from support.scripted import Script, output


def labels(prompt: str) -> dict[str, str]:
    """Which label holds the TRUE answer and which the FALSE one, as the prompt shows them."""
    found = dict(re.findall(r"^([AB]): (TRUE|FALSE)", prompt, re.MULTILINE))
    return {kind: label for label, kind in found.items()}


def _verified_by_label(prompt: str) -> dict[str, int]:
    counts = {"A": 0, "B": 0}
    for label, body in re.findall(
        r"\[Round \d+, the \w+ for ([AB])\]\n(.*?)(?=\n\n)", prompt, re.DOTALL
    ):
        counts[label] += body.count("<quote verified>")
    return counts


def _judge_pick(strategy: str, prompt: str) -> str:
    shown = labels(prompt)
    if strategy == "right":
        return shown["TRUE"]
    if strategy == "wrong":
        return shown["FALSE"]
    if strategy == "first":
        return "A"
    counts = _verified_by_label(prompt)  # "quotes": the side with more verified quotes
    if counts["A"] == counts["B"]:
        defended = re.search(r"the consultant for ([AB])", prompt)
        return "B" if defended and defended.group(1) == "A" else "A"
    return "A" if counts["A"] > counts["B"] else "B"


def scripted(strategy: str, quote: bool = True, confidence: int = 80) -> Script:
    """One model for every role: speakers quote the evidence exactly when they defend the
    right answer and invent a quote otherwise (with `quote`, else never quote); the judge
    answers by `strategy`, `confidence` sure."""

    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        prompt = _text(messages)
        if prompt.startswith("You are the judge of a consultancy"):
            return output("s", "What does the evidence say about the colour?")
        if prompt.startswith("You are the judge"):
            pick = _judge_pick(strategy, prompt)
            body = {
                "answer": pick,
                "confidence": confidence,
                "reason": "Reasoned from what was said.",
            }
            return output("s", json.dumps(body))
        if "choose which answer" in prompt:
            return output("s", json.dumps({"answer": labels(prompt)["TRUE"]}))
        defended = re.search(r'You argue that answer [AB] is correct \("(TRUE|FALSE)', prompt)
        assert defended is not None, prompt
        evidence = re.search(r"<evidence>\n(.*?)\n</evidence>", prompt, re.DOTALL)
        assert evidence is not None
        if not quote:
            return output("s", "Reason alone settles it, whatever the record says.")
        if defended.group(1) == "TRUE":
            return output("s", f"The record settles it: <quote>{evidence.group(1)}</quote>")
        return output("s", "The record says: <quote>the sky was plainly blue all week</quote>")

    return Script("s", reply)


def run(
    tmp_path: Path,
    strategy: str,
    protocol: str,
    quote: bool = True,
    script: Script | None = None,
    **args: Any,
) -> tuple[EvalLog, Script]:
    """The task over the test questions (2 rounds unless `rounds` is given), one scripted
    model (`scripted(strategy, quote)` unless `script`) in every role."""
    script = script or scripted(strategy, quote)
    args = {"rounds": 2, **args}
    task = oversight(protocol=protocol, questions=str(question_file(tmp_path)), probe=False, **args)
    log = eval(task, model=script.model(), log_dir=str(tmp_path / "logs"), display="none")[0]
    assert log.status == "success", log.error
    return log, script


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
