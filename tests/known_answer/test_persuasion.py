"""Persuasiveness and truth: debaters rated by how often the judge sides with them,
and the judge's accuracy per pair against the pair's mean rating."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.known_answer.persuasion import (
    accuracy_slope,
    pair_accuracy,
    persuasion_markdown,
    ratings,
    separated,
)
from debatebench_eval.known_answer.stats import JudgedDebate
from debatebench_eval.known_answer.task import oversight

from support.oversight_questions import N, question_file
from support.oversight_questions import text_of as _text
from support.scripted import Script, output


def test_the_model_the_judge_sides_with_rates_higher() -> None:
    debates = [
        JudgedDebate(f"q{i}", pro, con, pro_won=(pro == "strong"), correct=(i % 2 == 0))
        for i in range(12)
        for pro, con in (("strong", "weak"), ("weak", "strong"))
    ]
    rated = ratings(debates, resamples=200)
    assert [r.model for r in rated] == ["strong", "weak"]
    assert rated[0].low > 1000 > rated[1].high and rated[0].debates == 24
    (pair,) = pair_accuracy(debates, rated)
    assert pair.accuracy == 0.5 and pair.debates == 24 and round(pair.mean_rating) == 1000
    assert accuracy_slope([pair]) is None
    # The judge sided with "strong" every time: separated, and the table says so.
    assert separated(debates) == [["strong"], ["weak"]]
    assert "Separated results: {strong} > {weak}" in persuasion_markdown(
        rated, [pair], separated(debates)
    )
    once = [*debates, JudgedDebate("q0", "weak", "strong", pro_won=True, correct=True)]
    assert separated(once) == []
    assert "Separated" not in persuasion_markdown(ratings(once, resamples=200), [], [])


def test_accuracy_slope_rises_with_rating() -> None:
    from debatebench_eval.known_answer.persuasion import PairAccuracy

    pairs = [PairAccuracy(("a", "b"), 900, 0.5, 10), PairAccuracy(("c", "d"), 1100, 0.9, 10)]
    assert accuracy_slope(pairs) == pytest.approx(0.2)


def _debater(name: str) -> Script:
    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        return output(name, f"I am {name} and my answer is right.")

    return Script(name, reply)


def _judge_siding_with(name: str) -> Script:
    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        prompt = _text(messages)
        label = re.search(rf"the debater for ([AB])\]\nI am {name}", prompt)
        assert label is not None, prompt
        body = {"answer": label.group(1), "confidence": 70, "reason": "The stronger case."}
        return output("judge", json.dumps(body))

    return Script("judge", reply)


def test_persuasion_command_over_debate_logs(tmp_path: Path, capsys: Any) -> None:
    from debatebench_eval.cli.main import main

    questions = str(question_file(tmp_path))
    for pro, con in (("m1", "m2"), ("m2", "m1")):
        task = oversight(questions=questions, probe=False, rounds=1)
        roles = {"pro": _debater(pro).model(), "con": _debater(con).model(),
                 "judge": _judge_siding_with("m1").model()}  # fmt: skip
        [log] = eval(task, model_roles=roles, log_dir=str(tmp_path / "logs"), display="none")
        assert log.status == "success"
    out = tmp_path / "out"
    assert main(["oversight", "persuasion", str(tmp_path / "logs"), "-o", str(out)]) == 0
    table = (out / "persuasion.md").read_text()
    first, second = re.findall(r"^\| (mockllm/m\d) \| (\d+) \|", table, re.MULTILINE)
    assert first[0] == "mockllm/m1" and int(first[1]) > 1000 > int(second[1])
    assert f"| mockllm/m1 vs mockllm/m2 | 1000 | 0.500 | 0.500 to 0.500 | {2 * N} |" in table
    assert "Separated results: {mockllm/m1} > {mockllm/m2}" in table  # m1 always won
    assert (out / "accuracy_vs_rating.png").stat().st_size > 1000
    assert "persuasion.md" in capsys.readouterr().out


def test_a_paired_run_exchanges_the_debaters_on_each_question(tmp_path: Path) -> None:
    questions = str(question_file(tmp_path))
    task = oversight(questions=questions, probe=False, rounds=1, paired=True)
    roles = {"pro": _debater("m1").model(), "con": _debater("m2").model(),
             "judge": _judge_siding_with("m1").model()}  # fmt: skip
    [log] = eval(task, model_roles=roles, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success" and log.samples is not None and len(log.samples) == 2 * N
    from debatebench_eval.known_answer.log_reader import judged_debates

    debates = judged_debates([str(tmp_path / "logs")])
    by_question: dict[str, list[JudgedDebate]] = {}
    for d in debates:
        by_question.setdefault(d.question, []).append(d)
    assert len(by_question) == N
    for pair in by_question.values():
        # Both orders: each model speaks pro once, and defends each answer once.
        assert sorted((d.pro, d.con) for d in pair) == [
            ("mockllm/m1", "mockllm/m2"),
            ("mockllm/m2", "mockllm/m1"),
        ]
        assert sorted(d.pro_won for d in pair) == [False, True]
        m1_right = [d.correct for d in pair]  # the judge always sides with m1
        assert sorted(m1_right) == [False, True]
    rated = ratings(debates, resamples=100)
    assert rated[0].model == "mockllm/m1" and rated[0].low > rated[1].high


@pytest.mark.parametrize("protocol", ["consultancy", "naive", "expert"])
def test_paired_needs_two_debaters(protocol: str) -> None:
    from debatebench_eval.core.errors import ConfigError

    with pytest.raises(ConfigError, match=r"-T paired.*protocol debate or open"):
        oversight(protocol=protocol, paired=True, probe=False)
