"""Refuse a turn whose prompt plus budget cannot fit the model's context window.

A local server handed more than its context rejects the request only after
reading it (llama.cpp), or truncates the prompt silently (Ollama, by default):
either way the turn is lost or quietly wrong. With `-T context_window=N` each
debater prompt is counted by the model server's own tokenizer before the call,
and a turn that cannot fit fails at once with the figures in the message.

Counting needs a server that exposes its tokenizer: llama-cpp-python's
`/extras/tokenize/count` (the embedded runtime) and llama.cpp's `/tokenize`
are supported. The count covers the message text, joined as one string; the
chat template's role markers are an allowance per message, not a count, so
the figure is close, not exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
from inspect_ai.model import ChatMessage, Model

from debatebench_eval.core.errors import DebateError, call_failure
from debatebench_eval.servers.probe import http_client, model_base_url

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
# Server root -> the endpoint that answered there, so later turns ask it first.
_known: dict[str, _Endpoint] = {}


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
    known = _known.get(root)
    candidates = (known,) if known else _ENDPOINTS
    key = getattr(model.api, "api_key", None)
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with http_client(timeout, headers) as client:
        for endpoint in candidates:
            count = await _ask(client, root, endpoint, text, model.name)
            if count is not None:
                _known[root] = endpoint
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
