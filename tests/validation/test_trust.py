"""Trust records and the gate: who a judge is, what its validation showed, who may judge."""

from __future__ import annotations

import argparse
import asyncio
import locale
import socket
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import get_model

from debatebench_eval.cli.checks import add_fingerprint_option, with_given_fingerprint
from debatebench_eval.cli.main import main
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.servers.fingerprints import FINGERPRINT_VAR
from debatebench_eval.trust import records as trust
from debatebench_eval.trust.check_records import CheckRecord
from debatebench_eval.trust.records import (
    UNVERIFIABLE_WHY,
    JudgeIdentity,
    Thresholds,
    judge_identity,
    save_record,
    trust_status,
    verdict,
    with_fingerprint,
)
from debatebench_eval.validation.log_reader import read_validation_log, trust_record
from debatebench_eval.validation.report import headline, write_report

from support.runs import new_run
from support.scripted import Script, output
from support.stub_server import StubBehaviour, StubServer
from support.validation_runs import human_judge, validate
from support.validation_runs import speech_record as record

LOCAL = "http://127.0.0.1:11434/v1"


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
        identity = new_run(judge_identity(model))
    assert identity.fingerprint == "ollama:sha256:aaa" and identity.base_url == stub.base_url
    with StubServer() as plain:  # an OpenAI-compatible server that is not Ollama
        model = get_model("ollama/qwen3:8b", base_url=plain.base_url, memoize=False)
        assert new_run(judge_identity(model)).fingerprint is None


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
    checks = dict.fromkeys(("speech_validation", "fact_check_validation", "judge_sensitivity",
                            "human_agreement"), not_run)  # fmt: skip
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


@pytest.mark.command
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
    assert metrics["n_scored"] == 631 and metrics["parse_rate"] == 1
    assert -0.2 < metrics["tau_c"] < 0.2  # a judge rating at random ranks at random
    # The figures off the printed headline are computed from the samples.
    summary = read_validation_log(log.location)[1]
    assert summary.n == 631 and summary.distinct_values == 5
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
        identity = new_run(judge_identity(model))
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


# ------------------------------------------------------------ the judge's identity

# llama.cpp's /v1/models metadata, in the server's key order (not sorted).
LLAMA_META = {"vocab_type": 2, "n_params": 8190735360, "n_ctx_train": 40960}
LLAMA_FINGERPRINT = 'llama.cpp:{"n_ctx_train": 40960, "n_params": 8190735360, "vocab_type": 2}'


def identities(behaviour: StubBehaviour, names: list[str], path: str = "/v1") -> list[Any]:
    """Each named ollama/ model's identity, asked of a stub served under `path`, and the URL."""
    with StubServer(behaviour) as stub:
        url = stub.base_url.removesuffix("/v1") + path
        models = [get_model(f"ollama/{name}", base_url=url, memoize=False) for name in names]
        return [url, *(new_run(judge_identity(model)) for model in models)]


def test_samples_scored_at_once_ask_a_judges_server_once() -> None:
    behaviour = StubBehaviour()
    with StubServer(behaviour) as stub:
        model = get_model("ollama/judge", base_url=stub.base_url, memoize=False)

        async def twenty() -> list[JudgeIdentity]:
            return await asyncio.gather(*(judge_identity(model) for _ in range(20)))

        assert len(set(new_run(twenty()))) == 1
    assert sorted(behaviour.get_paths) == ["/api/tags", "/v1/models"]


def test_a_llama_cpp_judge_is_its_listed_entry_and_that_entrys_metadata() -> None:
    listed = [
        {"id": "other.gguf", "meta": {"n_params": 1}},
        "not an entry",
        {"id": "qwen3-8b.gguf", "meta": LLAMA_META},
        {"id": "empty-meta.gguf", "meta": {}},
        {"id": "odd-meta.gguf", "meta": "q4"},
    ]
    pages = {"/v1/models": (200, {"object": "list", "data": listed})}
    names = ["qwen3-8b.gguf", "empty-meta.gguf", "odd-meta.gguf", "unlisted.gguf"]
    url, found, empty, odd, unlisted = identities(StubBehaviour(pages=pages), names)
    assert found == JudgeIdentity("ollama", "qwen3-8b.gguf", url, "qwen3-8b.gguf",
                                  LLAMA_FINGERPRINT)  # fmt: skip
    # Metadata that is empty or not a mapping fingerprints nothing.
    assert empty == JudgeIdentity("ollama", "empty-meta.gguf", url, "empty-meta.gguf", None)
    assert odd == JudgeIdentity("ollama", "odd-meta.gguf", url, "odd-meta.gguf", None)
    assert unlisted == JudgeIdentity("ollama", "unlisted.gguf", url, None, None)


def test_an_ollama_judge_is_found_by_name_or_model_and_named_by_its_digest() -> None:
    tags = [
        {"name": "other:1b", "model": "other:1b", "digest": "sha256:000"},
        {"name": "qwen3:8b", "model": "qwen3:8b-q4", "digest": "sha256:aaa"},
        {"name": "alias", "model": "llama3:8b", "digest": "sha256:bbb"},
        {"name": "nodigest:1b", "model": "nodigest:1b"},
        {"name": "hf.co/org/Qwen3-8B-GGUF:Q4_K_M", "digest": "sha256:ccc"},
    ]
    behaviour = StubBehaviour(pages={"/api/tags": (200, {"models": tags})})
    names = ["qwen3:8b", "llama3:8b", "nodigest:1b", "hf.co/org/Qwen3-8B-GGUF:Q4_K_M"]
    url, by_name, by_model, no_digest, slashed = identities(behaviour, names)
    assert by_name == JudgeIdentity("ollama", "qwen3:8b", url, None, "ollama:sha256:aaa")
    assert by_model == JudgeIdentity("ollama", "llama3:8b", url, None, "ollama:sha256:bbb")
    assert no_digest == JudgeIdentity("ollama", "nodigest:1b", url, None, None)
    # A name with slashes of its own: only the first slash ends the provider.
    assert slashed == JudgeIdentity("ollama", "hf.co/org/Qwen3-8B-GGUF:Q4_K_M", url, None,
                                    "ollama:sha256:ccc")  # fmt: skip


def test_only_trailing_slashes_are_trimmed_from_the_server_url() -> None:
    # A proxy path ending in a capital X keeps it: /v1's siblings are asked under it.
    pages = {
        "/gpu/BOX/models": (200, {"data": [{"id": "qwen3:8b"}]}),
        "/gpu/BOX/api/tags": (200, {"models": [{"name": "qwen3:8b", "digest": "sha256:aaa"}]}),
    }
    url, found = identities(StubBehaviour(pages=pages), ["qwen3:8b"], path="/gpu/BOX")
    assert found == JudgeIdentity("ollama", "qwen3:8b", url, "qwen3:8b", "ollama:sha256:aaa")


def test_the_identity_is_asked_where_the_judges_own_requests_go() -> None:
    # A stray space after the base URL sends the judge's requests to /v1%20/..., which
    # no real server answers: its identity is asked there too, never at a trimmed URL
    # the judge does not talk to, so it borrows no fingerprint.
    pages = {
        "/v1/models": (200, {"data": [{"id": "qwen3:8b", "meta": LLAMA_META}]}),
        "/api/tags": (200, {"models": [{"name": "qwen3:8b", "digest": "sha256:aaa"}]}),
    }
    url, found = identities(StubBehaviour(pages=pages), ["qwen3:8b"], path="/v1 ")
    assert found == JudgeIdentity("ollama", "qwen3:8b", url, None, None)


def test_an_answer_other_than_200_is_not_read_whatever_it_holds() -> None:
    loading = {"data": [{"id": "qwen3:8b", "meta": LLAMA_META}]}
    pages = {"/v1/models": (503, loading), "/api/tags": (404, {"error": "not found"})}
    url, found = identities(StubBehaviour(pages=pages), ["qwen3:8b"])
    assert found == JudgeIdentity("ollama", "qwen3:8b", url, None, None)


def test_a_server_that_never_answers_costs_only_the_probe_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(trust, "PROBE_TIMEOUT_S", 0.2)
    with socket.socket() as silent:  # accepts connections, never replies
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
        model = get_model("ollama/qwen3:8b", base_url=url, memoize=False)
        # The bound only turns a hang into a failure; the lookup's own timeout ends it.
        found = new_run(asyncio.wait_for(judge_identity(model), 60))
    assert found == JudgeIdentity("ollama", "qwen3:8b", url)


def test_a_judge_whose_server_reports_nothing_takes_the_given_fingerprint_and_keeps_its_record(
    monkeypatch: pytest.MonkeyPatch, private_trust_records: Path
) -> None:
    # llama-cpp-python's server: no Ollama tags, no metadata in its model list.
    file_sha = "sha256:" + "ab" * 32
    with StubServer(StubBehaviour(server="llama-cpp-python")) as first:
        monkeypatch.setenv(FINGERPRINT_VAR, f"{first.base_url}={file_sha}")
        judge = get_model("ollama/smollm2", base_url=first.base_url, memoize=False)
        identity = new_run(judge_identity(judge))
    assert identity == JudgeIdentity("ollama", "smollm2", first.base_url, None, file_sha)
    save_record(record(identity, trusted=False), private_trust_records)
    # The same file served again on another port (the embedded server's next start).
    with StubServer(StubBehaviour(server="llama-cpp-python")) as again:
        judge = get_model("ollama/smollm2", base_url=again.base_url, memoize=False)
        monkeypatch.setenv(FINGERPRINT_VAR, "ab" * 32)  # a bare sha256sum, for every server
        assert trust_status(new_run(judge_identity(judge)))["status"] == "untrusted"
        monkeypatch.setenv(FINGERPRINT_VAR, "sha256:" + "cd" * 32)  # another file
        assert trust_status(new_run(judge_identity(judge)))["status"] == "unvalidated"
        monkeypatch.delenv(FINGERPRINT_VAR)
        assert trust_status(new_run(judge_identity(judge)))["status"] == "identity_unverifiable"


def test_a_servers_own_fingerprint_is_never_replaced_by_a_given_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(FINGERPRINT_VAR, "sha256:" + "ab" * 32)
    _, ollama = identities(StubBehaviour(digests={"qwen3:8b": "sha256:aaa"}), ["qwen3:8b"])
    assert ollama.fingerprint == "ollama:sha256:aaa"
    pages = {"/v1/models": (200, {"data": [{"id": "qwen3-8b.gguf", "meta": LLAMA_META}]})}
    _, llama = identities(StubBehaviour(pages=pages), ["qwen3-8b.gguf"])
    assert llama.fingerprint == LLAMA_FINGERPRINT


def test_a_fingerprint_given_to_a_command_fills_in_only_what_the_run_could_not_tell() -> None:
    file_sha = "sha256:" + "ab" * 32
    unknown = JudgeIdentity("ollama", "smollm2", LOCAL)
    assert with_fingerprint(unknown, "AB" * 32).fingerprint == file_sha
    assert with_fingerprint(unknown, None) is unknown
    known = replace(unknown, fingerprint=file_sha)
    assert with_fingerprint(known, file_sha) == known
    with pytest.raises(ConfigError, match=r"was identified as sha256:abab.*; expected the fing"):
        with_fingerprint(known, "sha256:" + "cd" * 32)
    with pytest.raises(ConfigError, match="hosted provider's"):
        with_fingerprint(JudgeIdentity("openai", "gpt-4o", None), file_sha)
    # The debate checks' records and the speech records take it alike, from the option.
    parser = argparse.ArgumentParser()
    add_fingerprint_option(parser)
    given = parser.parse_args(["--judge-fingerprint", "ab" * 32])
    assert with_given_fingerprint(record(unknown), given).judge == known
    check = CheckRecord("judge_sensitivity", unknown, None, True, 1, 1, {}, {}, "x", "d", True)
    assert with_given_fingerprint(check, given).judge == known
    assert with_given_fingerprint(check, argparse.Namespace()).judge == unknown


def test_a_hosted_provider_at_its_own_address_is_named_by_provider_and_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    model = get_model("openai/gpt-4o", memoize=False)
    assert new_run(judge_identity(model)) == JudgeIdentity("openai", "gpt-4o", None)


# ------------------------------------------------------------ the gate's rules


def test_every_missed_threshold_is_named_with_its_figure() -> None:
    assert verdict(0, 0.0, None) == (False, [
        "tau-c is undefined (no reply parsed), so it cannot reach 0.38",
        "parse rate 0.000 is below 0.99",
        "0 speeches scored, fewer than 600",
    ])  # fmt: skip


def test_each_status_says_exactly_what_decided_it(private_trust_records: Path) -> None:
    local = JudgeIdentity("ollama", "qwen3:8b", LOCAL, "qwen3:8b", "ollama:sha256:aaa")
    assert trust_status(replace(local, fingerprint=None)) == {
        "status": "identity_unverifiable",
        "record": None,
        "why": UNVERIFIABLE_WHY,
    }
    assert trust_status(local) == {"status": "unvalidated", "record": None}
    good = save_record(record(local), private_trust_records)
    assert trust_status(local) == {"status": "trusted", "record": good.name, "tau_c": 0.55}
    failed = ["1 sample(s) failed with an error"]
    bad = replace(record(local), tau_c=0.1, data_sha256="f" * 64, reasons=failed,
                  date="2026-12-01T00:00:00Z")  # fmt: skip
    written = save_record(bad, private_trust_records)
    assert trust_status(local) == {
        "status": "untrusted",
        "record": written.name,
        "why": "tau-c 0.100 is below 0.38; validated on other data than the vendored copy; "
        "1 sample(s) failed with an error",
    }


def test_the_newest_record_decides_whatever_its_file_is_called(
    private_trust_records: Path,
) -> None:
    judge = JudgeIdentity("openai", "gpt-4o", None)
    older = save_record(record(judge), private_trust_records)
    older.rename(private_trust_records / "z-older.json")
    newer = replace(record(judge, trusted=False), date="2026-12-01T00:00:00Z")
    save_record(newer, private_trust_records).rename(private_trust_records / "a-newer.json")
    assert trust_status(judge) == {"status": "untrusted", "record": "a-newer.json", "why": "low"}


def test_a_hosted_record_does_not_vouch_for_a_local_model_of_the_same_name(
    private_trust_records: Path,
) -> None:
    local = JudgeIdentity("ollama", "qwen3:8b", LOCAL, "qwen3:8b", "ollama:sha256:aaa")
    save_record(record(replace(local, base_url=None, fingerprint=None)), private_trust_records)
    assert trust_status(local) == {"status": "unvalidated", "record": None}


def test_debate_check_records_beside_a_speech_record_are_passed_over(
    private_trust_records: Path,
) -> None:
    from debatebench_eval.trust.check_records import FACT_CHECK, CheckRecord

    judge = JudgeIdentity("openai", "gpt-4o", None)
    check = CheckRecord(
        check=FACT_CHECK, judge=judge, data_sha256=None, complete=True, n=1, n_scored=1,
        figures={}, generate_config={}, log="x.eval", date="2026-11-30T00:00:00Z", passed=True,
    )  # fmt: skip
    private_trust_records.mkdir(parents=True)
    (private_trust_records / "a-check.json").write_text(check.to_json())  # sorted first
    speech = save_record(record(judge), private_trust_records)
    assert trust_status(judge) == {"status": "trusted", "record": speech.name, "tau_c": 0.55}


@pytest.fixture
def ascii_locale() -> Iterator[None]:
    """The platform's text encoding is ASCII (as cp1252 is on Windows: not UTF-8)."""
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        yield
    finally:
        locale.setlocale(locale.LC_CTYPE, before)


def test_records_are_read_as_utf8_whatever_the_platforms_encoding(
    private_trust_records: Path, ascii_locale: None
) -> None:
    judge = JudgeIdentity("openai", "gpt-4o", None)
    written = save_record(replace(record(judge), log="débats/validation.eval"),
                          private_trust_records)  # fmt: skip
    assert "é" in written.read_text("utf-8")
    assert trust_status(judge) == {"status": "trusted", "record": written.name, "tau_c": 0.55}


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG data folder is Linux's")
def test_records_go_to_the_users_data_folder_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(trust.TRUST_DIR_VAR, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    judges = tmp_path / "debatebench-eval" / "judges"
    assert trust.user_trust_dir() == judges
    judge = JudgeIdentity("openai", "gpt-4o", None)
    assert save_record(record(judge)).parent == judges
    assert trust_status(judge)["status"] == "trusted"
