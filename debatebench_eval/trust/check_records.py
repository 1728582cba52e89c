"""Trust records of the debate checks, and what each judging score's stamp says of them.

A judge is checked four ways: speech validation (`judge_validation`, tau-c
against human ratings; its records are `trust.TrustRecord`), the fact-check
validation (planted claims with known verdicts), the judge sensitivity
check (debates with one side made worse) and human agreement (the user's own
people labelled some of the user's own debates; Cohen's kappa of the judge's
winner against theirs). A record of a debate check is written by
`debatebench-eval trust LOG` from the check's log (human agreement:
`debatebench-eval agreement LOG_DIR LABELS...`) into the same folder as the
speech records, with the same judge identity, and the gate reads it by the
same rules: the newest record of the same model decides, the default
thresholds and the bundled data are applied whatever the record was written
with, and a server that reports no fingerprint can pass nothing. Human
agreement has no bundled data (the debates are the user's); its threshold can
be raised per run (`require_human_kappa`).

The thresholds (docs/validation.md, "Thresholds", says why these):
- fact-check validation: macro-F1 at least 0.60, claim recall at least 0.80,
  parse rate at least 0.95, on the whole bundled set;
- judge sensitivity: detection at least 0.80 (the degraded side fell on every
  stated dimension and lost), parse rate at least 0.95, on the whole set;
- human agreement: kappa at least 0.40 (the lower edge of "moderate" agreement in
  Landis and Koch's reading of kappa; the judges of "Reliability without
  Validity", arXiv 2606.19544, mostly fall below it once chance is corrected).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from debatebench_eval.trust.records import (
    JudgeIdentity,
    published_trust_dir,
    trust_status,
    user_trust_dir,
)

SPEECH = "speech_validation"
FACT_CHECK = "fact_check_validation"
SENSITIVITY = "judge_sensitivity"
HUMAN = "human_agreement"
CHECKS = (SPEECH, FACT_CHECK, SENSITIVITY, HUMAN)
CHECK_SCHEMA_VERSION = 1
# The headline figure each check's threshold applies to.
HEADLINE = {FACT_CHECK: "macro_f1", SENSITIVITY: "sensitivity", HUMAN: "kappa"}
MIN_HUMAN_KAPPA = 0.40
DEFAULT_LIMITS: dict[str, dict[str, float]] = {
    FACT_CHECK: {"macro_f1": 0.60, "claim_recall": 0.80, "parse_rate": 0.95},
    SENSITIVITY: {"sensitivity": 0.80, "parse_rate": 0.95},
    HUMAN: {"kappa": MIN_HUMAN_KAPPA},
}
_SPEECH_STATES = {"trusted": "passed", "untrusted": "failed", "unvalidated": "not_run"}


@dataclass(frozen=True)
class CheckRecord:
    """What one run of a debate check showed about one judge."""

    check: str
    judge: JudgeIdentity
    data_sha256: str | None
    complete: bool  # the whole bundled set was judged, not a part of it
    n: int
    n_scored: int
    figures: dict[str, float | None]
    generate_config: dict[str, Any]
    log: str
    date: str
    passed: bool
    reasons: list[str] = field(default_factory=list)
    thresholds: dict[str, float] = field(default_factory=dict)
    schema_version: int = CHECK_SCHEMA_VERSION

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, ensure_ascii=False, allow_nan=False) + "\n"

    @staticmethod
    def from_json(data: dict[str, Any]) -> CheckRecord:
        return CheckRecord(**{**data, "judge": JudgeIdentity(**data["judge"])})


def check_verdict(
    check: str,
    figures: dict[str, float | None],
    *,
    complete: bool,
    failed_samples: int = 0,
    limits: dict[str, float] | None = None,
) -> tuple[bool, list[str]]:
    """Passed or not, and every threshold missed."""
    limits = limits or DEFAULT_LIMITS[check]
    reasons = []
    for name, minimum in limits.items():
        value = figures.get(name)
        if value is None:
            reasons.append(f"{name} is undefined (nothing was judged)")
        elif value < minimum:
            reasons.append(f"{name} {value:.3f} is below {minimum}")
    if not complete:
        reasons.append("only part of the bundled set was judged")
    if failed_samples:
        reasons.append(f"{failed_samples} sample(s) failed with an error")
    return not reasons, reasons


def save_check_record(record: CheckRecord, folder: Path | None = None) -> Path:
    folder = folder or user_trust_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{record.judge.provider}-{record.judge.model}-{record.check}-{record.date}"
    path = folder / (re.sub(r"[/:]", "_", stem) + ".json")
    path.write_text(record.to_json(), encoding="utf-8")
    return path


def load_check_records(check: str) -> list[tuple[Path, CheckRecord]]:
    found = []
    for folder in (user_trust_dir(), published_trust_dir()):
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                data = json.loads(path.read_text("utf-8"))
                if isinstance(data, dict) and data.get("check") == check:
                    found.append((path, CheckRecord.from_json(data)))
            except (ValueError, TypeError, KeyError) as exc:
                raise ValueError(f"{path}: not a trust record ({exc})") from None
    return found


def newest_record(identity: JudgeIdentity, check: str) -> tuple[Path, CheckRecord] | dict[str, Any]:
    """The newest record of this check for the same model, or the status saying why
    there is none (identity_unverifiable, not_run)."""
    if not identity.verifiable:
        return {"status": "identity_unverifiable", "record": None}
    matches = [(p, r) for p, r in load_check_records(check) if r.judge.same_model(identity)]
    if not matches:
        return {"status": "not_run", "record": None}
    return max(matches, key=lambda match: match[1].date)


def check_status(identity: JudgeIdentity, check: str, bundled_sha256: str) -> dict[str, Any]:
    """One debate check's status for a judge: passed, failed, not_run or
    identity_unverifiable, with the record that decided it."""
    found = newest_record(identity, check)
    if isinstance(found, dict):
        return found
    path, record = found
    passed, reasons = check_verdict(check, record.figures, complete=record.complete)
    if record.data_sha256 != bundled_sha256:
        passed, reasons = False, [*reasons, "checked on other data than the bundled set"]
    if record.reasons:
        passed, reasons = False, [*reasons, *record.reasons]
    status = {"status": "passed" if passed else "failed", "record": path.name}
    return status if passed else {**status, "why": "; ".join(dict.fromkeys(reasons))}


def human_check(identity: JudgeIdentity, min_kappa: float | None = None) -> dict[str, Any]:
    """The human-agreement check's status for a judge, against the default kappa or the
    one a run asks for; with the kappa of the record that decided it. There is no
    bundled set: the labels are the user's own."""
    found = newest_record(identity, HUMAN)
    if isinstance(found, dict):
        return found
    path, record = found
    limit = MIN_HUMAN_KAPPA if min_kappa is None else min_kappa
    passed, reasons = check_verdict(HUMAN, record.figures, complete=True, limits={"kappa": limit})
    status = {"status": "passed" if passed else "failed", "record": path.name,
              "kappa": record.figures.get("kappa")}  # fmt: skip
    return status if passed else {**status, "why": "; ".join(reasons)}


def speech_check(identity: JudgeIdentity) -> dict[str, Any]:
    """The speech validation's status in the checks' words."""
    status = trust_status(identity)
    state = _SPEECH_STATES.get(status["status"], status["status"])
    return {"status": state, "record": status.get("record")}


def all_checks(identity: JudgeIdentity, bundled: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The four checks' statuses for one judge; `bundled` holds each bundled debate
    check's data sha256."""
    checks = {SPEECH: speech_check(identity)}
    for check in (FACT_CHECK, SENSITIVITY):
        checks[check] = check_status(identity, check, bundled[check])
    checks[HUMAN] = human_check(identity)
    return checks
