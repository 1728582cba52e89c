"""Harness overhead of `judge_validation` over all 631 speeches, with an instant judge.

The judge is a scripted model answering at once, so the wall time is what
Inspect and this project add per speech (prompt filling, scoring, the
statistics with their 1,000-resample bootstrap, log writing), not model time.
Then the statistics alone: `summarise` over the same 631 scores, timed
`--stats-repeats` times.

    python tests/benchmarks/benchmark_validation.py [--connections N] [--stats-repeats N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.model import GenerateConfig, ModelOutput, ModelUsage, get_model

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from debatebench_eval.trust.speech_data import load_speeches
from debatebench_eval.trust.stats import Row, summarise
from debatebench_eval.validation.speech_task import judge_validation


def instant_judge() -> Any:
    means = {s.text: s.human_mean for s in load_speeches().speeches}

    def respond(input: list[Any], tools: Any, choice: Any, config: GenerateConfig) -> ModelOutput:
        text = str(input[-1].content).split("<speech>\n", 1)[1].split("\n</speech>", 1)[0]
        out = ModelOutput.from_content("judge", f"<score>{round(means[text])}</score>")
        out.usage = ModelUsage(input_tokens=800, output_tokens=8, total_tokens=808)
        return out

    return get_model("mockllm/instant", custom_outputs=respond)


def time_statistics(repeats: int) -> list[float]:
    """Seconds per `summarise` call over every speech, scored as the instant judge scores."""
    rows = [
        Row(s.id, float(round(s.human_mean)), s.human_mean, s.source, s.topic_id, s.ratings,
            s.labelers)
        for s in load_speeches().speeches
    ]  # fmt: skip
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        summarise(rows)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=10)
    parser.add_argument("--stats-repeats", type=int, default=5)
    args = parser.parse_args()
    start = time.perf_counter()
    task = judge_validation()
    built = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as logs:
        start = time.perf_counter()
        log = eval(task, model=instant_judge(), log_dir=logs, display="none",
                   max_connections=args.connections)[0]  # fmt: skip
        wall = time.perf_counter() - start
        n = len(log.samples or [])  # read while the log file still exists
    scores = log.results.scores if log.results else []
    metrics = {k: m.value for s in scores for k, m in s.metrics.items()}
    print(f"speeches: {n}, status {log.status}, max_connections {args.connections}")
    print(f"task construction (load + sha256 + prompts): {built:.2f} s")
    print(f"eval wall time: {wall:.2f} s = {1000 * wall / n:.1f} ms per speech")
    print(f"tau-c of the rounded-human-mean judge: {metrics['tau_c']:+.3f}")
    # The first call in a process pays one-time costs the eval above may not have
    # (lazy imports, caches); it is printed apart from the rest.
    first, *rest = time_statistics(max(args.stats_repeats, 2))
    print(f"statistics alone (summarise, {n} speeches, 1,000-resample bootstrap): first run "
          f"{first:.2f} s; {len(rest)} more: median {statistics.median(rest):.2f} s, "
          f"{min(rest):.2f}-{max(rest):.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
