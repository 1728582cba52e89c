"""Both answer orders (every A/B mention exchanged in the second, the evidence in
neither), the judge's belief after each round, and the stop it can call."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.known_answer.orders import exchange_labels
from debatebench_eval.known_answer.record import OversightRecord
from debatebench_eval.known_answer.task import oversight

from support.oversight_questions import EVIDENCE, N, question_file
from support.oversight_questions import text_of as _text
from support.oversight_script import labels, metrics, run, scripted
from support.scripted import Script, output


@pytest.mark.parametrize(
    ("text", "exchanged"),
    [
        ("Answer A is right, not B.", "Answer B is right, not A."),
        ("A judge reads A's case (A) and B: both.", "A judge reads B's case (B) and A: both."),
        ("A is right; pick A over B", "B is right; pick B over A"),
        ("Plan A-level ABBA stays. <quote>Answer A said B</quote>",
         "Plan A-level ABBA stays. <quote>Answer A said B</quote>"),
        ("B. <quote verified>A B</quote> for A", "A. <quote verified>A B</quote> for B"),
    ],
)  # fmt: skip
def test_labels_are_exchanged_outside_quotes(text: str, exchanged: str) -> None:
    assert exchange_labels(text) == exchanged
    assert exchange_labels(exchanged) == text  # the exchange is its own inverse


def _speaking(confidence: int = 80) -> Script:
    """The scripted model whose speakers name both labels, as prose and the article, and
    quote a sentence naming a label (left as written in both orders)."""
    judge = scripted("right", confidence=confidence).reply
    assert judge is not None

    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        prompt = _text(messages)
        if prompt.startswith("You are the judge"):
            return judge(n, messages, config)
        mine = re.search(r"You argue that answer ([AB]) is correct", prompt)
        assert mine is not None
        label = mine.group(1)
        other = "B" if label == "A" else "A"
        return output(
            "s",
            f"Answer {label} is right and {other} is wrong. A judge sees it. "
            "<quote>Option A stands</quote>",
        )

    return Script("s", reply)


def _blocks(prompt: str) -> list[tuple[str, str]]:
    return re.findall(r"\[Round \d+, the debater for ([AB])\]\n(.*?)(?=\n\n|\nQuotes)", prompt,
                      re.DOTALL)  # fmt: skip


def test_the_judge_reads_both_orders_every_label_exchanged(tmp_path: Path) -> None:
    _, script = run(tmp_path, "right", "debate", script=_speaking())
    judged = [
        _text(c.messages) for c in script.calls if _text(c.messages).startswith("You are the judge")
    ]
    assert len(judged) == 2 * N  # every sample in both orders
    by_question: dict[str, list[str]] = {}
    for prompt in judged:
        town = re.search(r"harbour town (\d+)", prompt)
        assert town is not None
        by_question.setdefault(town.group(1), []).append(prompt)
    for drawn, exchanged in by_question.values():
        # The answers' order exchanged...
        assert labels(drawn) == {k: "B" if v == "A" else "A" for k, v in labels(exchanged).items()}
        # ...and each speech's heading and every label it names; the quote as written.
        first, second = _blocks(drawn), _blocks(exchanged)
        assert len(first) == len(second) == 4
        for (label, body), (label_2, body_2) in zip(first, second, strict=True):
            other = "B" if label == "A" else "A"
            assert label_2 == other
            assert body.startswith(f"Answer {label} is right and {other} is wrong. A judge")
            assert body_2.startswith(f"Answer {other} is right and {label} is wrong. A judge")
            assert "Option A stands</quote>" in body and "Option A stands</quote>" in body_2
        for i in range(N):
            assert EVIDENCE.format(i=i) not in drawn + exchanged


def test_one_order_halves_the_judge_calls(tmp_path: Path) -> None:
    log, script = run(tmp_path, "first", "debate", answer_orders="one")
    judged = [c for c in script.calls if _text(c.messages).startswith("You are the judge")]
    assert len(judged) == N
    found = metrics(log)
    # Always A, read in one order: the habit is the accuracy, the bias shows whole.
    assert found["accuracy_right_first"] == 1.0 and found["position_bias"] == 0.5
    assert "orders_disagree" not in found and found["accuracy"] == 0.5
    assert log.eval.scorers and log.eval.scorers[0].options["answer_orders"] == "one"


def test_a_bad_answer_orders_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="answer_orders"):
        oversight(questions=str(question_file(tmp_path)), answer_orders="three")


def _judge_prompts(script: Script) -> list[str]:
    return [
        _text(c.messages) for c in script.calls if _text(c.messages).startswith("You are the judge")
    ]


def test_judge_each_round_asks_once_per_round_per_order(tmp_path: Path) -> None:
    log, script = run(tmp_path, "right", "debate", rounds=3, judge_each_round=True)
    prompts = _judge_prompts(script)
    assert len(prompts) == N * 3 * 2  # rounds x orders
    # The judge after round 1 reads round 1 alone.
    heard = sorted(max(map(int, re.findall(r"\[Round (\d+),", p))) for p in prompts)
    assert heard == sorted([1, 2, 3] * 2 * N)
    assert log.samples is not None
    sample = log.samples[0]
    record = sample.store_as(OversightRecord)
    assert [b.round for b in record.beliefs] == [1, 2] and record.stopped is None
    assert all(b.p_correct == pytest.approx(0.8) for b in record.beliefs)
    score = sample.scores["judge_accuracy"]
    assert score.metadata["p_correct_by_round"] == {"1": 0.8, "2": 0.8, "3": 0.8}
    assert "p_correct by round: 0.80 → 0.80 → 0.80" in str(score.explanation)
    found = metrics(log)
    assert [found[f"accuracy_round_{k}"] for k in (1, 2, 3)] == [1.0, 1.0, 1.0]
    assert found["stopped_early"] == 0.0 and found["rounds_heard"] == 3.0
    _, one = run(tmp_path / "one", "right", "debate", rounds=3, judge_each_round=True,
                 answer_orders="one")  # fmt: skip
    assert len(_judge_prompts(one)) == N * 3


def test_stop_when_confident_ends_the_debate_and_says_why(tmp_path: Path) -> None:
    sure = scripted("right", confidence=95)
    log, script = run(tmp_path, "right", "debate", script=sure, rounds=3, stop_when_confident=0.9)
    assert log.samples is not None
    for sample in log.samples:
        record = sample.store_as(OversightRecord)
        assert {s.round for s in record.speeches} == {1}  # rounds 2 and 3 never spoken
        assert record.stopped is not None and "after round 1 of 3" in record.stopped
        assert "0.95" in record.stopped and "stop_when_confident=0.9" in record.stopped
        score = sample.scores["judge_accuracy"]
        assert "stopped early" in str(score.answer) and "Stopped:" in str(score.explanation)
        assert score.metadata["right_by_round"] == {"1": True, "2": True, "3": True}
    found = metrics(log)
    assert found["stopped_early"] == 1.0 and found["rounds_heard"] == 1.0
    speeches = [c for c in script.calls if "<evidence>" in _text(c.messages)]
    assert len(speeches) == 2 * N
    # 80% sure is not sure enough: every round is spoken.
    log, _ = run(tmp_path / "unsure", "right", "debate", rounds=3, stop_when_confident=0.9)
    assert log.samples is not None
    assert all(s.store_as(OversightRecord).stopped is None for s in log.samples)
    assert metrics(log)["rounds_heard"] == 3.0


@pytest.mark.parametrize("value", [0.5, 1.2, "sure", True])
def test_a_bad_stop_threshold_is_named(tmp_path: Path, value: Any) -> None:
    with pytest.raises(ConfigError, match="stop_when_confident"):
        oversight(questions=str(question_file(tmp_path)), stop_when_confident=value)


def test_the_belief_path_reaches_the_record_as_json(tmp_path: Path) -> None:
    log, _ = run(tmp_path, "right", "consultancy", judge_each_round=True)
    assert log.samples is not None
    record = log.samples[0].store_as(OversightRecord)
    data = json.loads(record.beliefs[0].model_dump_json())
    assert data["round"] == 1 and set(data["order_picks"]) == {"1", "2"}


def test_compare_prints_the_preconditions_and_plots_the_belief(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from debatebench_eval.cli.main import main
    from debatebench_eval.known_answer.log_reader import compare_logs

    logs = [
        run(tmp_path / "debate", "quotes", "debate", judge_each_round=True)[0],
        run(tmp_path / "consultancy", "quotes", "consultancy")[0],
    ]
    paths = [log.location for log in logs]
    found = {c.name: c for c in compare_logs(paths).checks}
    # Neither expert nor naive ran: the check names the runs to make.
    assert found["knowledge gap"].value is None
    assert "-T protocol=expert --model-role judge=mockllm/s" in found["knowledge gap"].reading
    assert "-T protocol=naive" in found["knowledge gap"].reading
    # The judge of "quotes" sides with more verified quotes every time.
    verified = found["verification"].value
    assert verified is not None and verified.value == 1.0 and verified.n == N
    rounds = found["rounds"].value
    assert rounds is not None and rounds.value == 0.0 and "after round 1" in found["rounds"].reading
    assert found["family"].reading.startswith("shared (s): judge mockllm/s")
    logs += [run(tmp_path / "expert", "right", "expert")[0],
             run(tmp_path / "naive", "wrong", "naive")[0]]  # fmt: skip
    paths = [log.location for log in logs]
    gap = {c.name: c for c in compare_logs(paths).checks}["knowledge gap"].value
    assert gap is not None and (gap.value, gap.low, gap.high) == (1.0, 1.0, 1.0)
    plot = tmp_path / "belief.png"
    assert main(["oversight", "compare", *paths, "--plot", str(plot)]) == 0
    out = capsys.readouterr().out
    assert "| knowledge gap | +1.000 |" in out and "| verification | 1.000 |" in out
    assert plot.stat().st_size > 0 and str(plot) in out
    assert main(["oversight", "compare", *paths, "--json", "--plot", str(plot)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["p_correct_by_round"]["debate"] == {"1": 0.8, "2": 0.8}
    assert {c["check"] for c in data["preconditions"]} == {
        "knowledge gap", "rounds", "verification", "family"
    }  # fmt: skip
