"""Trust records of the debate checks, and the checks every judging score's stamp reports."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import get_model

from debatebench_eval.cli.main import main
from debatebench_eval.judging.gate import judge_trust
from debatebench_eval.trust.check_records import (
    FACT_CHECK,
    HUMAN,
    SENSITIVITY,
    SPEECH,
    CheckRecord,
    check_status,
    check_verdict,
    save_check_record,
)
from debatebench_eval.trust.digests import planted_sha256 as planted_sha
from debatebench_eval.trust.digests import sensitivity_sha256 as sensitivity_sha
from debatebench_eval.trust.records import JudgeIdentity, TrustRecord, save_record, trust_status
from debatebench_eval.trust.speech_data import VENDORED_SHA256
from debatebench_eval.validation.check_reader import check_record

from support.judge_checks import oracle_judge
from support.scripted import Script

HOSTED = JudgeIdentity("openai", "gpt-judge", None)


def record(check: str, identity: JudgeIdentity = HOSTED, **change: Any) -> CheckRecord:
    figures = ({"macro_f1": 0.7, "claim_recall": 0.9, "parse_rate": 1.0} if check == FACT_CHECK
               else {"sensitivity": 0.9, "parse_rate": 1.0})  # fmt: skip
    sha = planted_sha() if check == FACT_CHECK else sensitivity_sha()
    made = CheckRecord(check, identity, sha, True, 64, 64, figures, {}, "x.eval",
                       "2026-11-30T00:00:00Z", True)  # fmt: skip
    return replace(made, **change)


def test_the_thresholds() -> None:
    assert check_verdict(FACT_CHECK, {"macro_f1": 0.6, "claim_recall": 0.8, "parse_rate": 0.95},
                         complete=True) == (True, [])  # fmt: skip
    passed, reasons = check_verdict(SENSITIVITY, {"sensitivity": 0.79, "parse_rate": None},
                                    complete=False, failed_samples=2)  # fmt: skip
    assert not passed and len(reasons) == 4


@pytest.mark.parametrize("check", [FACT_CHECK, SENSITIVITY])
def test_the_gate_applies_its_own_rules_to_a_record(
    private_trust_records: Path, check: str
) -> None:
    bundled = planted_sha() if check == FACT_CHECK else sensitivity_sha()
    assert check_status(HOSTED, check, bundled)["status"] == "not_run"
    save_check_record(record(check), private_trust_records)
    assert check_status(HOSTED, check, bundled) == {"status": "passed", "record": (
        next(private_trust_records.glob("*.json")).name)}  # fmt: skip
    for made in (record(check, complete=False, date="2026-12-01T00:00:00Z"),
                 record(check, data_sha256="other", date="2026-12-02T00:00:00Z")):  # fmt: skip
        save_check_record(made, private_trust_records)
        assert check_status(HOSTED, check, bundled)["status"] == "failed"
    local = JudgeIdentity("ollama", "qwen3:8b", "http://127.0.0.1:11434/v1")
    assert check_status(local, check, bundled)["status"] == "identity_unverifiable"


def test_check_records_beside_speech_records_leave_the_speech_gate_alone(
    private_trust_records: Path,
) -> None:
    save_check_record(record(FACT_CHECK), private_trust_records)
    assert trust_status(HOSTED)["status"] == "unvalidated"
    speech = TrustRecord(
        judge=HOSTED, prompt="no_cot", n=631, n_scored=631, parse_rate=1.0, tau_c=0.55,
        tau_c_ci=(0.5, 0.6), tau_b=0.52, source_baseline_tau_c=0.3, bias=-0.7,
        generate_config={}, data_sha256=VENDORED_SHA256, log="x.eval",
        date="2026-11-30T00:00:00Z", trusted=True,
    )  # fmt: skip
    save_record(speech, private_trust_records)
    assert trust_status(HOSTED)["status"] == "trusted"


def test_the_stamp_says_which_checks_the_judge_passed(private_trust_records: Path) -> None:
    judge = get_model("mockllm/stamped", memoize=False)
    identity = JudgeIdentity("mockllm", "stamped", None)
    stamp = asyncio.run(judge_trust([judge], require=False))
    assert {c: s["status"] for c, s in stamp["checks"].items()} == {
        SPEECH: "not_run", FACT_CHECK: "not_run", SENSITIVITY: "not_run",
        HUMAN: "not_run"}  # fmt: skip
    save_check_record(record(FACT_CHECK, identity), private_trust_records)
    save_check_record(record(SENSITIVITY, identity, figures={"sensitivity": 0.5,
                                                             "parse_rate": 1.0}),
                      private_trust_records)  # fmt: skip
    stamp = asyncio.run(judge_trust([judge], require=False))
    assert stamp["checks"][FACT_CHECK]["status"] == "passed"
    assert stamp["checks"][SENSITIVITY]["status"] == "failed"
    # A panel passes a check only when every judge did.
    other = get_model("mockllm/unchecked", memoize=False)
    panel = asyncio.run(judge_trust([judge, other], require=False))
    assert panel["checks"][FACT_CHECK]["status"] == "not_run"


def test_trust_and_report_from_check_logs(tmp_path: Path, private_trust_records: Path) -> None:
    from inspect_ai import eval

    from debatebench_eval.validation.fact_check_task import fact_check_validation

    log = eval(fact_check_validation(), model=Script("main").model(),
               model_roles={"judge": oracle_judge().model()}, log_dir=str(tmp_path / "logs"),
               display="none", limit=16)[0]  # fmt: skip
    made = check_record(log.location)
    assert made.figures["macro_f1"] == 1.0 and not made.complete and not made.passed
    assert made.reasons == ["only part of the bundled set was judged"]
    assert main(["trust", log.location]) == 1
    assert len(list(private_trust_records.glob("*fact_check_validation*.json"))) == 1
    assert main(["report", log.location, "-o", str(tmp_path / "report")]) == 0
    text = (tmp_path / "report" / "report.md").read_text()
    assert "macro-F1" in text and "| supported | 32 | 0 | 0 | 0 | 0 |" in text
