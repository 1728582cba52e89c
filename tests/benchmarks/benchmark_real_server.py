"""Throughput on a real model server: this project against a direct client.

Starts the embedded runtime, llama-cpp-python's server (SmolLM2-135M-Instruct,
one request at a time, 2 threads), runs N debates through `inspect eval debatebench/debate`
(no judging, greedy decoding so the work is repeatable), and reads from the
log every request Inspect sent. Then it sends the same requests — the exact
bodies, in the order they were made — straight to the server with httpx, one
at a time: the server's raw throughput for that request mix, with no harness.
Rounds alternate which of the two goes first (greedy decoding makes every
round's requests the same), since this machine's speed drifts between runs.
Printed: debates per hour (wall time, and from the first request to the last
reply), the direct client's time and tokens, and the ratio of the two
throughputs (target: this project at least 90% of the direct client).

    python tests/benchmark_real_server.py [--debates 4] [--budget 96] [--rounds 4]
                                        [--max-connections 1]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from inspect_ai.event import ModelEvent
from inspect_ai.log import list_eval_logs, read_eval_log

from debatebench_eval.cli.embedded import CONTEXT_TOKENS, MODEL_ALIAS, embedded_server

BIN = Path(sys.executable).parent


@dataclass
class Run:
    seconds: float
    requests: int
    completion_tokens: int


def run_ours(folder: Path, base_url: str, args: argparse.Namespace) -> tuple[float, str]:
    env = {**os.environ, "OLLAMA_BASE_URL": base_url}
    extra = [] if args.no_context_check else ["-T", f"context_window={CONTEXT_TOKENS}"]
    start = time.perf_counter()
    subprocess.run(
        [str(BIN / "inspect"), "eval", "debatebench/debate", "--model", f"ollama/{MODEL_ALIAS}",
         "--limit", str(args.debates), "-T", "format=lightning", "-T", f"budget={args.budget}",
         "--no-score", "--temperature", "0", "--seed", "7", "--log-dir", str(folder),
         "--display", "none", "--max-connections", str(args.max_connections), *extra],
        check=True, capture_output=True, env=env, timeout=3600,
    )  # fmt: skip
    return time.perf_counter() - start, list_eval_logs(str(folder))[0].name


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


def busy_span(events: list[ModelEvent]) -> float:
    """Seconds from the first request to the last reply."""
    ends = [e.completed for e in events if e.completed is not None]
    return (max(ends) - min(e.timestamp for e in events)).total_seconds()


def wire_request(request: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The JSON body and headers the OpenAI client made of a logged request: the
    log keeps the client's arguments, where `extra_*` are not body fields and a
    None is never sent."""
    sdk_only = ("extra_headers", "extra_body", "extra_query")
    body = {k: v for k, v in request.items() if v is not None and k not in sdk_only}
    body.update(request.get("extra_body") or {})
    return body, dict(request.get("extra_headers") or {})


def replay(base_url: str, events: list[ModelEvent]) -> Run:
    """The same request bodies, one at a time, straight to the server."""
    tokens = 0
    with httpx.Client(timeout=600) as client:
        start = time.perf_counter()
        for event in events:
            assert event.call is not None
            body, headers = wire_request(event.call.request)
            reply = client.post(f"{base_url}/chat/completions", json=body, headers=headers)
            reply.raise_for_status()
            tokens += int(reply.json()["usage"]["completion_tokens"])
        seconds = time.perf_counter() - start
    return Run(seconds, len(events), tokens)


def measure_ours(
    base_url: str, folder: Path, args: argparse.Namespace
) -> tuple[float, Run, list[ModelEvent]]:
    """Our run: wall time, the work from first request to last reply, and its calls."""
    wall, log_file = run_ours(folder, base_url, args)
    events = model_calls(log_file)
    tokens = sum(e.output.usage.output_tokens for e in events if e.output.usage)
    return wall, Run(busy_span(events), len(events), tokens), events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--debates", type=int, default=4)
    parser.add_argument("--budget", type=int, default=96)
    parser.add_argument("--rounds", type=int, default=4, help="runs of each; the order alternates")
    parser.add_argument("--max-connections", type=int, default=1, help="1: the server's one slot")
    parser.add_argument("--no-context-check", action="store_true")
    args = parser.parse_args()
    print(f"{datetime.now():%Y-%m-%d %H:%M}: SmolLM2-135M-Instruct Q4_1 on llama-cpp-python's "
          f"server, 2 threads, context {CONTEXT_TOKENS}, one request at a time")  # fmt: skip
    print(f"workload: {args.debates} debates, format lightning (4 turns), budget {args.budget}, "
          f"temperature 0, --max-connections {args.max_connections}, context check "
          f"{'off' if args.no_context_check else 'on'}")  # fmt: skip
    totals = {"wall": 0.0, "ours": 0.0, "direct": 0.0}
    with embedded_server() as base_url, tempfile.TemporaryDirectory() as tmp:
        previous: list[ModelEvent] = []
        for number in range(1, args.rounds + 1):
            # Greedy decoding makes every round's requests the same, so even rounds
            # replay the last round's first: neither side always runs second.
            direct_first = number % 2 == 0
            direct = replay(base_url, previous) if direct_first else None
            wall, mine, previous = measure_ours(base_url, Path(tmp) / str(number), args)
            direct = direct or replay(base_url, previous)
            totals["wall"] += wall
            totals["ours"] += mine.seconds
            totals["direct"] += direct.seconds
            print(f"round {number} ({'direct client' if direct_first else 'debatebench-eval'} "
                  f"first): {mine.requests} requests; debatebench-eval wall {wall:.1f} s, "
                  f"first request to last reply {mine.seconds:.1f} s, {mine.completion_tokens} "
                  f"completion tokens; direct client {direct.seconds:.1f} s, "
                  f"{direct.completion_tokens} completion tokens")  # fmt: skip
    debates = args.debates * args.rounds
    print(f"debatebench-eval: {debates / totals['wall'] * 3600:.0f} debates/hour by wall time, "
          f"{debates / totals['ours'] * 3600:.0f} after startup; direct client: "
          f"{debates / totals['direct'] * 3600:.0f} debates/hour of the same requests")  # fmt: skip
    print(f"throughput, debatebench-eval / direct client: "
          f"{totals['direct'] / totals['ours']:.0%} after startup, "
          f"{totals['direct'] / totals['wall']:.0%} by wall time (target 90%)")  # fmt: skip


if __name__ == "__main__":
    main()
