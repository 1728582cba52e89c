"""Which Inspect model a persona speaks with, and the model role that overrides it.

A persona's `model` becomes an Inspect model name: `backend: echo` is the
built-in echo provider; a name with a `/` is already one
(`ollama/qwen3:8b`); `inherit` is the main model (`--model`); heurema's
bare names are mapped by its own patterns (`claude-*` to Anthropic, `gpt-*`
and `o<digit>*` to OpenAI, `gemini-*` to Google). Anything else (heurema's
Claude Code and Codex aliases such as `sonnet` or `codex`, a local name
without a provider) cannot be guessed and is an error, unless the
participant's model role is bound on the command line.

A participant's model role is its id with `-` as `_` (Inspect's parser turns
`--model-role final-judge=...` into `final_judge`; a `/` is kept), so
`--model-role reviewers/security=ollama/x` binds that persona. The final
step also answers to `synthesizer` or `judge`.
"""

from __future__ import annotations

import re

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.protocols.personas import Persona

INHERIT = "inherit"
ECHO_PROVIDER = "debatebench-echo"
# heurema's backends; the model name decides the provider for all but echo.
BACKENDS = ("echo", "claude-agent-acp", "codex-acp", "agy")
_PATTERNS = (
    (re.compile(r"claude-", re.IGNORECASE), "anthropic"),
    (re.compile(r"gpt-|o\d", re.IGNORECASE), "openai"),
    (re.compile(r"gemini-", re.IGNORECASE), "google"),
)
EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
FINAL_ROLES = {"synthesis": "synthesizer", "decision": "judge"}


def persona_model(persona: Persona) -> str | None:
    """The Inspect model name the persona asks for; None for the main model."""
    if persona.backend is not None and persona.backend not in BACKENDS:
        raise ConfigError(
            f"{persona.file}: backend",
            f"unknown backend {persona.backend!r}",
            f"one of {', '.join(BACKENDS)}",
        )
    if persona.backend == "echo":
        return f"{ECHO_PROVIDER}/{persona.model}"
    if persona.model == INHERIT:
        return None
    if "/" in persona.model:
        return persona.model
    for pattern, provider in _PATTERNS:
        if pattern.match(persona.model):
            return f"{provider}/{persona.model}"
    raise ConfigError(
        f"{persona.file}: model",
        f"{persona.model!r} names no Inspect model",
        "provider/model (e.g. ollama/qwen3:8b), inherit (the --model), a claude-*, gpt-*, o* or "
        "gemini-* name, or backend: echo; or bind the participant with "
        "--model-role ID=PROVIDER/MODEL",
    )


def inspect_role(participant_id: str) -> str:
    """The model role a participant answers to, as Inspect's parser spells it."""
    return participant_id.replace("-", "_")


def role_candidates(participant_id: str, final_kind: str | None = None) -> list[str]:
    """Role names that bind this participant, most specific first."""
    names = [participant_id, inspect_role(participant_id)]
    if final_kind is not None:
        names.append(FINAL_ROLES[final_kind])
    return list(dict.fromkeys(names))


def check_effort(persona: Persona) -> str:
    """A persona's effort as Inspect's reasoning_effort (only when it is sent)."""
    if persona.effort not in EFFORTS:
        raise ConfigError(
            f"{persona.file}: effort",
            f"{persona.effort!r} cannot be sent as reasoning_effort",
            f"one of {', '.join(EFFORTS)}, or leave -T send_effort false",
        )
    return persona.effort
