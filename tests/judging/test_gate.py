"""The gates before judging, each stated on plain inputs with its exact words: the
judge ≠ debater guard (a name after its provider, on one server, loopback names being
one machine), the quorum a panel can reach, and the trust stamp of a single judge and
of a panel whose judges differ."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from inspect_ai.model import Model, get_model

from debatebench_eval.core.errors import ConfigError, DebateError
from debatebench_eval.judging.gate import check_quorum, guard_debaters, judge_trust, model_clashes
from debatebench_eval.trust.check_records import (
    FACT_CHECK,
    HUMAN,
    SENSITIVITY,
    SPEECH,
    CheckRecord,
    save_check_record,
)
from debatebench_eval.trust.digests import planted_sha256 as planted_sha
from debatebench_eval.trust.records import JudgeIdentity, TrustRecord, save_record
from debatebench_eval.trust.speech_data import VENDORED_SHA256

WARNING = (
    "judge {judge} is also the {side} side's model ({model}): "
    "a model judging its own debate is not an independent judge"
)


def served(name: str, url: str) -> Model:
    return get_model(name, base_url=url, api_key="k", memoize=False)


def no_server(name: str) -> Model:
    return get_model(f"mockllm/{name}", memoize=False)


# The judge ≠ debater guard.


def test_a_judge_on_the_debaters_server_is_named_with_the_side_and_why() -> None:
    judge = served("ollama/qwen3:8b", "http://127.0.0.1:11434/v1")
    sides = [
        ("pro", "ollama/qwen3:8b", "http://localhost:11434/v1/"),
        ("con", "ollama/other", None),
    ]
    expected = WARNING.format(judge="ollama/qwen3:8b", side="pro", model="ollama/qwen3:8b")
    assert model_clashes([judge], sides) == [expected]
    with pytest.raises(DebateError) as caught:
        guard_debaters([judge], sides, strict=True)
    assert str(caught.value) == (
        f"strict_judge: {expected}; pass a different --model-role judge=..."
    )


def test_the_same_name_on_another_server_or_path_is_another_model() -> None:
    judge = served("ollama/qwen3:8b", "http://127.0.0.1:11434/v1")
    assert model_clashes([judge], [("pro", "ollama/qwen3:8b", "http://10.0.0.2:11434/v1")]) == []
    assert model_clashes([judge], [("pro", "ollama/qwen3:8b", "http://127.0.0.1:8080/v1")]) == []
    # Only slashes end a server's path: `/X` is not the server's root.
    at_x = served("openai-api/local/m", "http://127.0.0.1:8080/X")
    assert model_clashes([at_x], [("pro", "openai-api/local/m", "http://127.0.0.1:8080")]) == []


def test_a_host_named_loopback_is_not_the_local_machine() -> None:
    judge = served("ollama/qwen3:8b", "http://loopback:11434/v1")
    assert model_clashes([judge], [("pro", "ollama/qwen3:8b", "http://127.0.0.1:11434/v1")]) == []


def test_a_server_unknown_on_either_side_is_taken_to_be_the_same() -> None:
    with_url = served("ollama/qwen3:8b", "http://127.0.0.1:11434/v1")
    assert model_clashes([with_url], [("con", "ollama/qwen3:8b", None)]) == [
        WARNING.format(judge="ollama/qwen3:8b", side="con", model="ollama/qwen3:8b")
    ]
    without = no_server("qwen3:8b")
    assert model_clashes([without], [("pro", "ollama/qwen3:8b", "http://10.0.0.2:11434/v1")]) == [
        WARNING.format(judge="mockllm/qwen3:8b", side="pro", model="ollama/qwen3:8b")
    ]


def test_names_are_compared_after_the_last_slash_and_must_match() -> None:
    url = "http://127.0.0.1:8080/v1"
    judge = served("openai-api/local/qwen", url)
    sides = [
        ("pro", "ollama/qwen", url),  # provider and its sub-path differ, the model does not
        ("con", "openai-api/local/llama", url),  # the same server, another model
    ]
    assert model_clashes([judge], sides) == [
        WARNING.format(judge="openai-api/local/qwen", side="pro", model="ollama/qwen")
    ]
    # A debater recorded as a bare name (no provider) is compared by that name.
    bare = [("con", "openai-api/x/qwen", url), ("pro", "qwen", None)]
    assert model_clashes([served("ollama/qwen", url)], bare) == [
        WARNING.format(judge="ollama/qwen", side="con", model="openai-api/x/qwen"),
        WARNING.format(judge="ollama/qwen", side="pro", model="qwen"),
    ]


# The quorum.


def test_a_quorum_the_panel_reaches_passes_and_one_it_cannot_is_refused_in_words() -> None:
    two = [no_server("a"), no_server("b")]
    check_quorum(two, 2)
    check_quorum(two, None)
    check_quorum([], None)  # no quorum asked: nothing to refuse
    with pytest.raises(DebateError) as caught:
        check_quorum(two, 3)
    assert str(caught.value) == (
        "-T judge_quorum=3 but the judge role has 2 model(s); "
        "bind more with --model-role judge=a,b,c"
    )


# The trust stamp and its gate.


def speech_record(name: str, tau_c: float) -> TrustRecord:
    """A speech-validation record of the no-server judge `mockllm/name`."""
    return TrustRecord(
        judge=JudgeIdentity("mockllm", name, None), prompt="no_cot", n=631, n_scored=631,
        parse_rate=1.0, tau_c=tau_c, tau_c_ci=(tau_c - 0.05, tau_c + 0.05), tau_b=tau_c,
        source_baseline_tau_c=0.3, bias=0.0, generate_config={}, data_sha256=VENDORED_SHA256,
        log="x.eval", date="2026-11-30T00:00:00Z", trusted=tau_c >= 0.38,
    )  # fmt: skip


def fact_check_record(name: str) -> CheckRecord:
    """A passing fact-check validation record of `mockllm/name`."""
    figures = {"macro_f1": 0.7, "claim_recall": 0.9, "parse_rate": 1.0}
    return CheckRecord(FACT_CHECK, JudgeIdentity("mockllm", name, None), planted_sha(), True,
                       64, 64, figures, {}, "x.eval", "2026-11-30T00:00:00Z", True)  # fmt: skip


def refusal(judge: str, status: str, why: str) -> str:
    return (
        f"require_validated_judge: judge {judge} is {status} ({why}); run "
        f"`inspect eval debatebench/judge_validation --model {judge}` and "
        "`debatebench-eval trust LOG` first"
    )


def test_a_trusted_judge_is_stamped_with_its_record_and_each_check(
    private_trust_records: Path,
) -> None:
    speech = save_record(speech_record("gate-trusted", 0.5), private_trust_records).name
    save_check_record(fact_check_record("gate-trusted"), private_trust_records)
    fact = next(p.name for p in private_trust_records.glob("*.json") if p.name != speech)
    stamp = asyncio.run(judge_trust([no_server("gate-trusted")], require=True))
    assert stamp == {
        "status": "trusted",
        "record": speech,
        "checks": {
            SPEECH: {"status": "passed", "record": speech},
            FACT_CHECK: {"status": "passed", "record": fact},
            SENSITIVITY: {"status": "not_run", "record": None},
            HUMAN: {"status": "not_run", "record": None},
        },
    }


def test_a_panel_is_stamped_and_gated_by_its_first_untrusted_judge(
    private_trust_records: Path,
) -> None:
    save_record(speech_record("gate-good", 0.5), private_trust_records)
    weak = save_record(speech_record("gate-weak", 0.2), private_trust_records).name
    save_check_record(fact_check_record("gate-good"), private_trust_records)
    panel = [no_server("gate-good"), no_server("gate-weak"), no_server("gate-new")]
    stamp = asyncio.run(judge_trust(panel, require=False))
    assert stamp == {
        "status": "untrusted",
        "record": weak,
        "checks": {
            SPEECH: {"status": "failed", "record": weak},
            FACT_CHECK: {"status": "not_run", "record": None},
            SENSITIVITY: {"status": "not_run", "record": None},
            HUMAN: {"status": "not_run", "record": None},
        },
    }
    with pytest.raises(DebateError) as caught:
        asyncio.run(judge_trust(panel, require=True))
    why = "tau-c 0.200 is below 0.38"
    assert str(caught.value) == refusal("mockllm/gate-weak", "untrusted", why)


def test_a_judge_without_a_record_is_refused_saying_so(private_trust_records: Path) -> None:
    with pytest.raises(DebateError) as caught:
        asyncio.run(judge_trust([no_server("gate-unseen")], require=True))
    assert str(caught.value) == refusal(
        "mockllm/gate-unseen", "unvalidated", "no validation record for it"
    )


# The human-agreement gate (require_human_kappa).


def human_record(name: str, kappa: float, date: str = "2026-12-05T00:00:00Z") -> CheckRecord:
    """A human-agreement record of `mockllm/name` with this kappa."""
    return CheckRecord(HUMAN, JudgeIdentity("mockllm", name, None), "0" * 64, True, 30, 30,
                       {"kappa": kappa}, {}, "logs", date, kappa >= 0.4)  # fmt: skip


def test_require_human_kappa_passes_a_judge_whose_newest_record_reaches_it(
    private_trust_records: Path,
) -> None:
    save_check_record(human_record("gate-human", 0.3, "2026-12-01T00:00:00Z"),
                      private_trust_records)  # fmt: skip
    save_check_record(human_record("gate-human", 0.7), private_trust_records)
    stamp = asyncio.run(judge_trust([no_server("gate-human")], require=False, human_kappa=0.6))
    assert stamp["checks"][HUMAN] == {"status": "passed", "kappa": 0.7,
                                      "record": stamp["checks"][HUMAN]["record"]}  # fmt: skip
    with pytest.raises(DebateError, match=r"require_human_kappa=0.8: .* has kappa 0.700 is below"):
        asyncio.run(judge_trust([no_server("gate-human")], require=False, human_kappa=0.8))


def test_require_human_kappa_refuses_a_judge_nobody_checked(private_trust_records: Path) -> None:
    with pytest.raises(DebateError) as caught:
        asyncio.run(judge_trust([no_server("gate-unlabelled")], require=False, human_kappa=0.5))
    assert str(caught.value) == (
        "require_human_kappa=0.5: judge mockllm/gate-unlabelled has no record of its agreement "
        "with people; label some of its debates (`debatebench-eval annotate LOG_DIR`) and run "
        "`debatebench-eval agreement LOG_DIR LABELS...` first"
    )
    # Without the option nothing is required: the stamp only says it was not run.
    stamp = asyncio.run(judge_trust([no_server("gate-unlabelled")], require=False))
    assert stamp["checks"][HUMAN] == {"status": "not_run", "record": None}


@pytest.mark.parametrize("value", ["-0.1", "1.5", "yes", True])
def test_require_human_kappa_takes_a_kappa_from_0_to_1(value: object) -> None:
    from debatebench_eval.core.options import Given
    from debatebench_eval.judging.options import JudgeCalls

    def parse(given: object) -> JudgeCalls:
        return JudgeCalls.checked(Given({"require_human_kappa": given}, {}))

    assert parse("0.6").require_human_kappa == 0.6
    with pytest.raises(ConfigError, match=r"require_human_kappa: got .*; expected a Cohen's kappa"):
        parse(value)
