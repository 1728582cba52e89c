"""Throughput on a real model server: this project against a direct client, timed alike.

Starts the embedded runtime, llama-cpp-python's server (SmolLM2-135M-Instruct,
one request at a time, 2 threads), and puts a loopback request log in front
of it: a small proxy that notes, on this process's one clock, when each
request arrives and when its reply has been sent. Each round runs two
clients through it, each as a process of its own timed by a wall clock:

- this project: N debates through `inspect eval debatebench/debate` (no
  judging, greedy decoding so the work is repeatable);
- a direct client: a Python process that sends the same chat requests — the
  exact bodies Inspect sent, read from the log, in the order the server
  answered them — one at a time with httpx: the best a user could do for
  that request mix without a harness.

Both are measured the same two ways: wall time of the whole process, and from
the first request the log saw to the last reply it sent (the server's busy
span, startup left out). Rounds alternate which client goes first (greedy
decoding makes every round's requests the same), since this machine's speed
drifts between runs. Printed per round and over the rounds (median, min-max):
debates per hour both ways, each client's startup (process start to its first
request), and the ratio of the two throughputs (target: this project at least
90% of the direct client).

    python tests/benchmarks/benchmark_real_server.py [--debates 4] [--budget 96] [--rounds 5]
                                                     [--max-connections 1]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from inspect_ai.event import ModelEvent
from inspect_ai.log import list_eval_logs, read_eval_log

from debatebench_eval.cli.embedded import CONTEXT_TOKENS, MODEL_ALIAS, embedded_server

BIN = Path(sys.executable).parent
_HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "content-length", "host"}


# ------------------------------------------------------------------ the request log


class RequestLog:
    """Each request through the proxy: when it arrived and when its reply was sent."""

    def __init__(self) -> None:
        self.entries: list[tuple[str, float, float]] = []
        self._lock = threading.Lock()

    def note(self, path: str, arrived: float, replied: float) -> None:
        with self._lock:
            self.entries.append((path, arrived, replied))

    def since(self, start: int) -> list[tuple[str, float, float]]:
        with self._lock:
            return self.entries[start:]


@contextmanager
def logged_proxy(upstream: str, log: RequestLog) -> Iterator[str]:
    """A loopback proxy to `upstream` (a base URL ending in /v1); yields its own base URL."""
    parts = urlsplit(upstream)
    origin = f"{parts.scheme}://{parts.netloc}"
    local = threading.local()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the clients expect

        def _forward(self) -> None:
            arrived = time.perf_counter()
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            if not hasattr(local, "client"):
                local.client = httpx.Client(base_url=origin, timeout=600)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_HEADERS}
            reply = local.client.request(self.command, self.path, content=body, headers=headers)
            self.send_response(reply.status_code)
            for key, value in reply.headers.items():
                if key.lower() not in _HOP_HEADERS | {"content-encoding"}:
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(reply.content)))
            self.end_headers()
            self.wfile.write(reply.content)
            self.wfile.flush()
            log.note(self.path, arrived, time.perf_counter())

        do_GET = do_POST = _forward

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the RequestLog is the log

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}{parts.path}"
    finally:
        server.shutdown()
        server.server_close()


# ------------------------------------------------------------------ the two clients


@dataclass
class Run:
    """One client's run, timed by wall clock and by the request log alike."""

    wall: float
    busy: float  # first request arrived to last reply sent
    startup: float  # process start to first request arrived
    requests: int
    completion_tokens: int


def timed(command: list[str], log: RequestLog, env: dict[str, str]) -> tuple[Run, str]:
    """Run a client process; its wall time and, from the log, its span of requests."""
    mark = len(log.since(0))
    start = time.perf_counter()
    done = subprocess.run(
        command, check=True, capture_output=True, env=env, timeout=3600, text=True
    )
    wall = time.perf_counter() - start
    entries = log.since(mark)
    first, last = min(e[1] for e in entries), max(e[2] for e in entries)
    return Run(wall, last - first, first - start, len(entries), 0), done.stdout


def run_ours(folder: Path, base_url: str, log: RequestLog, args: argparse.Namespace) -> Run:
    env = {**os.environ, "OLLAMA_BASE_URL": base_url}
    extra = [] if args.no_context_check else ["-T", f"context_window={CONTEXT_TOKENS}"]
    command = [
        str(BIN / "inspect"), "eval", "debatebench/debate", "--model", f"ollama/{MODEL_ALIAS}",
        "--limit", str(args.debates), "-T", "format=lightning", "-T", f"budget={args.budget}",
        "--no-score", "--temperature", "0", "--seed", "7", "--log-dir", str(folder),
        "--display", "none", "--max-connections", str(args.max_connections), *extra,
    ]  # fmt: skip
    run, _ = timed(command, log, env)
    events = model_calls(list_eval_logs(str(folder))[0].name)
    run.completion_tokens = sum(e.output.usage.output_tokens for e in events if e.output.usage)
    (folder / "requests.json").write_text(json.dumps([wire_request(e) for e in events]))
    return run


def run_direct(requests: Path, base_url: str, log: RequestLog) -> Run:
    command = [sys.executable, __file__, "--replay", str(requests), "--base-url", base_url]
    run, stdout = timed(command, log, dict(os.environ))
    run.completion_tokens = int(stdout.strip())
    return run


def model_calls(log_file: str) -> list[ModelEvent]:
    """Every model call of every sample, in the order the server answered them (it
    serves one at a time, so that is the order it worked on them, and the order
    its prompt cache saw them)."""
    log = read_eval_log(log_file, resolve_attachments=True)  # whole bodies, as sent
    events = [
        e for s in log.samples or [] for e in s.events if isinstance(e, ModelEvent) and e.call
    ]
    assert all(s.error is None for s in log.samples or []), "a debate failed"
    return sorted(events, key=lambda e: e.completed or e.timestamp)


def wire_request(event: ModelEvent) -> dict[str, Any]:
    """The JSON body and headers the OpenAI client made of a logged request: the
    log keeps the client's arguments, where `extra_*` are not body fields and a
    None is never sent."""
    assert event.call is not None
    request = event.call.request
    sdk_only = ("extra_headers", "extra_body", "extra_query")
    body = {k: v for k, v in request.items() if v is not None and k not in sdk_only}
    body.update(request.get("extra_body") or {})
    return {"body": body, "headers": dict(request.get("extra_headers") or {})}


def replay(requests: Path, base_url: str) -> None:
    """The direct client: the same bodies, one at a time; prints its completion tokens."""
    tokens = 0
    with httpx.Client(timeout=600) as client:
        for request in json.loads(requests.read_text()):
            reply = client.post(
                f"{base_url}/chat/completions", json=request["body"], headers=request["headers"]
            )
            reply.raise_for_status()
            tokens += int(reply.json()["usage"]["completion_tokens"])
    print(tokens)


# ------------------------------------------------------------------ the comparison


def spread(values: list[float], form: str) -> str:
    middle = statistics.median(values)
    return f"median {middle:{form}} ({min(values):{form}}-{max(values):{form}})"


def compare(base_url: str, args: argparse.Namespace) -> None:
    debates = args.debates
    rows: list[tuple[Run, Run]] = []
    log = RequestLog()
    with logged_proxy(base_url, log) as proxied, tempfile.TemporaryDirectory() as tmp:
        previous: Path | None = None
        for number in range(1, args.rounds + 1):
            # Greedy decoding makes every round's requests the same, so even rounds
            # replay the last round's first: neither side always runs second.
            direct_first = previous is not None and number % 2 == 0
            direct = run_direct(previous, proxied, log) if previous and direct_first else None
            folder = Path(tmp) / str(number)
            ours = run_ours(folder, proxied, log, args)
            previous = folder / "requests.json"
            direct = direct or run_direct(previous, proxied, log)
            rows.append((ours, direct))
            print(f"round {number} ({'direct client' if direct_first else 'debatebench-eval'} "
                  f"first): debatebench-eval {ours.requests} requests, {ours.completion_tokens} "
                  f"completion tokens, wall {ours.wall:.1f} s, busy {ours.busy:.1f} s, startup "
                  f"{ours.startup:.1f} s; direct client {direct.requests} requests, "
                  f"{direct.completion_tokens} completion tokens, wall {direct.wall:.1f} s, "
                  f"busy {direct.busy:.1f} s, startup {direct.startup:.1f} s; ratio "
                  f"{direct.busy / ours.busy:.0%} busy, {direct.wall / ours.wall:.0%} wall",
                  flush=True)  # fmt: skip

    def per_hour(seconds: list[float]) -> list[float]:
        return [debates / s * 3600 for s in seconds]

    for name, runs in (("debatebench-eval", [r[0] for r in rows]),
                       ("direct client", [r[1] for r in rows])):  # fmt: skip
        print(f"{name}: {spread(per_hour([r.wall for r in runs]), '.0f')} debates/hour by "
              f"wall time, {spread(per_hour([r.busy for r in runs]), '.0f')} over the busy "
              f"span; startup {spread([r.startup for r in runs], '.1f')} s")  # fmt: skip
    busy = [d.busy / o.busy for o, d in rows]
    wall = [d.wall / o.wall for o, d in rows]
    print(f"throughput, debatebench-eval / direct client, per round over {len(rows)} rounds: "
          f"{spread([100 * r for r in busy], '.0f')} % over the busy span, "
          f"{spread([100 * r for r in wall], '.0f')} % by wall time (target 90%)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--debates", type=int, default=4)
    parser.add_argument("--budget", type=int, default=96)
    parser.add_argument("--rounds", type=int, default=5, help="runs of each; the order alternates")
    parser.add_argument("--max-connections", type=int, default=1, help="1: the server's one slot")
    parser.add_argument("--no-context-check", action="store_true")
    parser.add_argument("--replay", type=Path, help=argparse.SUPPRESS)  # the direct client
    parser.add_argument("--base-url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.replay:
        replay(args.replay, args.base_url)
        return
    print(f"{datetime.now():%Y-%m-%d %H:%M}: SmolLM2-135M-Instruct Q4_1 on llama-cpp-python's "
          f"server, 2 threads, context {CONTEXT_TOKENS}, one request at a time; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
    print(f"workload: {args.debates} debates, format lightning (4 turns), budget {args.budget}, "
          f"temperature 0, --max-connections {args.max_connections}, context check "
          f"{'off' if args.no_context_check else 'on'}; both clients timed by wall clock "
          "around their process and by one request log in front of the server")  # fmt: skip
    with embedded_server() as base_url:
        compare(base_url, args)


if __name__ == "__main__":
    main()
