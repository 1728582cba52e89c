"""The solver's rules stated exactly: the seed derived per sample and epoch,
the completeness check's words, a role without a model, the prep budget, the
evidence each prompt carries and each turn's citations and id, and the
context window reaching every speaker. Unit calls first, then one-debate runs
with scripted models."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any

import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, ModelOutput, get_model

from debatebench_eval.core.errors import DebateError
from debatebench_eval.core.seeds import sample_seed
from debatebench_eval.debating.solver import _check_complete
from debatebench_eval.record.protocol import Phase
from debatebench_eval.record.store import DebateRecord, turn_id

from support.scripted import Script, output

RunDebate = Callable[..., EvalLog]


def test_a_seed_is_the_first_four_digest_bytes_big_endian_below_2_to_the_31() -> None:
    # sha256("7:m1:1") starts c9 13 96 91 8e: its top bit is set, so the modulus shows.
    assert hashlib.sha256(b"7:m1:1").digest()[:5].hex() == "c91396918e"
    assert sample_seed(7, "m1", 1) == (0xC9139691 - 2**31, "derived from base seed 7")
    assert sample_seed(7, "m1", 2) == (1252239293, "derived from base seed 7")
    assert sample_seed(42, 3, 1) == (1745103865, "derived from base seed 42")


def test_without_a_base_the_seed_is_drawn_below_2_31(monkeypatch: pytest.MonkeyPatch) -> None:
    bounds: list[int] = []

    def highest(bound: int) -> int:
        bounds.append(bound)
        return bound - 1

    monkeypatch.setattr(secrets, "randbelow", highest)
    assert sample_seed(None, "m1", 1) == (2**31 - 1, "generated")
    assert bounds == [2**31]


def test_a_missing_turn_is_named_by_phase_and_side() -> None:
    phases = (Phase("prep", None), Phase("rebuttal", "short"))
    with pytest.raises(DebateError) as caught:
        _check_complete([], phases)
    assert str(caught.value) == "phase 0 (prep), side pro: no turn was recorded"


def test_a_role_without_a_model_fails_the_sample_saying_how_to_give_one(
    run_debate: RunDebate,
) -> None:
    log = run_debate(main=get_model("none"), phases="[opening]")
    assert log.samples is not None and log.samples[0].error is not None
    assert (
        "no model for role 'pro': pass --model, or --model-role pro=PROVIDER/MODEL"
        in log.samples[0].error.message
    )


def cites(side: str) -> Callable[[int, list[Any], GenerateConfig], ModelOutput]:
    # Pro's passages are numbered first, so pro cites its own P1 and con cites pro's.
    return lambda n, messages, config: output(side, f"{side} argues [P1], call {n}.")


def test_prep_budget_evidence_citations_and_turn_ids(run_debate: RunDebate) -> None:
    pro, con = Script("pro", cites("pro")), Script("con", cites("con"))
    log = run_debate(
        roles={"pro": pro.model(), "con": con.model()},
        phases="[prep, opening]",
        prep_budget=77,
        sources="[example]",
        motion=None,
        eval_args={"sample_id": "carbon-tax"},
    )
    assert log.samples is not None and log.samples[0].error is None
    sample = log.samples[0]
    record = sample.store_as(DebateRecord)
    by_side = {(t.phase_index, t.side): t for t in record.turns}
    # The prep budget for prep only; the role's own budget for the argument phase.
    assert [c.config.max_tokens for c in pro.calls] == [77, 2000]
    assert [by_side[phase, "con"].budget for phase in (0, 1)] == [77, 2000]
    # Each side's prompt carries its own evidence.
    pro_passages = [p for p in record.passages if p.side == "pro"]
    assert pro_passages
    for call in pro.calls:
        assert all(p.text.strip() in call.messages[-1].text for p in pro_passages)
    assert by_side[1, "pro"].cited_ids == ["P1"] and by_side[1, "pro"].citation_problems == {}
    assert by_side[1, "con"].citation_problems == {"P1": "the opponent's passage"}
    for turn in record.turns:
        assert turn.id == turn_id(sample.id, sample.epoch, turn.phase_index, turn.side)


def test_without_evidence_a_turn_has_no_citations(run_debate: RunDebate) -> None:
    pro, con = Script("pro", cites("pro")), Script("con", cites("con"))
    log = run_debate(roles={"pro": pro.model(), "con": con.model()}, phases="[opening]")
    record = log.samples[0].store_as(DebateRecord)  # type: ignore[index]
    assert [(t.cited_ids, t.citation_problems) for t in record.turns] == [([], {}), ([], {})]


def test_the_context_window_is_checked_for_every_speaker(
    run_debate: RunDebate, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def counted(model: Any, text: str, timeout: float) -> int:
        return 10_000

    monkeypatch.setattr("debatebench_eval.servers.context_window.count_tokens", counted)
    log = run_debate(phases="[opening]", context_window=5_000)
    assert log.samples is not None and log.samples[0].error is not None
    assert "more than the context window of 5000" in log.samples[0].error.message
