"""Judge trust records: what a validation run showed, and the gate that reads them.

A record is written from a `judge_validation` log (`debatebench-eval trust
LOG`). It names the judge as exactly as the server allows: provider, model
name, server URL (without credentials), the id the server reports, and a
fingerprint — Ollama's model digest, or llama.cpp's model metadata — so a
small model served under a big model's name does not inherit its record.
Where the server reports neither (llama-cpp-python's), the fingerprint is the
one given for it (servers.fingerprints: DEBATEBENCH_JUDGE_FINGERPRINT, which
the embedded server sets to its model file's sha256, or `--judge-fingerprint`
where a command takes a judge). A judge on a server of its own with no
fingerprint at all cannot be matched to a record: its status is
`identity_unverifiable`, never trusted. Hosted providers (no custom server)
are identified by provider and model name.

Trusted means: tau-c at least 0.38 (debatebench's threshold, fixed before its
runs), parse rate at least 0.99 and at least 600 speeches scored.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import platformdirs
from inspect_ai.model import Model

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.resources import data_dir
from debatebench_eval.core.run_memory import RunMemory
from debatebench_eval.servers.fingerprints import given_fingerprint, normalise
from debatebench_eval.servers.probe import (
    PROBE_TIMEOUT_S,
    http_client,
    loop_lock,
    model_base_url,
)
from debatebench_eval.trust.speech_data import VENDORED_SHA256

TRUST_DIR_VAR = "DEBATEBENCH_EVAL_TRUST_DIR"
RECORD_SCHEMA_VERSION = 1
MIN_TAU_C = 0.38
MIN_PARSE_RATE = 0.99
MIN_SCORED = 600
# What `trust` prints for a judge with no fingerprint, and what to do about it.
NO_FINGERPRINT = "none reported by the server and none given (--judge-fingerprint)"
UNVERIFIABLE_WHY = (
    "its server reports no model fingerprint and none was given, so no record can be "
    "matched: set DEBATEBENCH_JUDGE_FINGERPRINT to the model file's sha256"
)


@dataclass(frozen=True)
class JudgeIdentity:
    provider: str
    model: str
    base_url: str | None
    server_model_id: str | None = None
    fingerprint: str | None = None

    @property
    def verifiable(self) -> bool:
        """A hosted provider's name is its identity; a local server needs a fingerprint."""
        return self.base_url is None or self.fingerprint is not None

    def same_model(self, other: JudgeIdentity) -> bool:
        if (self.provider, self.model) != (other.provider, other.model):
            return False
        if self.base_url is None and other.base_url is None:
            return True
        return self.fingerprint is not None and self.fingerprint == other.fingerprint


@dataclass(frozen=True)
class TrustRecord:
    judge: JudgeIdentity
    prompt: str
    n: int
    n_scored: int
    parse_rate: float
    tau_c: float | None
    tau_c_ci: tuple[float, float] | None
    tau_b: float | None
    source_baseline_tau_c: float | None
    bias: float | None
    generate_config: dict[str, Any]
    data_sha256: str | None
    log: str
    date: str
    trusted: bool
    reasons: list[str] = field(default_factory=list)
    schema_version: int = RECORD_SCHEMA_VERSION
    thresholds: dict[str, float] = field(default_factory=lambda: asdict(Thresholds()))

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, ensure_ascii=False, allow_nan=False) + "\n"

    @staticmethod
    def from_json(data: dict[str, Any]) -> TrustRecord:
        fields = dict(data)
        fields["judge"] = JudgeIdentity(**fields["judge"])
        if fields.get("tau_c_ci") is not None:
            fields["tau_c_ci"] = tuple(fields["tau_c_ci"])
        return TrustRecord(**fields)


@dataclass(frozen=True)
class Thresholds:
    """What trusted means; the defaults are debatebench's, fixed before its runs."""

    tau_c: float = MIN_TAU_C
    parse_rate: float = MIN_PARSE_RATE
    n: int = MIN_SCORED


def verdict(
    n_scored: int, parse_rate: float, tau_c: float | None, limits: Thresholds = Thresholds()
) -> tuple[bool, list[str]]:
    """Trusted or not, and every threshold missed."""
    reasons = []
    if tau_c is None:
        reasons.append(f"tau-c is {undefined_tau(n_scored)}, so it cannot reach {limits.tau_c}")
    elif tau_c < limits.tau_c:
        reasons.append(f"tau-c {tau_c:.3f} is below {limits.tau_c}")
    if parse_rate < limits.parse_rate:
        reasons.append(f"parse rate {parse_rate:.3f} is below {limits.parse_rate}")
    if n_scored < limits.n:
        reasons.append(f"{n_scored} speeches scored, fewer than {limits.n}")
    return not reasons, reasons


def undefined_tau(n_scored: int) -> str:
    """Why tau-c has no value, in words."""
    if n_scored == 0:
        return "undefined (no reply parsed)"
    return "undefined (a constant judge: every parsed reply gave the same score)"


def summary_lines(record: TrustRecord) -> list[str]:
    """What `debatebench-eval trust` prints of a record, every figure readable."""
    judge = record.judge
    if record.tau_c is None:
        tau = f"tau-c {undefined_tau(record.n_scored)}"
    else:
        ci = record.tau_c_ci
        interval = (
            f"95% CI [{ci[0]:+.3f}, {ci[1]:+.3f}]"
            if ci
            else "no interval (too few, or too nearly constant, scores)"
        )
        tau = f"tau-c {record.tau_c:+.3f}, {interval}"
    tau_b = "undefined" if record.tau_b is None else f"{record.tau_b:+.3f}"
    verdict = "TRUSTED" if record.trusted else "NOT TRUSTED: " + "; ".join(record.reasons)
    return [
        f"judge {judge.provider}/{judge.model} at {judge.base_url or judge.provider}",
        f"fingerprint: {judge.fingerprint or NO_FINGERPRINT}",
        f"{tau}; tau-b {tau_b}; parse rate {record.parse_rate:.3f}, "
        f"{record.n_scored}/{record.n} scored",
        verdict,
    ]


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# ------------------------------------------------------------------ identity


# Asked once per run (core.run_memory): a server's model may change between runs.
_identities: RunMemory[str, JudgeIdentity] = RunMemory()


async def judge_identity(model: Model) -> JudgeIdentity:
    """Who a judge model is, asked of its server once per run."""
    key = f"{model}@{model_base_url(model)}"
    identities = _identities.here()
    if key not in identities:
        async with loop_lock(f"identity {key}"):  # samples scored at once ask once
            if key not in identities:
                identities[key] = await _ask_server(model)
    return identities[key]


async def _ask_server(model: Model) -> JudgeIdentity:
    provider, name = str(model).split("/", 1) if "/" in str(model) else ("", str(model))
    url = model_base_url(model)
    if url is None or _hosted(model, url):
        return JudgeIdentity(provider, name, None)
    async with http_client(PROBE_TIMEOUT_S) as client:
        listed = await _get_json(client, url.rstrip("/") + "/models")
        entry = _listed_entry(listed, model.name)
        tags = await _get_json(client, url.rstrip("/").removesuffix("/v1") + "/api/tags")
    # The server's own report first: a given fingerprint never relabels a model.
    fingerprint = (
        _ollama_digest(tags, model.name) or _llama_cpp_meta(entry) or given_fingerprint(url)
    )
    server_id = str(entry["id"]) if entry else None
    return JudgeIdentity(provider, name, url, server_id, fingerprint)


def with_fingerprint(identity: JudgeIdentity, given: str | None) -> JudgeIdentity:
    """The identity with the fingerprint a command was given (`--judge-fingerprint`),
    for a judge whose server reported none; refused for a hosted judge (its name is its
    identity) and for one identified otherwise during its run."""
    if given is None:
        return identity
    fingerprint = normalise(given, "--judge-fingerprint")
    judge = f"judge {identity.provider}/{identity.model}"
    if identity.base_url is None:
        raise ConfigError(
            "--judge-fingerprint", f"{judge} is a hosted provider's, named by its provider",
            "no fingerprint: it is for a judge on a model server of your own",
        )  # fmt: skip
    if identity.fingerprint not in (None, fingerprint):
        raise ConfigError(
            "--judge-fingerprint",
            f"{fingerprint}, but {judge} at {identity.base_url} was identified as "
            f"{identity.fingerprint}",
            "the fingerprint its server reported, or none (a given one fills in only "
            "where the server reports none)",
        )
    return replace(identity, fingerprint=fingerprint)


def _hosted(model: Model, url: str) -> bool:
    """A provider's own API at its own address: there the name is the identity. The same
    provider class pointed at another URL (OPENAI_BASE_URL, --model-base-url) is self-served."""
    host = (urlsplit(url).hostname or "").lower()
    return model.api.__class__.__name__ in _HOSTED_APIS and host.endswith(_HOSTED_DOMAINS)


_HOSTED_APIS = frozenset(
    {"OpenAIAPI", "AnthropicAPI", "GoogleGenAIAPI", "MistralAPI", "GroqAPI", "GrokAPI"}
)
_HOSTED_DOMAINS = (
    "api.openai.com", "api.anthropic.com", "googleapis.com", "api.mistral.ai",
    "api.groq.com", "api.x.ai",
)  # fmt: skip


async def _get_json(client: httpx.AsyncClient, url: str) -> Any:
    try:
        response = await client.get(url)
        return response.json() if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None


def _listed_entry(listed: Any, name: str) -> dict[str, Any] | None:
    entries = listed.get("data") if isinstance(listed, dict) else None
    for entry in entries or []:
        if isinstance(entry, dict) and entry.get("id") == name:
            return entry
    return None


def _ollama_digest(tags: Any, name: str) -> str | None:
    models = tags.get("models") if isinstance(tags, dict) else None
    for entry in models or []:
        if isinstance(entry, dict) and name in (entry.get("name"), entry.get("model")):
            digest = entry.get("digest")
            return f"ollama:{digest}" if digest else None
    return None


def _llama_cpp_meta(entry: dict[str, Any] | None) -> str | None:
    meta = entry.get("meta") if entry else None
    if not isinstance(meta, dict) or not meta:
        return None
    return "llama.cpp:" + json.dumps(meta, sort_keys=True)


# ------------------------------------------------------------------ records


def user_trust_dir() -> Path:
    override = os.environ.get(TRUST_DIR_VAR)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir("debatebench-eval")) / "judges"


def published_trust_dir() -> Path:
    return data_dir("validation") / "judges"


def load_records() -> list[tuple[Path, TrustRecord]]:
    found = []
    for folder in (user_trust_dir(), published_trust_dir()):
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                data = json.loads(path.read_text("utf-8"))
                if isinstance(data, dict) and "check" in data:
                    continue  # a debate check's record (check_records reads those)
                found.append((path, TrustRecord.from_json(data)))
            except (ValueError, TypeError, KeyError) as exc:
                raise ValueError(f"{path}: not a trust record ({exc})") from None
    return found


def save_record(record: TrustRecord, folder: Path | None = None) -> Path:
    folder = folder or user_trust_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{record.judge.provider}-{record.judge.model}-{record.prompt}-{record.date}"
    path = folder / (stem.replace("/", "_").replace(":", "_") + ".json")
    path.write_text(record.to_json(), encoding="utf-8")
    return path


def trust_status(identity: JudgeIdentity) -> dict[str, Any]:
    """The judge's status from its newest matching record, judged by the gate's own rules:
    the default thresholds and the vendored data, whatever the record was written with."""
    if not identity.verifiable:
        why = UNVERIFIABLE_WHY
        return {"status": "identity_unverifiable", "record": None, "why": why}
    matches = [(p, r) for p, r in load_records() if r.judge.same_model(identity)]
    if not matches:
        return {"status": "unvalidated", "record": None}
    path, record = max(matches, key=lambda match: match[1].date)
    trusted, reasons = verdict(record.n_scored, record.parse_rate, record.tau_c)
    if record.data_sha256 != VENDORED_SHA256:
        trusted, reasons = False, [*reasons, "validated on other data than the vendored copy"]
    if record.reasons:
        trusted, reasons = False, [*reasons, *record.reasons]
    if trusted:
        return {"status": "trusted", "record": path.name, "tau_c": record.tau_c}
    return {"status": "untrusted", "record": path.name, "why": "; ".join(dict.fromkeys(reasons))}
