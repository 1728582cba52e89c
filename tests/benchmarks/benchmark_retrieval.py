"""Retrieval at corpus scale: index build time, peak memory, query latency, against a full scan.

Generates a synthetic shared pool (default 400,000 rows of about 150 words,
500 topics, Zipf-distributed vocabulary; topics are three words drawn, also
Zipf-weighted, from 400 topic words, so a common topic word such as a real
pool's "tax" is shared by many topics and a query's candidates, rows whose
topic shares a word with the motion's, run to tens of thousands), then
measures, each in a fresh process so peak memory is the step's own:

- building the index (time, peak RSS),
- 1,000 queries on the built index (p50 / p95 latency and candidate rows;
  the cache is loaded once, as a run does), and the first query with the
  cached index's load counted in,
- a plain full scan like debatebench's (every row read and scored in Python
  by keyword overlap with the topic and motion words) for 20 queries,
- with `--bm25s-build`, bm25s's own build (`BM25.index`) over the same rows
  and tokens, the path this project's vectorised build replaces (time, peak RSS).

`--builds N` repeats our build, each in a fresh process with no cache, to show
its spread.

    python tests/benchmarks/benchmark_retrieval.py [--rows N] [--queries N] [--scan-queries N]
                                                   [--builds N] [--bm25s-build]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from debatebench_eval.prep import index as retrieval

WORDS_PER_ROW = 150
TOPICS = 500
TOPIC_WORDS = 400
VOCABULARY = 30_000


def generate(path: Path, rows: int, seed: int = 0) -> list[str]:
    """Write the pool; return the topics (each a phrase of three topic words)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = [
        "".join(rng.choice(list(letters), size=int(rng.integers(3, 10)))) for _ in range(VOCABULARY)
    ]
    topic_weights = 1 / np.arange(1, TOPIC_WORDS + 1)
    topic_weights /= topic_weights.sum()
    topics = sorted(
        {
            " ".join(rng.choice(words[:TOPIC_WORDS], size=3, p=topic_weights))
            for _ in range(TOPICS * 2)
        }
    )[:TOPICS]
    weights = 1 / np.arange(1, VOCABULARY + 1)
    weights /= weights.sum()
    with path.open("w", encoding="utf-8") as handle:
        for start in range(0, rows, 10_000):
            block = rng.choice(
                VOCABULARY, size=(min(10_000, rows - start), WORDS_PER_ROW), p=weights
            )
            for offset, ids in enumerate(block):
                number = start + offset
                topic = topics[number % TOPICS]
                text = topic + " " + " ".join(words[i] for i in ids)
                side = "pro" if (number // TOPICS) % 2 == 0 else "con"
                row = {
                    "id": f"r{number}",
                    "topic": topic,
                    "side": side,
                    "source": "synthetic",
                    "text": text,
                }
                handle.write(json.dumps(row) + "\n")
    return topics


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _build(path: str, queue: Any) -> None:
    start = time.perf_counter()
    retrieval.PoolIndex.open(Path(path), shared=True)
    queue.put((time.perf_counter() - start, peak_rss_mb()))


def _bm25s_build(path: str, queue: Any) -> None:
    """bm25s's own index over the tokens our build gives it: read, tokenise, `index`."""
    import bm25s

    start = time.perf_counter()
    with open(path, encoding="utf-8") as handle:
        rows = (json.loads(line) for line in handle)
        corpus = [retrieval.document_tokens(row["topic"], row["text"]) for row in rows]
    bm25s.BM25(k1=retrieval.K1, b=retrieval.B).index(corpus, show_progress=False)
    queue.put((time.perf_counter() - start, peak_rss_mb()))


def _query(path: str, topics: list[str], n: int, queue: Any) -> None:
    start = time.perf_counter()
    index = retrieval.PoolIndex.open(Path(path), shared=True)
    load = time.perf_counter() - start
    rng = random.Random(1)
    times, candidates = [], []
    for _ in range(n):
        topic = rng.choice(topics)
        query = f"{topic} should be decided by {rng.choice(topics)}"
        side = rng.choice(["pro", "con"])
        start = time.perf_counter()
        index.search(query, topic, side)
        times.append(time.perf_counter() - start)
        candidates.append(int(index._candidates(topic, side, "words").size))
    queue.put((load, times, candidates, peak_rss_mb()))


def _scan(path: str, topics: list[str], n: int, queue: Any) -> None:
    rng = random.Random(2)
    times = []
    for _ in range(n):
        topic = rng.choice(topics)
        words = set(retrieval.tokens(f"{topic} should be decided by {rng.choice(topics)}"))
        topic_words = set(retrieval.tokens(topic))
        start = time.perf_counter()
        scored = []
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                if row["side"] != "pro":
                    continue
                text = set(retrieval.tokens(row["text"]))
                overlap = 2 * len(topic_words & set(retrieval.tokens(row["topic"]))) + len(
                    words & text
                )
                if overlap:
                    scored.append((overlap, row["id"]))
        sorted(scored, reverse=True)[:10]
        times.append(time.perf_counter() - start)
    queue.put((times, peak_rss_mb()))


def in_child(target: Any, *args: Any) -> Any:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=target, args=(*args, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=400_000)
    parser.add_argument("--queries", type=int, default=1_000)
    parser.add_argument("--scan-queries", type=int, default=20)
    parser.add_argument("--builds", type=int, default=1, help="our build, this many times")
    parser.add_argument(
        "--bm25s-build", action="store_true", help="also time bm25s's own BM25.index (slow)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        pool = Path(work) / "pool.jsonl"
        start = time.perf_counter()
        topics = generate(pool, args.rows)
        size = pool.stat().st_size / 1e6
        print(f"pool: {args.rows:,} rows, {TOPICS} topics, {size:,.0f} MB "
              f"(generated in {time.perf_counter() - start:.0f} s)")  # fmt: skip
        import os

        for number in range(1, args.builds + 1):
            # A fresh cache folder each time, so every build is a build, not a load.
            os.environ[retrieval.CACHE_VAR] = str(Path(work) / f"cache-{number}")
            build_s, build_mb = in_child(_build, str(pool))
            print(f"index build {number}: {build_s:.1f} s, peak RSS {build_mb:,.0f} MB")
        if args.bm25s_build:
            own_s, own_mb = in_child(_bm25s_build, str(pool))
            print(f"bm25s's own build (BM25.index, same rows and tokens): {own_s:.1f} s, "
                  f"peak RSS {own_mb:,.0f} MB")  # fmt: skip
        load_s, times, candidates, query_mb = in_child(_query, str(pool), topics, args.queries)
        ms = sorted(t * 1000 for t in times)
        p50, p95 = statistics.median(ms), ms[int(0.95 * len(ms)) - 1]
        print(f"indexed query ({len(ms)}): p50 {p50:.2f} ms, p95 {p95:.2f} ms over "
              f"{statistics.median(candidates):,.0f} candidate rows (median, max "
              f"{max(candidates):,}); peak RSS {query_mb:,.0f} MB")  # fmt: skip
        print(
            f"first query with the cached index's load: {load_s * 1000 + times[0] * 1000:,.0f} ms"
            f" (load {load_s:.2f} s)"
        )
        scan_times, scan_mb = in_child(_scan, str(pool), topics, args.scan_queries)
        scan_ms = statistics.median(t * 1000 for t in scan_times)
        print(f"full scan ({len(scan_times)}): p50 {scan_ms:,.0f} ms, peak RSS {scan_mb:,.0f} MB")
        print(
            f"indexed query is {scan_ms / p50:,.0f}x faster than the full scan (p50); "
            f"{scan_ms / (load_s * 1000 + p50):,.0f}x with the index load counted"
        )


if __name__ == "__main__":
    main()
