"""A judge's fingerprint where its server reports none: given, or its model file's sha256.

A trust record applies only to the model it measured, so a judge on a server
of its own is matched by a fingerprint: Ollama's model digest, or llama.cpp's
model metadata (trust.records asks the server). llama-cpp-python's server
reports neither, so a judge there could never match a record. A fingerprint
can be given instead:

- `DEBATEBENCH_JUDGE_FINGERPRINT` holds `URL=FINGERPRINT` entries (that
  server's judges) and at most one bare `FINGERPRINT` (every self-served
  judge's), separated by whitespace (servers.urls);
- the embedded server adds its own `URL=sha256:HEX` entry (its GGUF file's
  sha256) for as long as it runs, so every run it serves, in this process or a
  child `inspect eval`, names the model file that answered.

A server's own fingerprint always wins: a given one is used only where the
server reports none, so it can never relabel an Ollama model. 64 hex digits
(what `sha256sum` prints) are written `sha256:HEX`, so a file hashed by hand
matches the same file the embedded server hashed.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.servers.urls import server_key, url_entries

FINGERPRINT_VAR = "DEBATEBENCH_JUDGE_FINGERPRINT"
SHA256_PREFIX = "sha256:"
_SHA256 = re.compile(r"(?:sha256:)?([0-9a-fA-F]{64})")


def normalise(fingerprint: str, where: str = FINGERPRINT_VAR) -> str:
    """The fingerprint as records hold it; refused when empty or holding whitespace."""
    text = fingerprint.strip()
    if not text or any(c.isspace() for c in text):
        raise ConfigError(where, f"fingerprint {fingerprint!r}", "one word, e.g. sha256:HEX")
    found = _SHA256.fullmatch(text)
    return SHA256_PREFIX + found.group(1).lower() if found else text


def given_fingerprint(url: str) -> str | None:
    """The fingerprint the environment gives the server at `url`: its own entry, else
    the bare one; None when neither is set."""
    by_server, bare = url_entries(os.environ.get(FINGERPRINT_VAR, ""))
    if len(bare) > 1:
        raise ConfigError(
            FINGERPRINT_VAR,
            f"{len(bare)} fingerprints for every server ({', '.join(bare)})",
            "at most one bare FINGERPRINT; give each server its own as URL=FINGERPRINT",
        )
    found = by_server.get(server_key(url), bare[0] if bare else None)
    return normalise(found) if found is not None else None


def file_fingerprint(path: Path) -> str:
    """`sha256:HEX` of a model file, hashed once per process for each version of the
    file (its path, size and modification time)."""
    stat = path.stat()
    return _file_sha256(str(path.resolve()), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _file_sha256(path: str, size: int, mtime_ns: int) -> str:
    # size and mtime_ns are the cache key: a file replaced in place is hashed again.
    with open(path, "rb") as handle:
        return SHA256_PREFIX + hashlib.file_digest(handle, "sha256").hexdigest()
