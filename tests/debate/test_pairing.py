"""Paired runs: a half never runs without its twin, and pair metrics keep to whole pairs."""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import Score

from debatebench_eval.judging.metrics import complete_pairs
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
    from debatebench_eval.debate.task import debate

    first, again = (debate(motion=MOTION, paired=True) for _ in range(2))
    assert first.metadata and again.metadata
    assert first.metadata["pairing"] == again.metadata["pairing"]
    other = debate(motion=MOTION, paired=True, budget=500)
    assert other.metadata and other.metadata["pairing"] != first.metadata["pairing"]
