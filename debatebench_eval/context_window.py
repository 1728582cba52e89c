"""Refuse a turn whose prompt plus budget cannot fit the model's context window.

A local server handed more than its context rejects the request only after
reading it (llama.cpp), or truncates the prompt silently (Ollama, by default):
either way the turn is lost or quietly wrong. With `-T context_window=N` each
debater prompt is counted by the model server's own tokenizer before the call,
and a turn that cannot fit fails at once with the figures in the message.

Counting needs a server that exposes its tokenizer: llama-cpp-python's
`/extras/tokenize/count` (the embedded runtime) and llama.cpp's `/tokenize`
are supported. The count covers the message text exactly; the chat
template's role markers are allowed for per message, not counted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
from inspect_ai.model import ChatMessage, Model

from .errors import DebateError, call_failure
from .probe import model_base_url

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
    only between generations, so it can wait as long as a turn does.
    """
    url = model_base_url(model)
    if url is None:
        raise DebateError(
            f"-T context_window needs a model server to count tokens; {model} has no URL"
        )
    root = url.removesuffix("/v1")
    known = _known.get(root)
    candidates = (known,) if known else _ENDPOINTS
    async with httpx.AsyncClient(timeout=timeout) as client:
        for endpoint in candidates:
            count = await _ask(client, root, endpoint, text)
            if count is not None:
                _known[root] = endpoint
                return count
    tried = " and ".join(endpoint.path for endpoint in candidates)
    raise DebateError(
        f"-T context_window is set, but the server at {root} does not count tokens "
        f"(tried {tried}); the check works with llama.cpp's servers: leave "
        "context_window unset for others"
    )


async def _ask(client: httpx.AsyncClient, root: str, endpoint: _Endpoint, text: str) -> int | None:
    """The count, or None when the server has no such endpoint."""
    try:
        response = await client.post(root + endpoint.path, json=endpoint.body(text))
    except httpx.HTTPError as exc:
        raise DebateError(
            f"counting the prompt's tokens at {root}{endpoint.path} failed: {call_failure(exc)}"
        ) from exc
    if response.status_code >= 500:
        raise DebateError(
            f"counting the prompt's tokens at {root}{endpoint.path} failed: "
            f"HTTP {response.status_code} {response.text[:200]}"
        )
    try:
        response.raise_for_status()
        return endpoint.count(response.json())
    except (httpx.HTTPError, ValueError, KeyError, TypeError):
        return None  # 404 and the like, or another shape: not this server's endpoint
