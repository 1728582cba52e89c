"""What software a model server runs, asked of the server itself.

Servers differ in what they accept: llama-cpp-python's server refuses
OpenAI's `json_schema` response format (a 500 that Inspect retries as if it
were transient) but takes `json_object` with a schema, which both llama.cpp
servers enforce by grammar. Each server answers a few cheap GETs once per
process: llama-cpp-python's OpenAPI page names it, llama.cpp's server has
`/props`, Ollama has `/api/version`. Judges scoring at once wait for the
first answer rather than each asking. A model with no URL is a hosted
provider's (None); a server that answers none of them is `other`.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import httpx
from inspect_ai.model import Model

from debatebench_eval.core.run_memory import RunMemory
from debatebench_eval.servers.probe import PROBE_TIMEOUT_S, http_client, loop_lock, model_base_url

ServerKind = Literal["llama-cpp-python", "llama.cpp", "ollama", "other"]
# Servers that enforce a JSON schema given with `json_object` (by grammar).
LLAMA_CPP_KINDS: frozenset[str] = frozenset({"llama-cpp-python", "llama.cpp"})
# Server root -> its kind, for this run (core.run_memory).
_known: RunMemory[str, ServerKind] = RunMemory()


async def server_kind(model: Model) -> ServerKind | None:
    """The kind of server `model` talks to; None for a model without a server URL."""
    url = model_base_url(model)
    if url is None:
        return None
    root = url.rstrip("/").removesuffix("/v1")
    known = _known.here()
    if root not in known:
        async with loop_lock(f"kind {root}"):
            if root not in known:
                known[root] = await _ask(root)
    return known[root]


async def _ask(root: str) -> ServerKind:
    async with http_client(PROBE_TIMEOUT_S) as client:
        openapi, props, version = await asyncio.gather(
            _get_json(client, f"{root}/openapi.json"),
            _get_json(client, f"{root}/props"),
            _get_json(client, f"{root}/api/version"),
        )
    title = str(((openapi or {}).get("info") or {}).get("title", ""))
    if "llama.cpp python" in title.lower():
        return "llama-cpp-python"
    if isinstance(props, dict) and "default_generation_settings" in props:
        return "llama.cpp"
    if isinstance(version, dict) and "version" in version:
        return "ollama"
    return "other"


async def _get_json(client: httpx.AsyncClient, url: str) -> dict[str, Any] | None:
    try:
        response = await client.get(url)
        body = response.json() if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None
    return body if isinstance(body, dict) else None
