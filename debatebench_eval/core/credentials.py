"""Credentials never reach a log, a message or an exported file.

A URL may carry `user:password@` (a run.yaml's base_url, OLLAMA_BASE_URL):
servers and error messages are recorded without it. And a missing key for a
server on this machine is explained: local servers ignore the key, but the
OpenAI client library refuses to start without one.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit

# The user:password part of any URL in a text (`scheme://user:pw@host`).
# Greedy, and stopping where the authority ends (/ ? #), so a password holding
# an unencoded "@" is cut whole and "?to=a@b" in a query is left alone.
_USERINFO = re.compile(r"(?<=://)[^/?#\s'\"]*@")


def without_userinfo(text: str) -> str:
    """The text with credentials cut out of every URL in it, so an error
    message quoting a file (a run.yaml line, a base_url) never repeats them."""
    return _USERINFO.sub("", text)


def strip_credentials(url: str) -> str:
    """A URL without user:password, so it can be written to a log."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


# The variables Inspect names when a provider has no API key ("No QWEN_API_KEY
# defined in the environment"), once its markup is gone.
_MISSING_KEY = re.compile(r"\bNo ((?:\w+_API_KEY(?:,? or |, )?)+) defined in the environment")
# --model-base-url reaches every provider through this variable.
_EVAL_BASE_URL = "INSPECT_EVAL_MODEL_BASE_URL"


def is_local_url(url: str) -> bool:
    """Whether a URL points at this machine or the local network (loopback,
    private or link-local addresses, `localhost`, a `.local` name)."""
    host = (urlsplit(url.strip()).hostname or "").lower()
    if host == "localhost" or host.endswith((".localhost", ".local")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def local_key_hint(message: str, environ: Mapping[str, str] | None = None) -> str | None:
    """What to do about a missing API key whose server is local, else None.

    Inspect asks for the key before it reads the base URL, so the URL is
    looked up here: `<SERVICE>_BASE_URL` beside `<SERVICE>_API_KEY`, or the
    URL --model-base-url set.
    """
    found = _MISSING_KEY.search(message)
    if found is None:
        return None
    env = os.environ if environ is None else environ
    for key_var in re.findall(r"\w+_API_KEY", found.group(1)):
        for url_var in (key_var.removesuffix("_API_KEY") + "_BASE_URL", _EVAL_BASE_URL):
            url = env.get(url_var, "")
            if url and is_local_url(url):
                return (
                    f"{url_var} is {strip_credentials(url)}, a local server, which takes "
                    f"any non-empty key: set {key_var} to any value (e.g. {key_var}=local)"
                )
    return None
