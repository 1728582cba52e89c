"""Where a model's server is, and environment variables that say something per server.

One server has many spellings: `localhost` or `127.0.0.1`, with or without
`/v1`, a final slash, credentials. `server_key` gives them one, so a value
given for `http://localhost:8080` finds the model whose URL is
`http://127.0.0.1:8080/v1`.

A variable keyed by server holds whitespace-separated entries, each
`URL=VALUE` (that server's) or a bare `VALUE` (every server's); a value holds
no whitespace. The project's own servers add their entries for as long as they
run (`url_entry`), so a run in the same process or in a child `inspect eval`
reads them.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

from inspect_ai.model import Model

from debatebench_eval.core.credentials import strip_credentials

_DEFAULT_PORTS = {"http": 80, "https": 443}


def model_base_url(model: Model) -> str | None:
    """The server URL a model talks to, without credentials, if it has one.

    Some providers keep a URL given by environment variable (OPENAI_BASE_URL)
    only on their client, so that is asked too.
    """
    url = getattr(model.api, "base_url", None) or getattr(
        getattr(model.api, "client", None), "base_url", None
    )
    return strip_credentials(str(url).rstrip("/")) if url else None


def is_loopback(url: str) -> bool:
    """Whether the URL's host is this machine's loopback (localhost, 127.0.0.0/8, ::1)."""
    host = (urlsplit(url.strip()).hostname or "").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def server_key(url: str) -> str:
    """One spelling of the server a URL names: scheme, host (every loopback name is
    127.0.0.1), port, and the path without `/v1` and the final slash."""
    parts = urlsplit(strip_credentials(url.strip()))
    host = "127.0.0.1" if is_loopback(url) else (parts.hostname or "").lower()
    port = parts.port or _DEFAULT_PORTS.get(parts.scheme, 0)
    path = parts.path.rstrip("/").removesuffix("/v1").rstrip("/")
    return f"{parts.scheme}://{host}:{port}{path}"


def url_entries(value: str) -> tuple[dict[str, str], list[str]]:
    """A variable's `URL=VALUE` entries by server key, and its bare entries.

    An entry is a server's when it starts with a URL scheme and holds `=`; the
    value is what follows the first `=` (a base URL holds none)."""
    by_server: dict[str, str] = {}
    bare: list[str] = []
    for entry in value.split():
        url, equals, rest = entry.partition("=")
        if equals and url.startswith(("http://", "https://")):
            by_server[server_key(url)] = rest
        else:
            bare.append(entry)
    return by_server, bare


@contextmanager
def url_entry(variable: str, url: str, value: str) -> Iterator[None]:
    """Add `URL=VALUE` to the environment variable while the block runs; whatever else
    it holds, and any entry added meanwhile, stays."""
    if not value or any(c.isspace() for c in value):
        raise ValueError(f"{variable}: a value holds no whitespace, got {value!r}")
    entry = f"{url}={value}"
    os.environ[variable] = " ".join([*os.environ.get(variable, "").split(), entry])
    try:
        yield
    finally:
        entries = os.environ.get(variable, "").split()
        if entry in entries:
            entries.remove(entry)
        if entries:
            os.environ[variable] = " ".join(entries)
        else:
            os.environ.pop(variable, None)
