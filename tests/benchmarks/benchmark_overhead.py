"""Harness overhead: Inspect's own floor, and what this project adds, at 200 ms per call.

The same calls run twice through a scripted model that takes 200 ms a reply:
(1) a bare Inspect task whose solver makes each debate's calls with nothing
around them (Inspect's floor: sample setup, model-call plumbing, logging);
(2) the `debate` task (prompts, records, spans, headings, the store). Both
run one call at a time, so each one's model time is calls x 200 ms, and
scoring is off in both: judging is more model calls, not harness. Printed:
model time, each run's overhead over it, and the project's addition as a
share of model time (target: at most 5%).

    python tests/benchmark_overhead.py [--debates 16] [--latency 0.2]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig, ModelOutput, ModelUsage, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from debatebench_eval.debating.task import debate

PHASES = "[opening, rebuttal, conclusion]"
CALLS_PER_DEBATE = 6


def slow_model(latency: float) -> Any:
    def respond(input: list[Any], tools: Any, choice: Any, config: GenerateConfig) -> ModelOutput:
        time.sleep(latency)  # one call at a time (max_samples 1), so blocking is the model's time
        out = ModelOutput.from_content("slow", "A speech of a few words for the benchmark.")
        out.usage = ModelUsage(input_tokens=200, output_tokens=10, total_tokens=210)
        return out

    return get_model("mockllm/slow", custom_outputs=respond)


@solver
def bare_calls(calls: int) -> Solver:
    """The debate's model calls with nothing around them."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        for _ in range(calls):
            state = await generate(state)
        return state

    return solve


def timed(task: Task, latency: float) -> float:
    with tempfile.TemporaryDirectory() as logs:
        start = time.perf_counter()
        log = eval(task, model=slow_model(latency), log_dir=logs, display="none", max_samples=1,
                   score=False)[0]  # fmt: skip
        wall = time.perf_counter() - start
        assert log.status == "success", log.error
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--debates", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.2)
    args = parser.parse_args()
    model_time = args.debates * CALLS_PER_DEBATE * args.latency
    samples = [Sample(id=f"d{i}", input="Motion: benchmark") for i in range(args.debates)]
    floor_task = Task(dataset=MemoryDataset(samples), solver=bare_calls(CALLS_PER_DEBATE))
    motions = Path(tempfile.mkdtemp()) / "motions.yaml"
    motions.write_text(
        "motions:\n"
        + "".join(
            f"  - {{id: m{i}, motion: Motion number {i} passes.}}\n" for i in range(args.debates)
        ),
        encoding="utf-8",
    )
    ours_task = debate(motions=str(motions), phases=PHASES, probe=False)
    timed(floor_task, 0.0)  # warm imports and caches before measuring
    floor = timed(floor_task, args.latency)
    ours = timed(ours_task, args.latency)
    print(f"{args.debates} debates x {CALLS_PER_DEBATE} calls at {args.latency * 1000:.0f} ms: "
          f"model time {model_time:.2f} s")  # fmt: skip
    print(f"Inspect floor: {floor:.2f} s wall, overhead {floor - model_time:.2f} s "
          f"({100 * (floor - model_time) / model_time:.1f}% of model time)")  # fmt: skip
    added = ours - floor
    print(f"debate task:   {ours:.2f} s wall; the project's addition over the floor "
          f"{added:.2f} s ({100 * added / model_time:.1f}% of model time)")  # fmt: skip


if __name__ == "__main__":
    main()
