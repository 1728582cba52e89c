"""Refuse a call whose prompt plus budget cannot fit the model's context window.

A local server handed more than its context rejects the request only after
reading it (llama.cpp), or truncates the prompt silently (Ollama, by default):
either way the call is lost or quietly wrong, and a judge's call is refused
only after the whole debate was spoken. So every call a run will make is
checked before its first call (`check_plan`): each at its budget, with the
text not yet written (earlier turns) at its worst. With `-T context_window=N`
each debater prompt is also counted again before its own call (`check_fits`).

The window is `-T context_window` when given, else what the server reports:
llama.cpp's server says its per-slot context in `/props`. llama-cpp-python's
server reports its context nowhere in its HTTP API, and Ollama's depends on
each request, so for them the check needs `-T context_window`.

Counting needs a server that exposes its tokenizer: llama-cpp-python's
`/extras/tokenize/count` (the embedded runtime) and llama.cpp's `/tokenize`
are supported. The count covers the message text, joined as one string; the
chat template's role markers are an allowance per message, not a count, so
the figure is close, not exact.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
from inspect_ai.model import ChatMessage, Model

from debatebench_eval.core.errors import DebateError, call_failure
from debatebench_eval.core.run_memory import RunMemory
from debatebench_eval.servers.probe import PROBE_TIMEOUT_S, http_client, loop_lock, model_base_url

# Tokens a chat template adds around each message (ChatML, used by SmolLM2 and
# Qwen, adds 5), and around the reply it opens; an allowance, not a count.
TEMPLATE_TOKENS_PER_MESSAGE = 8
TEMPLATE_TOKENS_FOR_REPLY = 4


@dataclass(frozen=True)
class _Endpoint:
    path: str
    body: Callable[[str], dict[str, Any]]
    count: Callable[[Any], int]


_ENDPOINTS = (
    _Endpoint("/extras/tokenize/count", lambda text: {"input": text}, lambda r: int(r["count"])),
    _Endpoint("/tokenize", lambda text: {"content": text}, lambda r: len(r["tokens"])),
)
# No such endpoint, or not the request shape it takes: another server's path.
_NOT_THIS_ENDPOINT = frozenset({400, 404, 405, 422})
# What a run remembers (core.run_memory). Server root -> the endpoint that
# answered there, so later turns ask it first.
_known: RunMemory[str, _Endpoint] = RunMemory()
# Server root -> the context it reports (None: it reports none).
_reported: RunMemory[str, int | None] = RunMemory()
# (server root, model, text digest) -> its token count: every sample of a run
# plans the same calls, and their fixed text is counted once.
_counts: RunMemory[tuple[str, str, str], int] = RunMemory()


@dataclass(frozen=True)
class PlannedCall:
    """One call a run will make, as far as it is known before the first call.

    `messages` hold the text known now; `unwritten` is the most tokens of
    text the call will also carry that is not written yet (earlier turns, each
    at its budget). `floor` marks messages that are only part of the prompt
    (the rest is found during the run), so the figure is a lower bound.
    """

    where: str
    model: Model
    messages: Sequence[ChatMessage]
    budget: int
    option: str  # the option that lowers the budget: "-T budget", "-T judge_budget"
    unwritten: int = 0
    floor: bool = False
    # The check was asked for this call (a debater's turn under -T context_window):
    # a server that cannot count its tokens is then an error, not a skip.
    required: bool = False


@dataclass(frozen=True)
class _Need:
    call: PlannedCall
    prompt: int
    template: int
    window: int
    source: str

    @property
    def total(self) -> int:
        return self.prompt + self.template + self.call.unwritten + self.call.budget


async def check_plan(calls: Sequence[PlannedCall], given: int | None, timeout: float) -> None:
    """Raise DebateError, before any call, if one of `calls` cannot fit its model's
    context: `given` (-T context_window) when set, else what its server reports.

    A call whose window is unknown, or whose server counts no tokens (unless the
    check was asked for it), is not checked.
    """
    needs = [need for call in calls if (need := await _need(call, given, timeout)) is not None]
    over = [need for need in needs if need.total > need.window]
    if over:
        raise DebateError(_overflow_message(over, len(calls)))


async def _need(call: PlannedCall, given: int | None, timeout: float) -> _Need | None:
    url = model_base_url(call.model)
    if url is None:
        return None  # a hosted provider's model: nothing to ask, nothing known
    window = given if given is not None else await reported_context(call.model)
    if window is None:
        return None
    text = "\n".join(message.text for message in call.messages)
    try:
        prompt = await _count_once(call.model, text, timeout)
    except DebateError as exc:
        if call.required:
            raise DebateError(f"{call.where}: {exc}") from exc
        return None  # a server that counts no tokens: the call cannot be checked
    template = TEMPLATE_TOKENS_PER_MESSAGE * len(call.messages) + TEMPLATE_TOKENS_FOR_REPLY
    source = "-T context_window" if given is not None else f"reported by the server at {url}"
    return _Need(call, prompt, template, window, source)


def _overflow_message(over: list[_Need], planned: int) -> str:
    """The first call that cannot fit, in figures, and how many others cannot."""
    first = over[0]
    call = first.call
    least = "at least " if call.floor else ""
    known = "part of its prompt" if call.floor else "its prompt as known now"
    unwritten = (
        f", {call.unwritten} for turns not yet spoken (each at its budget)"
        if call.unwritten
        else ""
    )
    worst = max(over, key=lambda need: need.total - need.window)
    worse = (
        f" (the most, {worst.call.where}, needs about {worst.total})" if worst is not first else ""
    )
    options = " or ".join(dict.fromkeys(need.call.option for need in over))
    # Fewer phases mean fewer earlier turns in a prompt: a help only where there are some.
    if any(need.call.unwritten for need in over):
        options += ", or shorten the phases"
    return (
        f"{call.where} cannot fit the context window: at worst it needs {least}about "
        f"{first.total} tokens, and the window is {first.window} ({first.source}). This is "
        f"an estimate, made before any call: {first.prompt} tokens for {known} (counted by "
        f"the server's tokenizer){unwritten}, {first.template} for the chat template and "
        f"the call's budget of {call.budget}. {len(over)} of {planned} planned calls do not "
        f"fit{worse}, so nothing was called: lower {options}"
    )


async def reported_context(model: Model) -> int | None:
    """The context per request that the model's server reports (llama.cpp's
    `/props`), else None. Asked once per server and run."""
    url = model_base_url(model)
    if url is None:
        return None
    root = url.removesuffix("/v1")
    reported = _reported.here()
    if root not in reported:
        async with loop_lock(f"context {root}"):
            if root not in reported:
                reported[root] = await _ask_context(root)
    return reported[root]


async def _ask_context(root: str) -> int | None:
    try:
        async with http_client(PROBE_TIMEOUT_S) as client:
            response = await client.get(f"{root}/props")
        props = response.json() if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None
    if not isinstance(props, dict):
        return None
    # The slot's context: what one request can use (the server's total is
    # shared among its parallel slots).
    settings = props.get("default_generation_settings")
    for figure in ((settings or {}).get("n_ctx") if isinstance(settings, dict) else None,
                   props.get("n_ctx")):  # fmt: skip
        if isinstance(figure, int) and not isinstance(figure, bool) and figure > 0:
            return figure
    return None


async def _count_once(model: Model, text: str, timeout: float) -> int:
    key = (str(model_base_url(model)), model.name, hashlib.sha256(text.encode()).hexdigest())
    counts = _counts.here()
    if key not in counts:
        counts[key] = await count_tokens(model, text, timeout)
    return counts[key]


async def check_fits(
    model: Model,
    messages: Sequence[ChatMessage],
    budget: int,
    window: int,
    where: str,
    timeout: float,
) -> None:
    """Raise DebateError if the messages plus `budget` need more than `window` tokens."""
    text = "\n".join(message.text for message in messages)
    try:
        prompt = await count_tokens(model, text, timeout)
    except DebateError as exc:
        raise DebateError(f"{where}: {exc}") from exc
    template = TEMPLATE_TOKENS_PER_MESSAGE * len(messages) + TEMPLATE_TOKENS_FOR_REPLY
    needed = prompt + template + budget
    if needed > window:
        raise DebateError(
            f"{where}: the prompt ({prompt} tokens by the server's tokenizer, plus "
            f"{template} for the chat template) and the budget ({budget}) need {needed} "
            f"tokens, more than the context window of {window} (-T context_window); "
            "lower the budget or shorten the phases"
        )


async def count_tokens(model: Model, text: str, timeout: float) -> int:
    """The number of tokens the model's server makes of `text`.

    `timeout` is the model call's own: llama.cpp's servers answer a count
    only between generations, so it can wait as long as a turn does. The
    request names the model (a server holding several counts with its
    tokenizer, not the default model's) and carries the model's API key.
    """
    url = model_base_url(model)
    if url is None:
        raise DebateError(
            f"-T context_window needs a model server to count tokens; {model} has no URL"
        )
    root = url.removesuffix("/v1")
    known = _known.here().get(root)
    candidates = (known,) if known else _ENDPOINTS
    key = getattr(model.api, "api_key", None)
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with http_client(timeout, headers) as client:
        for endpoint in candidates:
            count = await _ask(client, root, endpoint, text, model.name)
            if count is not None:
                _known.here()[root] = endpoint
                return count
    tried = " and ".join(endpoint.path for endpoint in candidates)
    raise DebateError(
        f"-T context_window is set, but the server at {root} does not count tokens "
        f"(tried {tried}); the check works with llama.cpp's servers: leave "
        "context_window unset for others"
    )


async def _ask(
    client: httpx.AsyncClient, root: str, endpoint: _Endpoint, text: str, name: str
) -> int | None:
    """The count, or None when the server has no such endpoint."""
    where = f"counting the prompt's tokens at {root}{endpoint.path}"
    try:
        response = await client.post(
            root + endpoint.path, json={**endpoint.body(text), "model": name}
        )
    except httpx.HTTPError as exc:
        raise DebateError(f"{where} failed: {call_failure(exc)}") from exc
    if response.status_code in _NOT_THIS_ENDPOINT:
        return None
    if not response.is_success:  # 401, 429, 500...: the endpoint is there but failed
        raise DebateError(f"{where} failed: HTTP {response.status_code} {response.text[:200]}")
    try:
        return endpoint.count(response.json())
    except (ValueError, KeyError, TypeError):
        return None  # another server's answer at this path
