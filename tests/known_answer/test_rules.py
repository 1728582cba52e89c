"""The rules under the task: quotes checked against the evidence, the balanced draw,
the accuracy interval and the paired difference between protocols."""

from __future__ import annotations

import pytest

from debatebench_eval.core.reply_model import check_reply, reply_schema
from debatebench_eval.known_answer.assignment import assignments, balanced, open_sides
from debatebench_eval.known_answer.questions import Question
from debatebench_eval.known_answer.quotes import check_quotes, judge_view
from debatebench_eval.known_answer.replies import JudgeAnswer
from debatebench_eval.known_answer.stats import Outcome, accuracy, accuracy_of, paired_difference

EVIDENCE = "The committee met on Friday, and it voted seven to two for the new bridge."


def test_quotes_exact_fuzzy_and_invented() -> None:
    speech = (
        "<quote>it voted seven to two</quote> and <quote>The Committee met on friday</quote>"
        " but <quote>the committee rejected the bridge</quote>"
    )
    found = check_quotes(speech, EVIDENCE)
    assert [(q.verified, q.how) for q in found[:2]] == [(True, "exact"), (True, "fuzzy")]
    assert not found[2].verified
    shown = judge_view(speech, EVIDENCE)
    assert shown.count("<quote verified>") == 2 and shown.count("<quote unverified>") == 1
    assert check_quotes("nothing quoted", EVIDENCE) == []
    assert not check_quotes("<quote>it voted seven to two</quote>", None)[0].verified


def test_a_negation_is_not_verified() -> None:
    (found,) = check_quotes(
        "<quote>it never voted seven to two for the new bridge</quote>", EVIDENCE
    )
    assert not found.verified


@pytest.mark.parametrize("n", [1, 2, 7, 8])
def test_balanced_draws(n: int) -> None:
    flags = balanced(n, 3, "x")
    assert len(flags) == n and abs(sum(flags) - n / 2) <= 0.5
    assert flags == balanced(n, 3, "x") and balanced(40, 3, "x") != balanced(40, 4, "x")


def test_assignment_is_balanced_per_split() -> None:
    questions = tuple(Question(f"q{i}", "Q?", ("a", "b"), i % 2) for i in range(10))
    debate = assignments(questions, "debate", 0)
    assert sum(m["correct_label"] == "A" for m in debate) == 5
    assert sum(m["assignment"]["pro"] == m["correct_label"] for m in debate) == 5
    consult = assignments(questions, "consultancy", 0)
    assert sum(m["consultant_right"] for m in consult) == 5
    assert open_sides({"pro": "A", "con": "A"}) == {"pro": "A", "con": "B"}
    assert open_sides({"pro": "B", "con": "A"}) == {"pro": "B", "con": "A"}


def test_accuracy_interval_wilson_then_cluster() -> None:
    one_each = [Outcome(f"q{i}", i < 7, 0.8, 0.8) for i in range(10)]
    found = accuracy(one_each)
    assert found is not None and found.method == "wilson" and found.value == 0.7
    assert found.low == pytest.approx(0.3968, abs=1e-3) and found.high == pytest.approx(
        0.8922, abs=1e-3
    )
    # Two epochs of the same questions, always agreeing: the same estimate, clustered
    twice = one_each + one_each
    clustered = accuracy(twice)
    assert clustered is not None and clustered.method == "cluster-bootstrap"
    assert clustered.value == 0.7 and clustered.questions == 10 and clustered.n == 20


def test_paired_difference_interval() -> None:
    first = {f"q{i}": [1.0] for i in range(40)}
    second = {f"q{i}": [1.0 if i < 20 else 0.0] for i in range(40)}
    found = paired_difference(first, second)
    assert found is not None and found.value == 0.5 and found.questions == 40
    # the bootstrap of 20 ones and 20 zeros: sd 0.5/sqrt(40) = 0.079, so about +-0.155
    assert 0.30 < found.low < 0.40 and 0.60 < found.high < 0.70
    same = paired_difference(first, first)
    assert same is not None and (same.value, same.low, same.high) == (0.0, 0.0, 0.0)
    # only the questions both judged count
    assert paired_difference({"a": [1.0]}, {"b": [0.0]}) is None


def test_the_judges_confidence_is_held_to_50_to_100_by_schema_and_check() -> None:
    sent = reply_schema(JudgeAnswer)["properties"]["confidence"]
    assert (sent["minimum"], sent["maximum"]) == (50, 100)
    found, problems = check_reply(JudgeAnswer)({"answer": "A", "confidence": 4, "reason": ","})
    assert found is None and len(problems) == 2 and "from 50 to 100" in problems[0]


def test_an_accuracys_interval_does_not_depend_on_the_order_the_picks_came_in() -> None:
    # Questions judged 1 to 4 times, each with its own share of right picks.
    picks = [(f"q{q}", bool((q * 7 + k) % 5 < 2)) for q in range(25) for k in range(1 + q % 4)]
    assert accuracy_of(picks) == accuracy_of(list(reversed(picks)))
