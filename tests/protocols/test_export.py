"""The reference tools' result shapes, written from a log and read back."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from inspect_ai import eval

from debatebench_eval.protocols.export import AR_DEBATE_KEYS, export_deliberations
from debatebench_eval.protocols.tasks import adjudicate, panel

from support.deliberation import DONE, last_user_text
from support.scripted import Script, output

ROLES = ["proposer", "skeptic", "counterevidence_miner", "validity_critic"]
DECISION = {
    "final_decision": "revise", "proposal": "One-item burnout survey",
    "reasoning_summary": "Too thin.",
    "competing_options": ["one item", "validated scale"], "supporting_evidence": ["cheap"],
    "opposing_evidence": ["unreliable"], "unresolved_concerns": ["construct validity"],
    "confidence": 0.8, "dissent": "The proposer says cost matters most.",
    "revisions": ["Use a validated three-item scale."], "request_round": False,
    "round_question": "",
}  # fmt: skip


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "run").mkdir()
    monkeypatch.chdir(tmp_path / "run")


def _log(task, tmp_path: Path, reply):  # type: ignore[no-untyped-def]
    script = Script("m", reply=lambda n, m, c: output("m", reply(m)))
    return eval(task, model=script.model(), log_dir=str(tmp_path / "logs"), display="none")[0]


def test_heurema_result_shape(tmp_path: Path) -> None:
    log = _log(
        panel(task="T"),
        tmp_path,
        lambda m: "The answer." if "Synthesize" in last_user_text(m) else f"Fine.\n\n{DONE}",
    )
    written, skipped = export_deliberations(log.location, tmp_path / "out", "heurema")
    assert skipped == [] and [p.name for p in written] == ["panel_1.heurema.json"]
    result = json.loads(written[0].read_text())
    assert set(result) == {"answer", "outcome", "rounds", "turns"}
    assert (result["answer"], result["outcome"], result["rounds"]) == ("The answer.", "settled", 2)
    assert [(t["round"], t["speaker"]) for t in result["turns"]] == [
        (1, "proposer"), (1, "skeptic"), (2, "proposer"), (2, "skeptic"),
    ]  # fmt: skip
    assert all(
        set(t) == {"round", "speaker", "content"} and DONE in t["content"] for t in result["turns"]
    )
    # a panel is not a judge's decision
    written, skipped = export_deliberations(log.location, tmp_path / "ar", "ar-debate")
    assert written == [] and skipped == [
        "panel_1: a synthesis; ar-debate's record is a judge's decision"
    ]


def _adjudicated(tmp_path: Path, judge: str):  # type: ignore[no-untyped-def]
    proposal = tmp_path / "proposal.md"
    proposal.write_text("Measure burnout with one survey item.\n")

    def reply(messages):  # type: ignore[no-untyped-def]
        system = messages[0].text
        if "Judge" in system:
            return judge
        role = next(r for r in ROLES if r.replace("_", " ") in system.lower())
        return (
            f"{role} in {'round 2' if 'Cross-critique' in last_user_text(messages) else 'round 1'}"
        )

    return _log(
        adjudicate(proposal=str(proposal), debate_type="claim_adjudication"), tmp_path, reply
    )


def test_ar_debate_record_shape(tmp_path: Path) -> None:
    log = _adjudicated(tmp_path, json.dumps(DECISION))
    written, skipped = export_deliberations(log.location, tmp_path, "ar-debate")
    assert skipped == []
    folder = tmp_path / "analysis" / "debate_logs"
    records = [p for p in written if p.suffix == ".json"]
    assert len(records) == 1 and records[0].parent == folder
    assert re.fullmatch(r"claim_adjudication_\d{8}_\d{6}\.json", records[0].name)
    record = json.loads(records[0].read_text())
    assert list(record) == list(AR_DEBATE_KEYS)
    assert re.fullmatch(r"dbt-[0-9a-f]{8}", record["debate_id"])
    assert (record["debate_type"], record["final_decision"], record["rounds"]) == (
        "claim_adjudication",
        "revise",
        3,
    )
    assert record["proposal"] == "One-item burnout survey" and record["confidence"] == 0.8
    for key in (
        "competing_options",
        "supporting_evidence",
        "opposing_evidence",
        "unresolved_concerns",
    ):
        assert record[key] == DECISION[key]
    transcript = record["transcript"]
    assert list(transcript) == ["round_1", "round_2", "round_3"]
    assert list(transcript["round_1"]) == ROLES and list(transcript["round_3"]) == ["judge"]
    assert transcript["round_2"]["skeptic"] == "skeptic in round 2"
    assert json.loads(transcript["round_3"]["judge"]) == DECISION
    roles = sorted(p.name for p in written if p.suffix == ".md")
    assert roles == sorted(f"claim_adjudication_round{n}_{r}.md" for n in (1, 2) for r in ROLES)
    assert (folder / "claim_adjudication_round1_proposer.md").read_text() == "proposer in round 1\n"


def test_an_undecided_deliberation_has_no_decision_record(tmp_path: Path) -> None:
    log = _adjudicated(tmp_path, "I cannot decide.")
    written, skipped = export_deliberations(log.location, tmp_path, "ar-debate")
    assert written == [] and len(skipped) == 1
    assert skipped[0].startswith(
        "claim_adjudication_1: undecided (mockllm/m: unusable reply after 1 repair(s)"
    )
    written, skipped = export_deliberations(log.location, tmp_path, "heurema")
    assert written == [] and "heurema's result is a synthesis" in skipped[0]


def test_a_forced_escalate_records_no_confidence(tmp_path: Path) -> None:
    # The judge asks for a round every time, so ar-debate's rule ends it in
    # escalate: its 0.8 was for "revise", not for the escalate written.
    asks = {**DECISION, "request_round": True, "round_question": "Is one item reliable?"}
    log = _adjudicated(tmp_path, json.dumps(asks))
    written, skipped = export_deliberations(log.location, tmp_path, "ar-debate")
    assert skipped == []
    record = json.loads(next(p for p in written if p.suffix == ".json").read_text())
    assert (record["final_decision"], record["confidence"], record["rounds"]) == (
        "escalate",
        None,
        4,
    )
