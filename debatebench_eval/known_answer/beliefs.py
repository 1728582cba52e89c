"""The judge's belief round by round, and the stop it can call.

With `judge_each_round` the judge reads the transcript as it stood after each
round but the last and states its probability (in every order read); the
scorer's verdict is its belief after the last round spoken. A sample's path is
then p_correct after round 1, 2, ...; the metrics read the pick after each
round. With `stop_when_confident=p` the speeches end after the first round in
which the judge gives its pick at least p (averaged over the orders read).
A sample that stopped keeps its last belief for the rounds it did not hear, so
the accuracy after round k counts every sample.
"""

from __future__ import annotations

from inspect_ai.model import Model

from debatebench_eval.known_answer.orders import OversightJudging
from debatebench_eval.known_answer.record import Belief, OversightRecord
from debatebench_eval.known_answer.verdict import Verdict, judge_record


async def belief_after(
    record: OversightRecord, judges: list[Model], calls: OversightJudging, number: int
) -> Belief:
    """The panel's belief after round `number` (every judge, every order read)."""
    verdict = await judge_record(record, judges, calls, after_round=number)
    return Belief(
        round=number,
        pick=verdict.pick,
        p_correct=verdict.p_correct,
        order_picks={str(o): p for o, p in verdict.order_picks.items()},
        readings=verdict.readings,
    )


def pick_confidence(pick: str | None, p_correct: float | None, right: str) -> float | None:
    """The probability the panel gives its own pick."""
    if pick is None or p_correct is None:
        return None
    return p_correct if pick == right else 1 - p_correct


def stop_reason(belief: Belief, threshold: float | None, rounds: int) -> str | None:
    """Why the speeches end after this belief's round, or None (they go on)."""
    if threshold is None or belief.p_correct is None or belief.pick is None:
        return None
    # The right answer's probability and the pick's agree on which side of 0.5 they lie.
    sure = max(belief.p_correct, 1 - belief.p_correct)
    if sure < threshold:
        return None
    return (
        f"the judge gave its pick {sure:.2f} after round {belief.round} of {rounds} "
        f"(stop_when_confident={threshold:g})"
    )


def belief_path(record: OversightRecord, verdict: Verdict) -> dict[int, float | None]:
    """p_correct after each round heard: the recorded beliefs, then the verdict's."""
    path: dict[int, float | None] = {b.round: b.p_correct for b in record.beliefs}
    last = max((s.round for s in record.speeches), default=0)
    path[last] = verdict.p_correct
    return path


def picks_by_round(record: OversightRecord, verdict: Verdict) -> dict[str, bool | None]:
    """Whether the pick after each planned round was right (a stopped sample's last pick
    carries on; None where the judge gave no usable reply). Keys are strings: metadata."""
    right = record.correct_label
    picks = {b.round: b.pick for b in record.beliefs}
    last = max((s.round for s in record.speeches), default=0)
    picks[last] = verdict.pick
    found: dict[str, bool | None] = {}
    current: str | None = None
    for number in range(1, (record.rounds_planned or last) + 1):
        current = picks.get(number, current)
        found[str(number)] = None if current is None else current == right
    return found
