"""The gates before judging: a judge that is also a debater (or of a debater's model
family), a judge not trusted, a judge people have not checked, and a panel too small
for its quorum.

They run before any model call (the first three when asked: `strict_judge`,
`require_validated_judge`, `require_human_kappa`), so a refused run costs nothing.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from inspect_ai.model import Model

from debatebench_eval.core.errors import DebateError
from debatebench_eval.judging.families import family, same_family
from debatebench_eval.judging.options import FAMILY
from debatebench_eval.record.store import DebateRecord
from debatebench_eval.servers.probe import model_base_url
from debatebench_eval.trust.check_records import (
    CHECKS,
    FACT_CHECK,
    SENSITIVITY,
    all_checks,
    human_check,
)
from debatebench_eval.trust.digests import planted_sha256, sensitivity_sha256
from debatebench_eval.trust.records import JudgeIdentity, judge_identity, trust_status

# A debater as the gate sees it: side, model name, server URL (None: unknown).
Debater = tuple[str, str, str | None]
# strict_judge: false (warn), true (refuse the very model), "family" (its family too).
Strictness = bool | str


def debaters(record: DebateRecord) -> list[Debater]:
    assert record.run is not None
    return [(side.side, side.model, side.base_url) for side in record.run.sides]


def model_clashes(judges: list[Model], sides: list[Debater]) -> list[str]:
    """A warning for each judge that is also one of these debaters' models."""
    warnings = []
    for judge in judges:
        name, url = str(judge).rsplit("/", 1)[-1], _server(model_base_url(judge))
        for side, model, base_url in sides:
            other = _server(base_url)
            same_url = url is None or other is None or url == other
            if model.rsplit("/", 1)[-1] == name and same_url:
                warnings.append(
                    f"judge {judge} is also the {side} side's model ({model}): "
                    "a model judging its own debate is not an independent judge"
                )
    return warnings


_LOOPBACK = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}


def _server(url: str | None) -> str | None:
    """A server address to compare: every loopback name is one machine, 127.0.0.1."""
    if url is None:
        return None
    parts = urlsplit(url.rstrip("/"))
    # A label that is not itself a loopback address could be a real host's name.
    host = "127.0.0.1" if (parts.hostname or "") in _LOOPBACK else parts.hostname
    return f"{host}:{parts.port}{parts.path}"


def family_clashes(judges: list[Model], sides: list[Debater]) -> list[str]:
    """A warning for each judge of a debater's model family that is not that very model
    (which `model_clashes` names): it may prefer its own family's speeches."""
    return [
        f"judge {judge} is of the {debater[0]} side's model family ({family(str(judge))}: "
        f"{debater[1]}): it may favour its own family's speeches"
        for judge in judges
        for debater in sides
        if same_family(str(judge), debater[1]) and not model_clashes([judge], [debater])
    ]


def guard(judges: list[Model], record: DebateRecord, strict: Strictness) -> list[str]:
    """The judge ≠ debater guard: warnings, or an error before any call when strict."""
    return guard_debaters(judges, debaters(record), strict)


def guard_debaters(judges: list[Model], sides: list[Debater], strict: Strictness) -> list[str]:
    """`guard` over debaters given directly (a task whose record is not a DebateRecord)."""
    warnings = model_clashes(judges, sides)
    if warnings and strict:
        raise DebateError(f"strict_judge: {warnings[0]}; pass a different --model-role judge=...")
    if strict == FAMILY and (kin := family_clashes(judges, sides)):
        raise DebateError(
            f"strict_judge=family: {kin[0]}; pass a judge of another family with "
            "--model-role judge=..."
        )
    return warnings


def check_quorum(judges: list[Model], quorum: int | None) -> None:
    """Refuse a quorum the judge role cannot reach (checked before any debater speaks)."""
    if (quorum or 0) > len(judges):
        raise DebateError(
            f"-T judge_quorum={quorum} but the judge role has {len(judges)} model(s); "
            "bind more with --model-role judge=a,b,c"
        )


async def judge_trust(
    judges: list[Model], require: bool, human_kappa: float | None = None
) -> dict[str, Any]:
    """The judges' trust status (a panel's least trusted), or an error when one is required.

    `status` is the speech validation's (the gate `require_validated_judge` applies);
    `checks` says, for each of the four checks, whether the judge passed it (a panel
    passes a check when every judge did; else the first that did not is reported).
    `human_kappa` (`require_human_kappa`) refuses a judge whose newest human-agreement
    record has a lower kappa, or that has none."""
    identities = [await judge_identity(judge) for judge in judges]
    if human_kappa is not None:
        require_human_agreement(judges, identities, human_kappa)
    statuses = [
        (judge, trust_status(identity)) for judge, identity in zip(judges, identities, strict=True)
    ]
    judge, worst = next(((j, s) for j, s in statuses if s["status"] != "trusted"), statuses[0])
    if require and worst["status"] != "trusted":
        why = worst.get("why") or "no validation record for it"
        raise DebateError(
            f"require_validated_judge: judge {judge} is {worst['status']} ({why}); run "
            f"`inspect eval debatebench/judge_validation --model {judge}` and "
            "`debatebench-eval trust LOG` first"
        )
    return {
        "status": worst["status"],
        "record": worst.get("record"),
        "checks": panel_checks(identities),
    }


def require_human_agreement(
    judges: list[Model], identities: list[JudgeIdentity], kappa: float
) -> None:
    """Refuse the first judge without a human-agreement record of at least this kappa."""
    for judge, identity in zip(judges, identities, strict=True):
        found = human_check(identity, kappa)
        if found["status"] != "passed":
            why = found.get("why") or {
                "not_run": "no record of its agreement with people",
                "identity_unverifiable": "no identity: its server reports no model "
                "fingerprint and none was given (DEBATEBENCH_JUDGE_FINGERPRINT), so no "
                "record can be matched",
            }.get(found["status"], found["status"])
            raise DebateError(
                f"require_human_kappa={kappa}: judge {judge} has {why}; label some of its "
                "debates (`debatebench-eval annotate LOG_DIR`) and run "
                "`debatebench-eval agreement LOG_DIR LABELS...` first"
            )


def panel_checks(identities: list[JudgeIdentity]) -> dict[str, dict[str, Any]]:
    """Each check's status for a panel: passed only when every judge passed it."""
    bundled = {FACT_CHECK: planted_sha256(), SENSITIVITY: sensitivity_sha256()}
    each = [all_checks(identity, bundled) for identity in identities]
    return {
        check: next((c[check] for c in each if c[check]["status"] != "passed"), each[0][check])
        for check in CHECKS
    }
