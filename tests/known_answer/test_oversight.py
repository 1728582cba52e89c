"""The oversight task end to end on scripted models: each judging strategy gives the
accuracy it must, the judge never reads the evidence, assignments are balanced."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.core.task_versions import TASK_VERSIONS
from debatebench_eval.known_answer.record import OversightRecord
from debatebench_eval.known_answer.task import oversight

from support.oversight_questions import EVIDENCE, N, question_file
from support.oversight_questions import text_of as _text
from support.oversight_script import metrics, run, scripted
from support.scripted import Script, output


@pytest.mark.parametrize(
    ("strategy", "expected"), [("right", 1.0), ("wrong", 0.0), ("first", 0.5), ("quotes", 1.0)]
)
@pytest.mark.parametrize("protocol", ["debate", "consultancy"])
def test_each_strategy_gives_its_accuracy(
    tmp_path: Path, strategy: str, expected: float, protocol: str
) -> None:
    log = run(tmp_path, strategy, protocol)[0]
    found = metrics(log)
    assert found["accuracy"] == expected
    assert log.samples is not None  # the sample list names the pick, its truth, the protocol
    answers = {str(s.scores["judge_accuracy"].answer).split(" · ", 1)[1] for s in log.samples}
    assert answers == {f"{'right' if expected else 'wrong'} · {protocol}"} or strategy == "first"
    assert found["accuracy_low"] <= expected <= found["accuracy_high"]
    scores = [s.scores["judge_accuracy"].value for s in log.samples if s.scores]
    values = {(v["p_correct"], v["brier"]) for v in scores if isinstance(v, dict)}
    if strategy == "first":
        # Always A, so the two orders cancel: each sample's probability is 0.5, both
        # orders disagree everywhere, and the bias is in the position figure whole.
        assert found["accuracy_right_first"] == 1.0 and found["accuracy_right_second"] == 0.0
        assert values == {(0.5, 0.25)} and found["orders_disagree"] == 1.0
        assert found["position_bias"] == 0.5 and found["position_bias_high"] == 0.5
        assert found["accuracy_order_drawn"] == found["accuracy_order_exchanged"] == 0.5
        assert all("orders disagree" in str(s.scores["judge_accuracy"].answer)
                   for s in log.samples)  # fmt: skip
        return
    # A judge 80% sure: the Brier score is 0.04 when right, 0.64 when wrong.
    assert found["brier"] == pytest.approx(0.04 * expected + 0.64 * (1 - expected))
    # Each sample's values exactly as written: the viewer's columns show no float noise.
    assert values <= {(0.8, 0.04), (0.2, 0.64)}
    assert found["orders_disagree"] == 0.0 and abs(found["position_bias"]) < 0.2
    assert found["accuracy_order_drawn"] == found["accuracy_order_exchanged"] == expected
    assert -0.5 <= found["position_bias_low"] <= found["position_bias_high"] <= 0.5
    # The headline (the reliability table is in the report); consultancy's has two more.
    assert len(found) <= 17


def test_the_report_holds_the_reliability_table(tmp_path: Path) -> None:
    from debatebench_eval.cli.main import main

    log, _ = run(tmp_path, "first", "debate")
    assert main(["report", log.location, "-o", str(tmp_path / "report")]) == 0
    text = (tmp_path / "report" / "report.md").read_text()
    assert f"version {TASK_VERSIONS['oversight']}" in text and "| accuracy | 0.5 |" in text
    # Every reading 80% sure of A: the two orders average to 0.5, half the picks right.
    assert f"| 50-60% | {N} | 0.5 | 0.5 |" in text and "| 80-90% | 0 | - | - |" in text
    assert "| position_bias | 0.5 |" in text


def test_the_judge_never_reads_the_evidence(tmp_path: Path) -> None:
    secrets = [EVIDENCE.format(i=i) for i in range(N)]
    for protocol, args in (
        ("debate", {}),
        ("consultancy", {"interactive": True}),
        ("naive", {}),
        ("open", {}),
    ):
        # The speakers read the evidence but do not quote it: nothing of it may reach a judge.
        _, script = run(tmp_path / protocol, "first", protocol, quote=False, **args)
        judged = [c for c in script.calls if _text(c.messages).startswith("You are the judge")]
        assert len(judged) >= N
        for call in judged:
            for secret in secrets:
                assert secret not in _text(call.messages)
        speakers = [
            c for c in script.calls if c not in judged and "<evidence>" in _text(c.messages)
        ]
        assert speakers or protocol == "naive"
    # The check can fail: the expert judge does read it.
    _, script = run(tmp_path / "expert", "right", "expert")
    assert all(any(s in _text(c.messages) for s in secrets) for c in script.calls)


def test_quotes_are_marked_for_the_judge(tmp_path: Path) -> None:
    log, script = run(tmp_path, "quotes", "debate")
    judged = [
        _text(c.messages) for c in script.calls if _text(c.messages).startswith("You are the judge")
    ]
    assert all("<quote verified>" in p and "<quote unverified>" in p for p in judged)
    assert log.samples is not None
    record = log.samples[0].store_as(OversightRecord)
    assert {s.verified_quotes for s in record.speeches} == {0, 1}


def test_assignments_are_balanced_and_recorded(tmp_path: Path) -> None:
    log, _ = run(tmp_path, "right", "consultancy")
    assert log.samples is not None
    rights = [s.metadata["consultant_right"] for s in log.samples]
    assert rights.count(True) == N // 2
    found = metrics(log)
    assert found["accuracy_consultant_right"] == 1.0 and found["accuracy_consultant_wrong"] == 1.0
    debate_log, _ = run(tmp_path / "d", "right", "debate")
    assert debate_log.samples is not None
    firsts = [s.metadata["correct_label"] == "A" for s in debate_log.samples]
    sides = [s.scores["judge_accuracy"].metadata["right_side"] for s in debate_log.samples]
    assert firsts.count(True) == N // 2 and sides.count("pro") == N // 2


def _draw(tmp_path: Path, seed: int | None) -> list[tuple[str, str]]:
    script = scripted("right", True)
    task = oversight(protocol="debate", questions=str(question_file(tmp_path)), probe=False)
    log = eval(task, model=script.model(), log_dir=str(tmp_path), display="none", seed=seed)[0]
    assert log.samples is not None
    return [(s.metadata["correct_label"], s.metadata["assignment"]["pro"]) for s in log.samples]


def test_inspect_seed_draws_the_sides(tmp_path: Path) -> None:
    unseeded = _draw(tmp_path / "none", None)
    # No --seed is seed 0: a run repeats its assignment.
    assert unseeded == _draw(tmp_path / "zero", 0)
    draws = {tuple(_draw(tmp_path / str(seed), seed)) for seed in (1, 2, 3)}
    assert len(draws) > 1  # the seed reaches the draw


def test_a_task_seed_names_inspects_own(tmp_path: Path) -> None:
    from debatebench_eval.core.errors import ConfigError

    with pytest.raises(ConfigError, match="--seed"):
        oversight(questions=str(question_file(tmp_path)), seed=3)
    with pytest.raises(ConfigError, match="judge_budget=1024"):
        oversight(questions=str(question_file(tmp_path)), judging={"judge_budget": 9})


def test_open_debaters_choices_are_recorded(tmp_path: Path) -> None:
    log, _ = run(tmp_path, "right", "open")
    found = metrics(log)
    # Both chose the right answer: pro defends it, con is given the other.
    assert found["pro_chose_right"] == 1.0 and found["con_chose_right"] == 1.0
    assert log.samples is not None
    for sample in log.samples:
        right = sample.metadata["correct_label"]
        assert sample.metadata["choices"] == {"pro": right, "con": right}
        assert sample.metadata["assignment"]["pro"] == right
        assert sample.metadata["assignment"]["con"] != right


def test_naive_makes_no_speech(tmp_path: Path) -> None:
    _, script = run(tmp_path, "right", "naive")
    assert len(script.calls) == 2 * N  # the judge alone, in both orders
    _, script = run(tmp_path / "one", "right", "naive", answer_orders="one")
    assert len(script.calls) == N


def test_interactive_needs_consultancy(tmp_path: Path) -> None:
    from debatebench_eval.core.errors import ConfigError

    with pytest.raises(ConfigError, match="interactive"):
        oversight(protocol="debate", interactive=True, questions=str(question_file(tmp_path)))


def test_protocols_compared_on_the_same_questions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from debatebench_eval.cli.main import main
    from debatebench_eval.known_answer.log_reader import compare_logs

    debate_log, _ = run(tmp_path / "debate", "quotes", "debate")
    naive_log, _ = run(tmp_path / "naive", "first", "naive")
    consult_log, _ = run(tmp_path / "consult", "wrong", "consultancy")
    paths = [debate_log.location, naive_log.location, consult_log.location]
    found = compare_logs(paths)
    assert {p: a.value for p, a in found.accuracy.items()} == {
        "debate": 1.0, "naive": 0.5, "consultancy": 0.0
    }  # fmt: skip
    naive = found.differences[("debate", "naive")]
    assert naive.value == 0.5 and naive.questions == N and 0.0 < naive.low < 0.5 < naive.high <= 1
    consult = found.differences[("debate", "consultancy")]
    assert (consult.value, consult.low, consult.high) == (1.0, 1.0, 1.0)
    assert main(["oversight", "compare", *paths]) == 0
    table = capsys.readouterr().out
    assert "| debate - naive | +0.500 |" in table and "| debate | 1.000 |" in table
    assert main(["oversight", "compare", str(tmp_path / "missing.eval")]) == 2


def test_a_saved_run_is_judged_again_by_another_judge(tmp_path: Path) -> None:
    """The judge answers in the scorer, so `inspect score --model-role judge=...` re-judges
    a saved log without a speech being made again; the new judge sees no evidence either."""
    from inspect_ai import score

    from debatebench_eval.known_answer.scorer import judge_accuracy

    log, _ = run(tmp_path, "wrong", "debate", quote=False)
    assert metrics(log)["accuracy"] == 0.0
    judge = scripted("right")
    rescored = score(
        log, [judge_accuracy()], model_roles={"judge": judge.model()}, action="overwrite",
        display="none",
    )  # fmt: skip
    assert metrics(rescored)["accuracy"] == 1.0
    prompts = [_text(c.messages) for c in judge.calls]
    # Both orders, as the run judged.
    assert len(prompts) == 2 * N and all(p.startswith("You are the judge") for p in prompts)
    assert not any(EVIDENCE.format(i=i) in p for p in prompts for i in range(N))


def test_a_folder_passes_over_logs_in_progress_and_of_other_tasks(tmp_path: Path) -> None:
    from inspect_ai.log import write_eval_log

    from debatebench_eval.core.errors import ConfigError
    from debatebench_eval.known_answer.log_reader import compare_logs

    log, _ = run(tmp_path / "run", "right", "naive")
    folder = tmp_path / "shared"
    folder.mkdir()
    write_eval_log(log, str(folder / "2026-01-01T00-00-00-00-00_oversight_done.eval"))
    started = log.model_copy(update={"status": "started"})
    write_eval_log(started, str(folder / "2026-01-01T00-00-01-00-00_oversight_busy.eval"))
    other = log.model_copy(deep=True)
    other.eval.metadata = {}
    write_eval_log(other, str(folder / "2026-01-01T00-00-02-00-00_debate_other.eval"))
    found = compare_logs([str(folder)])
    assert found.accuracy["naive"].n == N  # the finished oversight log alone
    with pytest.raises(ConfigError, match="not an oversight log"):
        compare_logs([str(folder / "2026-01-01T00-00-02-00-00_debate_other.eval")])


def test_an_unusable_verdict_is_named_unscored_in_the_sample_list(tmp_path: Path) -> None:
    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        return output("s", "I would rather not say.")  # never a verdict, however asked

    task = oversight(protocol="naive", questions=str(question_file(tmp_path)), probe=False)
    log = eval(task, model=Script("s", reply).model(), log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success" and log.samples
    scores = [s.scores["judge_accuracy"] for s in log.samples if s.scores]
    assert len(scores) == N and {s.answer for s in scores} == {"unscored · naive"}
    assert all(str(s.explanation).startswith("no usable verdict") for s in scores)


def test_the_log_list_tells_the_protocols_apart(tmp_path: Path) -> None:
    """`inspect view`'s log list names each log by its task, the same for every
    protocol, and shows its tags: each log carries its protocol as its tag, the
    default one too (not among the arguments passed, which the list also shows)."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    folder = tmp_path / "logs"
    questions = str(question_file(tmp_path))
    for given in ({"protocol": "naive"}, {}):  # the second: debate, by default
        task = oversight(questions=questions, probe=False, rounds=2, **given)
        eval(task, model=scripted("right").model(), log_dir=str(folder), display="none")
    headers = [read_eval_log(info, header_only=True) for info in list_eval_logs(str(folder))]
    assert len({h.eval.task for h in headers}) == 1  # the name alone says nothing
    by_protocol = {h.eval.metadata["protocol"]: h for h in headers if h.eval.metadata}
    assert {p: h.tags for p, h in by_protocol.items()} == {"naive": ["naive"], "debate": ["debate"]}
    assert "protocol" not in by_protocol["debate"].eval.task_args_passed


def test_the_protocol_tag_leaves_the_task_identity_alone(tmp_path: Path) -> None:
    """eval_set, and so a tournament, resumes by task identity: the task now (tagged)
    must be the task of a log written before it had tags, or every run starts over."""
    from inspect_ai import eval_set

    from debatebench_eval.core._inspect import task_identifier
    from debatebench_eval.runs.eval_sets import capture

    log, script = run(tmp_path, "right", "naive")
    assert log.eval.tags == ["naive"]
    untagged = log.model_copy(deep=True)  # as a log written before the tag
    untagged.eval.tags = None
    task = oversight(protocol="naive", questions=str(question_file(tmp_path)), probe=False,
                     rounds=2)  # fmt: skip
    assert task.tags == ["naive"]
    captured = capture(
        lambda: eval_set(task, log_dir=str(tmp_path / "set"), model=script.model()),
        str(tmp_path / "capture.json"),
    )
    assert [t.identifier for t in captured.tasks] == [task_identifier(untagged, None)]
    assert task_identifier(untagged, None) == task_identifier(log, None)
