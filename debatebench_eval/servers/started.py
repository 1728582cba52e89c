"""What a run is told of a server the project started itself (the embedded llama.cpp server).

The server belongs to the process that started it; the run it serves may be a
child `inspect eval`. Both learn of it through environment variables keyed by
the server's URL (servers.urls), set for as long as the server runs:

- its model file's fingerprint (servers.fingerprints), so a judge there has an
  identity a trust record can match;
- the file its output goes to, so a sample that finds the server dead can quote
  its last lines (servers.dead_servers).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, unquote

from debatebench_eval.servers.fingerprints import FINGERPRINT_VAR
from debatebench_eval.servers.urls import server_key, url_entries, url_entry

OUTPUT_VAR = "DEBATEBENCH_SERVER_OUTPUT"
# The server's last output lines quoted in an error about it.
TAIL_LINES = 12


@contextmanager
def announced(url: str, fingerprint: str, output: Path) -> Iterator[None]:
    """Tell every run started while the block runs the server's fingerprint and output."""
    # Quoted: a temporary folder's path may hold a space, and an entry cannot.
    with (
        url_entry(FINGERPRINT_VAR, url, fingerprint),
        url_entry(OUTPUT_VAR, url, quote(str(output))),
    ):
        yield


def output_file(url: str) -> Path | None:
    """The output file of the project's server at `url`, or None for any other server."""
    by_server, _ = url_entries(os.environ.get(OUTPUT_VAR, ""))
    found = by_server.get(server_key(url))
    return Path(unquote(found)) if found else None


def output_tail(path: Path, lines: int = TAIL_LINES) -> str:
    """The file's last lines, each after `  | `, as an error message quotes them."""
    try:
        text = path.read_text(errors="replace").splitlines()[-lines:]
    except OSError as exc:
        text = [f"(unreadable: {exc})"]
    return "\n".join(f"  | {line}" for line in text) or "  | (nothing)"
