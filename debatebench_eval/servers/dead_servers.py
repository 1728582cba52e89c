"""A loopback model server that stopped ends its samples at once, naming it.

Inspect retries a failed connection with a backoff that grows to minutes, call
by call: a 120-speech judge validation whose server died after 8 requests was
still retrying refused connections after 150 s. A connection to this machine
is refused only when nothing listens on the port, and no retry brings a
stopped server back.

So a model's calls are watched. When a call fails on the transport (a refused
connection, a connection cut) and the model's server is on loopback, answered
earlier in this run (its probe, or a call) and refuses a fresh connection now,
the call raises ServerError naming the URL (with the last lines of the
server's output when it is the project's embedded server), which Inspect does
not retry; later calls to it fail the same way at once, until it listens
again. Every other failure (a broken body from a server that still listens, a
timeout, a remote server, a server that never answered) is left to Inspect's
retries: one transient error never ends a sample.

The watch goes on a model where the project first meets it: its probe
(servers.probe) and, for tasks whose models are never probed (a plain
`generate()`), a hook at every sample's start (`watch_every_sample`).
"""

from __future__ import annotations

import asyncio
import functools
import socket
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from inspect_ai.hooks import Hooks, SampleStart, hooks
from inspect_ai.model import Model, get_model, model_roles

from debatebench_eval.core._inspect import sample_active
from debatebench_eval.core.errors import ServerError
from debatebench_eval.core.run_memory import RunMemory
from debatebench_eval.servers.started import output_file, output_tail
from debatebench_eval.servers.urls import is_loopback, model_base_url, server_key

# How long a fresh connection may take before the server counts as listening.
REFUSAL_CHECK_S = 2.0
# A failed connection, by class name: httpx's, its httpx2 fork's (which the openai
# library uses) and the openai library's wrapper of either; providers raise any of them.
_TRANSPORT_ERRORS = frozenset({"TransportError", "APIConnectionError"})
# The tasks whose samples the hook watches: the package's own.
_OUR_TASKS = ("debatebench/", "debatebench_eval/")
# Servers (by server_key) that answered in this run, and those found dead since.
_answered: RunMemory[str, bool] = RunMemory()
_dead: RunMemory[str, bool] = RunMemory()


class _WatchedGenerate:
    """A model API's `generate`, watched (see the module's docstring). A callable in
    the API's own attribute, so the next look finds it watched already."""

    def __init__(self, model: Model, generate: Callable[..., Awaitable[Any]]) -> None:
        self.model = model
        self.generate = generate

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        url = model_base_url(self.model)
        if url is None or not is_loopback(url):
            return await self.generate(*args, **kwargs)
        await _refuse_if_dead(url)
        try:
            result = await self.generate(*args, **kwargs)
        except Exception as exc:
            if _transport_failure(exc) and await _found_dead(url):
                raise ServerError(dead_message(url)) from exc
            raise
        answered(url)
        return result


def watch(model: Model) -> None:
    """Watch the model's calls; a model watched already is left as it is."""
    api = model.api
    if not isinstance(api.generate, _WatchedGenerate):
        api.generate = _WatchedGenerate(model, api.generate)  # type: ignore[method-assign]


def answered(url: str) -> None:
    """Remember, for this run, that the server at `url` answered."""
    _answered.here()[server_key(url)] = True


async def _found_dead(url: str) -> bool:
    """Whether the server answered before and refuses connections now (then remembered)."""
    key = server_key(url)
    if key not in _answered.here() or not await refuses_connections(url):
        return False
    _dead.here()[key] = True
    return True


async def _refuse_if_dead(url: str) -> None:
    """Fail at once when the server was found dead and still refuses; forget it when
    it listens again (restarted)."""
    dead = _dead.here()
    if server_key(url) not in dead:
        return
    if await refuses_connections(url):
        raise ServerError(dead_message(url))
    dead.pop(server_key(url), None)


def _transport_failure(exc: BaseException) -> bool:
    """Whether the error, or one under it, is a connection's failure (not an HTTP answer)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        kinds = {kind.__name__ for kind in type(current).__mro__}
        if isinstance(current, ConnectionError) or kinds & _TRANSPORT_ERRORS:
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


async def refuses_connections(url: str) -> bool:
    """Whether every address of the URL's host refuses a TCP connection to its port now.
    Anything else (an accepted connection, a timeout, another error) is not a refusal."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    loop = asyncio.get_running_loop()
    try:
        found = await loop.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except OSError:
        return False
    for *_, address in found:
        try:
            connecting = asyncio.open_connection(str(address[0]), port)
            _, writer = await asyncio.wait_for(connecting, REFUSAL_CHECK_S)
        except ConnectionRefusedError:
            continue
        except (OSError, TimeoutError):
            return False
        writer.close()
        return False
    return bool(found)


def dead_message(url: str) -> str:
    """What a sample says of a server found dead, with its output where the project runs it."""
    message = (
        f"the model server at {url} answered earlier in this run and now refuses "
        "connections: it has stopped, so this sample ends here instead of retrying; "
        "restart it, then `inspect eval-retry LOG` runs the failed samples again"
    )
    output = output_file(url)
    if output is not None:
        message += f"; the server's output ({output}) ends:\n{output_tail(output)}"
    return message


class DeadServerWatch(Hooks):
    """Watches the models of every sample of the package's tasks, probed or not."""

    async def on_sample_start(self, data: SampleStart) -> None:
        active = sample_active()
        if active is None or not str(active.task).startswith(_OUR_TASKS):
            return
        for model in sample_models():
            watch(model)


def sample_models() -> list[Model]:
    """The running sample's models: the main one and every role's."""
    found = [get_model()]
    for bound in model_roles().values():
        found += bound if isinstance(bound, list) else [bound]
    return found


@functools.cache  # Inspect's hook registry is the process's: register once
def watch_every_sample() -> None:
    """Register the hook that watches every sample's models, once per process: to be
    called when a task is made, as the run summary's hook is (registered at import,
    Inspect would list it in every command's banner)."""
    hooks(name="dead_servers", description="Ends samples whose loopback server stopped.")(
        DeadServerWatch
    )
