"""Scripted debaters and judges for the rubric scorer's end-to-end tests."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.debating.log_figures import log_figures

from support.judge_replies import NONE_MADE, is_rubric_call, rubric_reply, side_scores
from support.scripted import Script, output

STRONG, WEAK = "An excellent, well-evidenced case.", "A thin case."
Reply = Callable[[int, list[Any], GenerateConfig], ModelOutput]


def debaters(pro_text: str = STRONG, con_text: str = WEAK) -> dict[str, Any]:
    return {
        "pro": Script("pro", reply=lambda n, m, c: output("pro", pro_text)).model(),
        "con": Script("con", reply=lambda n, m, c: output("con", con_text)).model(),
    }


def prompt_of(messages: list[Any]) -> str:
    return str(messages[1].content)


def strong_label(prompt: str) -> str:
    """The blind label whose speeches read STRONG (a judge reading content, not labels)."""
    blocks = re.split(r"^\[t[0-9a-f]{8}\] ", prompt, flags=re.MULTILINE)[1:]
    return next(re.search(r"Side ([AB])", b).group(1) for b in blocks if STRONG in b)  # type: ignore[union-attr]


def content_judge(high: float = 0.9, low: float = 0.5) -> Reply:
    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        strong = strong_label(prompt_of(messages))
        a, b = (high, low) if strong == "A" else (low, high)
        return output("judge", rubric_reply(side_scores(a), side_scores(b)))

    return reply


def judge_only(reply: Reply) -> Reply:
    """Answer rubric calls with `reply` and fact-check calls with an empty ledger."""

    def respond(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        if is_rubric_call(messages):
            return reply(n, messages, config)
        return output("judge", json.dumps(NONE_MADE))

    return respond


def all_metrics(log: EvalLog) -> dict[str, float]:
    """Every figure a user reads: the terminal's headline block (the log's results) and
    the rest, which `debatebench-eval report` computes from the samples."""
    scores = log.results.scores if log.results else []
    shown = {name: metric.value for s in scores for name, metric in s.metrics.items()}
    rest = {name: value for figures in log_figures(log).values() for name, value in figures.items()}
    return {**rest, **shown}


def rubric_score(log: EvalLog, index: int = 0) -> Any:
    sample = (log.samples or [])[index]
    return (sample.scores or {})["rubric"]
