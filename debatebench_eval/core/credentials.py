"""Credentials never reach a log, a message or an exported file.

A URL may carry `user:password@` (a run.yaml's base_url, OLLAMA_BASE_URL):
servers and error messages are recorded without it.
"""

from __future__ import annotations

import re
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
