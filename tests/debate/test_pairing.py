"""Paired runs: a half never runs without its twin, and pair metrics keep to whole pairs."""

from __future__ import annotations

from typing import Any

from inspect_ai.event import ModelEvent, SpanBeginEvent
from inspect_ai.scorer import SampleScore, Score

from debatebench_eval.judging.figures import FIGURES_KEY, figures_of
from debatebench_eval.judging.metrics import complete_pairs, model_win_rate
from debatebench_eval.record.motions import single_motion

from support.scripted import Script

MOTION = "Cities should ban cars from their centres."
PAIR = single_motion(MOTION).id


def paired(run_debate: Any, speakers: dict[str, Script], **eval_args: Any) -> Any:
    roles = {side: script.model() for side, script in speakers.items()}
    return run_debate(roles=roles, paired=True, phases="[opening]", fact_check=False,
                      swap_judging=False, eval_args=eval_args)  # fmt: skip


def test_selecting_one_half_by_id_is_refused_before_any_call(run_debate: Any) -> None:
    speakers = {"pro": Script("pro"), "con": Script("con")}
    log = paired(run_debate, speakers, sample_id=PAIR)
    [sample] = log.samples or []
    assert sample.error is not None
    message = sample.error.message
    assert f"sample '{PAIR}' would run without its twin '{PAIR}.swapped'" in message
    assert f"--sample-id '{PAIR}*' runs both halves" in message
    assert speakers["pro"].calls == [] and speakers["con"].calls == []


def test_an_odd_limit_splits_the_last_pair_and_is_refused(run_debate: Any) -> None:
    log = paired(run_debate, {"pro": Script("pro"), "con": Script("con")}, limit=1)
    [sample] = log.samples or []
    assert sample.error is not None and "an even --limit keeps pairs whole" in sample.error.message


def test_a_glob_or_an_even_limit_runs_whole_pairs(run_debate: Any) -> None:
    for selection in ({"sample_id": f"{PAIR}*"}, {"limit": 2}):
        log = paired(run_debate, {"pro": Script("pro"), "con": Script("con")}, **selection)
        ids = sorted(str(s.id) for s in log.samples or [])
        assert ids == [PAIR, f"{PAIR}.swapped"]
        assert all(s.error is None for s in log.samples or [])


def judged(pair: str | None, swapped: bool) -> Score:
    meta = {"pair_id": pair, "swapped": swapped, "models": {"pro": "a", "con": "b"}}
    return Score(value={"pro_role_win": 1.0}, metadata=meta)


def test_pair_metrics_keep_whole_pairs_and_count_the_rest() -> None:
    scores = [judged("m1", False), judged("m1", True), judged("m2", False), judged(None, False)]
    kept, incomplete = complete_pairs(scores)
    assert kept == [scores[3], scores[0], scores[1]] and incomplete == 1


def test_the_same_arguments_make_the_same_task_identity() -> None:
    # The token is a solver argument: a random one would change the task's identity
    # on every run, and eval_set would redo every paired debate.
    from debatebench_eval.debating.task import debate

    first, again = (debate(motion=MOTION, paired=True) for _ in range(2))
    assert first.metadata and again.metadata
    assert first.metadata["pairing"] == again.metadata["pairing"]
    other = debate(motion=MOTION, paired=True, budget=500)
    assert other.metadata and other.metadata["pairing"] != first.metadata["pairing"]


def test_the_task_identity_of_the_same_arguments_is_kept_across_releases() -> None:
    # eval_set resumes a paired run by its token: a change to how `debate` builds it
    # (issue 44 split the factory) would redo every paired debate of a log folder.
    from debatebench_eval.debating.task import debate

    plain = debate(motion=MOTION, paired=True)
    given = debate(motion=MOTION, paired=True, budget={"pro": 300}, reasoning_budget=64,
                   judge_budget=900, empty_retries=1)  # fmt: skip
    assert plain.metadata and plain.metadata["pairing"] == "64379a2abf429021"
    assert given.metadata and given.metadata["pairing"] == "f4c8e3fb22995e75"


def test_a_swapped_transcript_heads_each_turn_with_the_side_its_role_argues(
    run_debate: Any,
) -> None:
    log = paired(run_debate, {"pro": Script("pro"), "con": Script("con")})
    heads = {}
    for sample in log.samples or []:
        spans = [e for e in sample.events if isinstance(e, SpanBeginEvent) and e.type == "turn"]
        calls = [e for e in sample.events if isinstance(e, ModelEvent) and e.role != "judge"]
        heads[str(sample.id)] = [
            (span.name, call.role) for span, call in zip(spans, calls, strict=True)
        ]
    assert heads[PAIR] == [("PRO: mockllm/pro", "pro"), ("CON: mockllm/con", "con")]
    # Inspect labels the call by its role; the turn's heading says which side it argues.
    assert heads[f"{PAIR}.swapped"] == [
        ("PRO: mockllm/con (the con role, sides swapped)", "con"),
        ("CON: mockllm/pro (the pro role, sides swapped)", "pro"),
    ]


def test_win_rates_read_logs_written_before_and_after_the_figures_moved() -> None:
    """Old logs hold every rubric key in the value; new ones keep the figures in metadata."""
    meta = {"pair_id": None, "swapped": False, "models": {"pro": "a", "con": "b"}}
    old = Score(value={"pro_total": 60.0, "pro_role_win": 1.0, "pro_win": 1.0}, metadata=meta)
    new = Score(
        value={"pro_total": 60.0},
        metadata={**meta, FIGURES_KEY: {"pro_role_win": 1.0, "pro_win": 1.0}},
    )
    assert figures_of(old) == figures_of(new) == {"pro_total": 60, "pro_role_win": 1, "pro_win": 1}
    rates = model_win_rate()
    for score in (old, new):
        assert rates([SampleScore(score=score)]) == {"win_rate.a": 1.0, "win_rate.b": 0.0}
