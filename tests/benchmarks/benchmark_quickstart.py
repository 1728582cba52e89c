"""README command 1's quickstart, timed: the whole command, and the debate and judging in it.

Runs `debatebench-eval quickstart` (the embedded SmolLM2 server started, one
4-turn debate, the rubric judge in both orientations and the fact-check) into
a fresh log folder, `--runs` times. Printed per run and over the runs (median,
min-max): the command's wall time, and from the log the debate alone (Inspect's
`solvers` span) and the judging (its `scorers` span).

    python tests/benchmarks/benchmark_quickstart.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from inspect_ai.event import SpanBeginEvent, SpanEndEvent
from inspect_ai.log import list_eval_logs, read_eval_log

BIN = Path(sys.executable).parent


def span_seconds(log_dir: str) -> dict[str, float]:
    """Seconds of the sample's `solvers` and `scorers` spans."""
    log = read_eval_log(list_eval_logs(log_dir)[0].name)
    (sample,) = log.samples or []
    if sample.error is not None:
        raise SystemExit(f"the quickstart's debate failed: {sample.error.message}")
    begins = {e.id: e for e in sample.events if isinstance(e, SpanBeginEvent)}
    seconds = {}
    for end in (e for e in sample.events if isinstance(e, SpanEndEvent)):
        begin = begins.get(end.id)
        if begin is not None and begin.name in ("solvers", "scorers"):
            seconds[begin.name] = (end.timestamp - begin.timestamp).total_seconds()
    return seconds


def spread(values: list[float]) -> str:
    return f"median {statistics.median(values):.1f} s ({min(values):.1f}-{max(values):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{datetime.now():%Y-%m-%d %H:%M}: debatebench-eval quickstart, {args.runs} runs; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
    walls, debates, judging = [], [], []
    for number in range(1, args.runs + 1):
        with tempfile.TemporaryDirectory() as logs:
            start = time.perf_counter()
            subprocess.run(
                [str(BIN / "debatebench-eval"), "quickstart", "--log-dir", logs],
                check=True,
                capture_output=True,
            )
            walls.append(time.perf_counter() - start)
            spans = span_seconds(logs)
        debates.append(spans["solvers"])
        judging.append(spans["scorers"])
        print(f"run {number}: wall {walls[-1]:.1f} s; debate {debates[-1]:.1f} s, "
              f"judging {judging[-1]:.1f} s", flush=True)  # fmt: skip
    print(f"quickstart: wall {spread(walls)}; the debate alone {spread(debates)}; "
          f"judging {spread(judging)}")  # fmt: skip


if __name__ == "__main__":
    main()
