"""Trust records and the gate: who a judge is, what its validation showed, who may judge."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import get_model

from debatebench_eval.cli.main import main
from debatebench_eval.validation.log_reader import read_validation_log, trust_record
from debatebench_eval.validation.report import headline, write_report
from debatebench_eval.validation.speech_data import VENDORED_SHA256
from debatebench_eval.validation.trust import (
    JudgeIdentity,
    Thresholds,
    TrustRecord,
    judge_identity,
    save_record,
    trust_status,
    verdict,
)

from support.scripted import Script, output
from support.stub_server import StubBehaviour, StubServer
from support.validation_runs import human_judge, validate

LOCAL = "http://127.0.0.1:11434/v1"


def record(identity: JudgeIdentity, trusted: bool = True) -> TrustRecord:
    return TrustRecord(
        judge=identity, prompt="no_cot", n=631, n_scored=631, parse_rate=1.0, tau_c=0.55,
        tau_c_ci=(0.5, 0.6), tau_b=0.52, source_baseline_tau_c=0.3, bias=-0.7,
        generate_config={"temperature": 0.01}, data_sha256=VENDORED_SHA256, log="x.eval",
        date="2026-11-30T00:00:00Z", trusted=trusted, reasons=[] if trusted else ["low"],
    )  # fmt: skip


def test_the_thresholds() -> None:
    assert verdict(631, 1.0, 0.547) == (True, [])
    trusted, reasons = verdict(599, 0.98, 0.3)
    assert not trusted and len(reasons) == 3


def test_a_record_matches_only_the_same_model(private_trust_records: Path) -> None:
    real = JudgeIdentity("ollama", "qwen3:8b", LOCAL, "qwen3:8b", "ollama:sha256:aaa")
    save_record(record(real), private_trust_records)
    assert trust_status(real)["status"] == "trusted"
    # A different model served under the same name does not inherit the record.
    impostor = replace(real, fingerprint="ollama:sha256:bbb")
    assert trust_status(impostor)["status"] == "unvalidated"
    # A server that reports no fingerprint cannot be matched to any record.
    assert trust_status(replace(real, fingerprint=None))["status"] == "identity_unverifiable"
    hosted = JudgeIdentity("openai", "gpt-4o", None)
    assert trust_status(hosted)["status"] == "unvalidated"
    save_record(record(hosted, trusted=False), private_trust_records)
    assert trust_status(hosted)["status"] == "untrusted"


def test_the_identity_comes_from_the_server() -> None:
    behaviour = StubBehaviour(digests={"qwen3:8b": "sha256:aaa"})
    with StubServer(behaviour) as stub:
        model = get_model("ollama/qwen3:8b", base_url=stub.base_url, memoize=False)
        identity = asyncio.run(judge_identity(model))
    assert identity.fingerprint == "ollama:sha256:aaa" and identity.base_url == stub.base_url
    with StubServer() as plain:  # an OpenAI-compatible server that is not Ollama
        model = get_model("ollama/qwen3:8b", base_url=plain.base_url, memoize=False)
        assert asyncio.run(judge_identity(model)).fingerprint is None


def test_trust_and_report_from_a_validation_log(
    tmp_path: Path, private_trust_records: Path
) -> None:
    log = validate(tmp_path, human_judge(unparsed=0), limit_per_source=2)
    made = trust_record(Path(log.location))
    assert made.n == 16 and made.parse_rate == 1 and made.tau_c is not None
    assert not made.trusted and "fewer than 600" in " ".join(made.reasons)
    assert made.judge.provider == "mockllm" and made.judge.model == "judge"
    assert made.generate_config.get("temperature") == 0.01
    assert main(["trust", log.location]) == 1  # written, and reported as not trusted
    assert len(list(private_trust_records.glob("*.json"))) == 1
    written = write_report(Path(log.location), tmp_path / "report")
    text = written[0].read_text()
    assert "Kendall tau-c" in text and "| Arg-GPT2 |" in text
    assert main(["trust", str(tmp_path / "missing.eval")]) == 2


def test_one_run_has_one_interval_in_the_log_the_record_and_the_report(tmp_path: Path) -> None:
    log = validate(tmp_path, human_judge(unparsed=3), limit_per_source=8)
    metrics = {n: m.value for s in log.results.scores for n, m in s.metrics.items()}  # type: ignore[union-attr]
    made = trust_record(Path(log.location))
    assert made.tau_c_ci is not None
    assert made.tau_c_ci == (metrics["tau_c_low"], metrics["tau_c_high"])
    text = write_report(Path(log.location), tmp_path / "report")[0].read_text()
    assert f"[{made.tau_c_ci[0]:+.3f}, {made.tau_c_ci[1]:+.3f}]" in text


def gated_debate(run_debate: Any, judge: Script, **args: Any) -> Any:
    debaters = {
        "pro": Script("pro", reply=lambda n, m, c: output("pro", "Yes.")).model(),
        "con": Script("con", reply=lambda n, m, c: output("con", "No.")).model(),
    }
    return run_debate(roles={**debaters, "judge": judge.model()}, phases="[opening]", **args)


def test_require_validated_judge_refuses_before_any_call(
    run_debate: Any, private_trust_records: Path
) -> None:
    judge = Script("gatekeeper", reply=lambda n, m, c: output("j", "{}"))
    log = gated_debate(run_debate, judge, require_validated_judge=True, fact_check=False)
    sample = (log.samples or [])[0]
    assert sample.error and "require_validated_judge" in sample.error.message
    assert "unvalidated" in sample.error.message and judge.calls == []
    save_record(record(JudgeIdentity("mockllm", "gatekeeper", None)), private_trust_records)
    log = gated_debate(run_debate, judge, require_validated_judge=True, fact_check=False)
    rubric = ((log.samples or [])[0].scores or {})["rubric"]
    assert rubric.metadata["trust"]["status"] == "trusted"


def test_every_rubric_score_is_stamped_with_the_judges_trust(run_debate: Any) -> None:
    judge = Script("stamped", reply=lambda n, m, c: output("j", "{}"))
    log = gated_debate(run_debate, judge)
    scores = (log.samples or [])[0].scores or {}
    not_run = {"status": "not_run", "record": None}
    checks = dict.fromkeys(("speech_validation", "fact_check_validation", "judge_sensitivity"),
                           not_run)  # fmt: skip
    expected = {"status": "unvalidated", "record": None, "checks": checks}
    assert scores["rubric"].metadata["trust"] == expected
    assert scores["fact_check"].metadata["trust"] == expected


@pytest.mark.parametrize("bad", ["{", '{"judge": {}}'])
def test_a_broken_record_file_is_reported_with_its_path(
    private_trust_records: Path, bad: str
) -> None:
    private_trust_records.mkdir(parents=True, exist_ok=True)
    (private_trust_records / "broken.json").write_text(bad)
    with pytest.raises(ValueError, match=r"broken\.json: not a trust record"):
        trust_status(JudgeIdentity("openai", "gpt-4o", None))


def test_the_report_draws_the_calibration_plot(tmp_path: Path) -> None:
    log = validate(tmp_path, human_judge(unparsed=0), limit_per_source=2)
    written = write_report(Path(log.location), tmp_path / "report")
    png = [p for p in written if p.suffix == ".png"]
    assert png and png[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_rescoring_applies_the_same_gate(run_debate: Any) -> None:
    from inspect_ai import score

    from debatebench_eval.judging.rubric_scorer import rubric

    judge = Script("rescorer", reply=lambda n, m, c: output("j", "{}"))
    log = gated_debate(run_debate, judge, fact_check=False)
    calls = len(judge.calls)
    with pytest.raises(Exception, match="require_validated_judge"):
        score(log, rubric(require_validated_judge=True), model_roles={"judge": judge.model()},
              display="none")  # fmt: skip
    assert len(judge.calls) == calls  # refused before any judge call


def test_all_631_speeches_through_the_real_cli_and_a_loopback_judge(
    tmp_path: Path, private_trust_records: Path
) -> None:
    import os
    import subprocess
    import sys

    from inspect_ai.log import list_eval_logs, read_eval_log

    behaviour = StubBehaviour(rate_speeches=True, digests={"judge-x": "sha256:feed"})
    with StubServer(behaviour) as stub:
        result = subprocess.run(
            [str(Path(sys.executable).parent / "inspect"), "eval",
             "debatebench/judge_validation", "--model", "ollama/judge-x",
             "--max-connections", "8", "--log-dir", str(tmp_path / "logs"), "--display", "plain"],
            env={**os.environ, "OLLAMA_BASE_URL": stub.base_url, "NO_COLOR": "1"},
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    log = read_eval_log(list_eval_logs(str(tmp_path / "logs"))[0].name)
    assert log.status == "success" and len(log.samples or []) == 631
    metrics = {
        k: m.value
        for s in (log.results.scores if log.results else [])
        for k, m in s.metrics.items()
    }
    assert metrics["n"] == 631 and metrics["parse_rate"] == 1 and metrics["distinct_values"] == 5
    assert -0.2 < metrics["tau_c"] < 0.2  # a judge rating at random ranks at random
    made = trust_record(Path(log.location))
    assert made.judge.fingerprint == "ollama:sha256:feed" and not made.trusted
    loose = trust_record(Path(log.location), Thresholds(tau_c=-1.0))
    assert loose.trusted and loose.thresholds["tau_c"] == -1.0


def test_the_gate_judges_a_record_by_its_own_rules(private_trust_records: Path) -> None:
    judge = JudgeIdentity("openai", "gpt-4o", None)
    lowered = replace(record(judge), tau_c=0.1, thresholds={"tau_c": 0.0})
    save_record(lowered, private_trust_records)
    status = trust_status(judge)
    assert status["status"] == "untrusted" and "tau-c 0.100 is below 0.38" in status["why"]
    other_data = replace(record(judge), data_sha256="f" * 64, date="2026-12-01T00:00:00Z")
    save_record(other_data, private_trust_records)
    assert "other data than the vendored copy" in trust_status(judge)["why"]
    newest = replace(record(judge), date="2026-12-02T00:00:00Z")
    save_record(newest, private_trust_records)
    assert trust_status(judge)["status"] == "trusted"


def test_a_hosted_provider_pointed_elsewhere_is_self_served(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with StubServer() as stub:
        monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
        model = get_model("openai/gpt-4o", memoize=False)
        identity = asyncio.run(judge_identity(model))
    assert identity.base_url == stub.base_url and identity.fingerprint is None
    assert trust_status(identity)["status"] == "identity_unverifiable"


def test_trust_prints_every_figure_readably_and_says_why_tau_c_is_undefined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    constant = Script("judge", reply=lambda n, m, c: output("judge", "<score>3</score>"))
    log = validate(tmp_path, constant, limit_per_source=1)
    assert main(["trust", log.location, "--out", str(tmp_path / "records")]) == 1
    printed = capsys.readouterr().out
    assert "tau-c undefined (a constant judge: every parsed reply gave the same score)" in printed
    assert "None" not in printed
    assert "tau-c is undefined (a constant judge" in printed  # the verdict's reason, too


def test_a_report_with_nothing_parsed_says_so_instead_of_empty_panels(tmp_path: Path) -> None:
    never = Script("judge", reply=lambda n, m, c: output("judge", "I cannot rate this."))
    log = validate(tmp_path, never, limit_per_source=1)
    written = write_report(Path(log.location), tmp_path / "report")
    assert [p.name for p in written] == ["report.md", "report.png"]
    summary = read_validation_log(Path(log.location))[1]
    assert headline(summary).startswith("tau-c undefined · 0 of 8 parsed (0%)")


@pytest.mark.parametrize(
    ("n", "parse_rate", "tau_c", "trusted"),
    [
        (600, 0.99, 0.38, True),  # every threshold met exactly: trusted
        (599, 0.99, 0.38, False),
        (600, 0.9899, 0.38, False),
        (600, 0.99, 0.3799, False),
        (600, 0.99, None, False),
    ],
)
def test_each_threshold_is_a_minimum_that_counts_when_met(
    n: int, parse_rate: float, tau_c: float | None, trusted: bool
) -> None:
    assert verdict(n, parse_rate, tau_c)[0] is trusted


def test_a_validation_run_with_a_failed_sample_is_never_trusted(tmp_path: Path) -> None:
    judge = human_judge(unparsed=0)
    thresholds = Thresholds(tau_c=-1.0, parse_rate=0.0, n=1)  # every figure passes
    log = validate(tmp_path, judge, limit_per_source=1)
    assert trust_record(Path(log.location), thresholds).trusted
    failing = human_judge(unparsed=0)
    inner = failing.reply
    assert inner is not None

    def fails_once(n: int, messages: list[Any], config: Any) -> Any:
        if n == 3:
            raise RuntimeError("the server went away")
        return inner(n, messages, config)

    failing.reply = fails_once
    log = validate(tmp_path / "failed", failing, limit_per_source=1)
    made = trust_record(Path(log.location), thresholds)
    assert not made.trusted and "1 sample(s) failed with an error" in made.reasons
