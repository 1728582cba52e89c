"""Probe each model server once, up front, with a short timeout.

Inspect retries connection errors for a long time by default; a debate against
a server that is not running should instead fail at once with the server's
URL in the message. Only successes are remembered, so a restarted server is
found again by the next sample. What is remembered is the run's own
(core.run_memory): another run in the process probes again. A probed model on
loopback is watched from then on (servers.dead_servers): once its server has
answered, a server that stops ends the samples at once instead of being retried.
"""

from __future__ import annotations

import asyncio
import functools
import ssl

import httpx
from inspect_ai.model import Model

from debatebench_eval.core.errors import ServerError
from debatebench_eval.core.run_memory import RunMemory
from debatebench_eval.servers.dead_servers import answered, watch
from debatebench_eval.servers.urls import is_loopback
from debatebench_eval.servers.urls import model_base_url as model_base_url

PROBE_TIMEOUT_S = 5.0
_reachable: RunMemory[str, bool] = RunMemory()
_locks: RunMemory[str, asyncio.Lock] = RunMemory()


async def ensure_reachable(model: Model, role: str) -> None:
    """Raise ServerError naming the URL if the model's server does not answer.

    Samples start together; one probe per server runs at a time, so a hundred
    samples wait for the first answer instead of sending a hundred probes.
    """
    url = model_base_url(model)
    reachable = _reachable.here()
    if url is None:
        return
    if is_loopback(url):
        watch(model)
    if url in reachable:
        return
    async with loop_lock(url):
        if url not in reachable:
            await _probe(url, model, role)
            reachable[url] = True
            answered(url)


def loop_lock(key: str) -> asyncio.Lock:
    """The lock for `key` in the running event loop, so that samples starting
    together ask a server one question once, not once each. A lock belongs to
    one event loop, and each eval runs its own."""
    return _locks.here().setdefault(key, asyncio.Lock())


def http_client(timeout: float, headers: dict[str, str] | None = None) -> httpx.AsyncClient:
    """A short-lived client for a server's own pages (probe, kind, identity, token
    counts). httpx builds an SSL context for every client unless given one, which
    costs about 17 ms of CPU: per turn, when the context check counts tokens."""
    return httpx.AsyncClient(timeout=timeout, headers=headers, verify=_ssl_context())


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    return httpx.create_ssl_context()


async def _probe(url: str, model: Model, role: str) -> None:
    target = url.rstrip("/") + "/models"
    try:
        async with http_client(PROBE_TIMEOUT_S) as client:
            # Any HTTP answer, even 401 or 404, proves a server is listening.
            await client.get(target)
    except httpx.HTTPError as exc:
        raise ServerError(
            f"model server for role '{role}' ({model}) at {url} did not answer "
            f"({type(exc).__name__}: {str(exc) or 'no detail'}); start it, or point the "
            "model at the right server (e.g. OLLAMA_BASE_URL or --model-base-url), or "
            "pass -T probe=false to skip this check"
        ) from None
