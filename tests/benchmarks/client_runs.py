"""One client's command timed against the loopback stub: the machinery of the benchmarks
that run the same debates through debatebench 0.1.2 and this project
(benchmark_throughput.py, benchmark_run_workers.py).

The stub answers after a fixed latency, at most K requests at a time, and keeps
connections open. A run gives the command's wall time, its CPU (user + sys of
the command and every child it waited for), when the first request arrived and
the last reply left, when each chat request arrived (with the request, so a
benchmark can tell whose it was), and when each file the command left in its
folder was last written.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.stub_server import StubBehaviour, StubServer

# The command a client runs, from its working folder and the stub's base URL.
CommandFor = Callable[[Path, str], list[str]]


@dataclass(frozen=True)
class Timing:
    wall: float
    busy: float  # first request to last reply
    first_request: float  # seconds from the command's start to its first request
    requests: int
    cpu: float  # user + sys of the command and every child it waited for

    def per_call_ms(self) -> float:
        return 1000 * self.cpu / self.requests


@dataclass(frozen=True)
class StubRun:
    timing: Timing
    # Each chat request, in order of arrival: seconds from the command's start, the request.
    arrivals: list[tuple[float, dict[str, Any]]]
    last_reply: float  # seconds from the command's start
    # Each file the command left in its folder (relative path): seconds from the
    # command's start to the file's last write.
    files: dict[str, float]


class ArrivalLog(list[dict[str, Any]]):
    """The stub's list of chat requests, which it appends to as each arrives: here each
    append also keeps the time."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def append(self, request: dict[str, Any]) -> None:
        self.times.append(time.perf_counter())
        super().append(request)


def run_on_stub(
    client: str,
    command_for: CommandFor,
    requests: int,
    slots: int,
    latency: float,
    profile: Path | None = None,
) -> StubRun:
    """Run the client's command in a fresh folder against a fresh stub; exit naming the
    client if it fails or does not make exactly `requests` chat requests."""
    arrivals = ArrivalLog()
    behaviour = StubBehaviour(latency_s=latency, slots=slots, keep_alive=True, requests=arrivals)
    with tempfile.TemporaryDirectory() as tmp, StubServer(behaviour) as stub:
        folder = Path(tmp)
        command = command_for(folder, stub.base_url)
        if profile is not None:
            command = ["py-spy", "record", "--rate", "100", "--format", "raw", "--full-filenames",
                       "--output", str(profile), "--", *command]  # fmt: skip
        env = {**os.environ, "OLLAMA_BASE_URL": stub.base_url}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        epoch, start = time.time(), time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=folder,
                              timeout=3600)  # fmt: skip
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        files = {
            path.relative_to(folder).as_posix(): path.stat().st_mtime - epoch
            for path in folder.rglob("*")
            if path.is_file()
        }
    if done.returncode != 0:
        sys.exit(f"{client} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    times = behaviour.request_times
    if len(times) != requests:
        sys.exit(f"{client}: {len(times)} requests, expected {requests}")
    first = min(begin for begin, _ in times)
    last = max(end for _, end in times)
    timing = Timing(
        wall=wall,
        busy=last - first,
        first_request=first - start,
        requests=len(times),
        cpu=(after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
    )
    arrived = [(t - start, request) for t, request in zip(arrivals.times, arrivals, strict=True)]
    return StubRun(timing, arrived, last - start, files)
