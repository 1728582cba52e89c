"""judge_validation runs with a scripted judge that rates speeches as humans did."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.trust.records import JudgeIdentity, TrustRecord
from debatebench_eval.trust.speech_data import VENDORED_SHA256, load_speeches
from debatebench_eval.validation.speech_task import judge_validation

from support.scripted import Script, output


def human_judge(unparsed: int = 1) -> Script:
    """Rates each speech by its rounded human mean; the first `unparsed` replies are prose."""
    means = {s.text: s.human_mean for s in load_speeches().speeches}

    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        if n <= unparsed:
            return output("judge", "I would rather not say.")
        prompt = str(messages[-1].content)
        text = prompt.split("<speech>\n", 1)[1].split("\n</speech>", 1)[0]
        return output("judge", f"<score>{min(5, max(1, round(means[text])))}</score>")

    return Script("judge", reply=reply)


def validate(tmp_path: Path, judge: Script, **args: Any) -> EvalLog:
    logs = eval(
        judge_validation(**args), model=judge.model(), log_dir=str(tmp_path / "logs"),
        display="none", max_connections=1,
    )  # fmt: skip
    return logs[0]


def speech_record(identity: JudgeIdentity, trusted: bool = True) -> TrustRecord:
    """A speech-validation trust record for `identity` that passes the gate (or fails it)."""
    return TrustRecord(
        judge=identity, prompt="no_cot", n=631, n_scored=631, parse_rate=1.0, tau_c=0.55,
        tau_c_ci=(0.5, 0.6), tau_b=0.52, source_baseline_tau_c=0.3, bias=-0.7,
        generate_config={"temperature": 0.01}, data_sha256=VENDORED_SHA256, log="x.eval",
        date="2026-11-30T00:00:00Z", trusted=trusted, reasons=[] if trusted else ["low"],
    )  # fmt: skip
