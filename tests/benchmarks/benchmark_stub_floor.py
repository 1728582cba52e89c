"""The floor the throughput benchmark's stub allows: a direct client with no harness.

benchmark_throughput.py compares each client's time from first request to last
reply with an ideal schedule (every slot busy every moment). No real client
reaches it: the stub is Python threads answering over loopback HTTP, and a
debate's calls depend on each other. This script measures what a client with
no harness at all reaches on the same stub and workload: a process of its own
running K asyncio workers over one httpx connection pool, each taking the next
debate and sending its 6 calls one after another (each call carrying the
conversation so far, as a debate does). Its ratio to ideal is the floor any
harness's ratio should be read against.

    python tests/benchmarks/benchmark_stub_floor.py [--sizes 32,100,300] [--slots 8] [--repeat 3]

Writes its output to results/benchmarks/stub-floor.txt too.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx
from benchmark_throughput import BUDGET, CHAIN, ROOT, ideal_time, machine

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.stub_server import StubBehaviour, StubServer

RESULTS = ROOT / "results" / "benchmarks" / "stub-floor.txt"


async def _debates(base_url: str, debates: int, workers: int) -> None:
    queue: asyncio.Queue[int] = asyncio.Queue()
    for number in range(debates):
        queue.put_nowait(number)
    limits = httpx.Limits(max_connections=workers)
    async with httpx.AsyncClient(base_url=base_url, timeout=120, limits=limits) as client:
        await asyncio.gather(*(_worker(client, queue) for _ in range(workers)))


async def _worker(client: httpx.AsyncClient, queue: asyncio.Queue[int]) -> None:
    while not queue.empty():
        number = queue.get_nowait()
        messages = [{"role": "user", "content": f"Argue motion number {number}."}]
        for _ in range(CHAIN):
            body = {"model": "stub", "messages": messages, "max_tokens": BUDGET}
            reply = (await client.post("/chat/completions", json=body)).json()
            text = reply["choices"][0]["message"]["content"]
            messages.append({"role": "assistant", "content": text})


def timed(debates: int, slots: int, latency: float) -> tuple[float, float]:
    """Wall time of the client process, and first request to last reply."""
    behaviour = StubBehaviour(latency_s=latency, slots=slots, keep_alive=True)
    with StubServer(behaviour) as stub:
        start = time.perf_counter()
        command = [sys.executable, __file__, "--client", stub.base_url, str(debates), str(slots)]
        subprocess.run(command, check=True, timeout=3600)
        wall = time.perf_counter() - start
    times = behaviour.request_times
    if len(times) != debates * CHAIN:
        sys.exit(f"{len(times)} requests, expected {debates * CHAIN}")
    return wall, max(end for _, end in times) - min(begin for begin, _ in times)


def main() -> None:
    if sys.argv[1:2] == ["--client"]:
        base_url, debates, workers = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        asyncio.run(_debates(base_url, debates, workers))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="32,100,300")
    parser.add_argument("--slots", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.25)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    out = [
        f"$ python tests/benchmarks/benchmark_stub_floor.py   # {machine()}",
        f"stub: {args.slots} slots, {args.latency * 1000:.0f} ms per request, keep-alive; "
        f"direct httpx client, {args.slots} workers, {CHAIN} dependent calls per debate",
    ]
    print(*out, sep="\n", flush=True)
    for debates in (int(size) for size in args.sizes.split(",")):
        ideal = ideal_time(debates, args.slots, args.latency)
        runs = [timed(debates, args.slots, args.latency) for _ in range(args.repeat)]
        busies = [b for _, b in runs]
        busy, wall = statistics.median(busies), statistics.median(w for w, _ in runs)
        line = (
            f"{debates:4} debates: ideal {ideal:6.2f} s; wall {wall:6.1f} s; first request to "
            f"last reply {busy:6.1f} s = {busy / ideal:.2f}x ideal "
            f"(median of {len(runs)}: {min(busies):.1f}-{max(busies):.1f} s)"
        )
        print(line, flush=True)
        out.append(line)
    RESULTS.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
