"""Does deliberation beat one model? One answer, a majority vote, and a panel,
on the bundled questions with known answers.

Three conditions, the same model, the same generate settings (temperature,
seed), the same `ANSWER:` instruction and the same answer budget:

- single: one generate() per question;
- vote: k independent answers (seed + i), the most common `ANSWER:` wins (a tie
  goes to the earliest): the compute-matched baseline, k being the panel's calls
  per question (2 personas x rounds + the synthesis);
- panel: `debatebench/deliberate` with the shipped proposer and skeptic, `rounds`
  rounds, then the synthesizer's answer.

The task's own scorer (`match(numeric=True)`, the last number of the answer)
scores all three. Printed per condition: accuracy with its Wilson 95% interval,
the exact McNemar test of each baseline against the panel (same questions),
model calls and tokens per question, and wall time. Written to
results/benchmarks/deliberation-<name>.json and .txt.

    python tests/benchmarks/benchmark_deliberation.py                  # embedded SmolLM2-135M
    python tests/benchmarks/benchmark_deliberation.py --gguf FILE.gguf --name NAME
    python tests/benchmarks/benchmark_deliberation.py --limit 4        # a quick look
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import GenerateConfig, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver
from scipy.stats import binomtest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from debatebench_eval.cli.embedded import CONTEXT_TOKENS, MODEL_ALIAS, embedded_server
from debatebench_eval.core.resources import data_file
from debatebench_eval.protocols.answers import ANSWER_INSTRUCTION, parse_answer
from debatebench_eval.protocols.solver import deliberate

ROOT = Path(__file__).resolve().parents[2]
PANEL_SIZE = 2  # the shipped default table: proposer, skeptic


def questions(limit: int | None) -> MemoryDataset:
    path = data_file("tasks", "questions", "deliberation.jsonl")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    samples = [
        Sample(id=r["id"], input=r["input"], target=r["target"], metadata={"kind": r["kind"]})
        for r in rows[:limit]
    ]
    return MemoryDataset(samples, name="deliberation-questions")


@solver
def ask(instruction: str) -> Solver:
    """The question with the same ANSWER instruction the panel's final step gets."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.user_prompt.text = f"{state.user_prompt.text}\n\n{instruction}"
        return state

    return solve


@solver
def majority_vote(k: int, budget: int) -> Solver:
    """k answers with seeds seed+i; the most common ANSWER wins (ties: the earliest)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        base = int(hashlib.sha256(str(state.sample_id).encode()).hexdigest()[:6], 16)
        answers, usage = [], ModelUsage()
        for i in range(k):
            config = GenerateConfig(max_tokens=budget, seed=base + i)
            out = await model.generate(state.messages, config=config)
            answers.append(parse_answer(out.completion))
            if out.usage is not None:
                usage = usage + out.usage
        given = [a for a in answers if a is not None]
        winner = Counter(given).most_common(1)[0][0] if given else None
        state.output = ModelOutput.from_content(
            model=str(model), content=f"ANSWER: {winner}" if winner else "no answer"
        )
        state.output.usage = usage
        state.metadata["votes"] = answers
        return state

    return solve


def run(
    name: str, solvers: Any, model: str, args: argparse.Namespace, logs: str
) -> tuple[EvalLog, float]:
    task = Task(dataset=questions(args.limit), solver=solvers, scorer=match(numeric=True))
    start = time.perf_counter()
    log = eval(
        task, model=model, log_dir=logs, display="none", max_connections=1,
        temperature=args.temperature, seed=args.seed, max_tokens=args.answer_budget,
    )[0]  # fmt: skip
    wall = time.perf_counter() - start
    log = read_eval_log(log.location)
    if log.status != "success":
        raise SystemExit(f"{name}: the run failed: {log.error}")
    return log, wall


def summary(log: EvalLog, wall: float) -> dict[str, Any]:
    samples = log.samples or []
    correct = {str(s.id): s.scores["match"].value == "C" for s in samples}  # type: ignore[index]
    calls = sum(sum(1 for e in s.events if e.event == "model") for s in samples)
    tokens = sum(u.total_tokens for s in samples for u in s.model_usage.values())
    hits, n = sum(correct.values()), len(correct)
    interval = binomtest(hits, n).proportion_ci(method="wilson")
    kinds = Counter(str((s.metadata or {}).get("kind")) for s in samples if correct[str(s.id)])
    return {
        "accuracy": hits / n, "correct": hits, "n": n,
        "ci95": [round(interval.low, 3), round(interval.high, 3)],
        "correct_by_kind": dict(kinds),
        "calls_per_question": calls / n, "tokens_per_question": tokens / n,
        "wall_s": round(wall, 1), "per_question": correct,
    }  # fmt: skip


def mcnemar(a: dict[str, bool], b: dict[str, bool]) -> dict[str, Any]:
    """Exact McNemar test on the questions one condition got right and the other wrong."""
    only_a = sum(a[q] and not b[q] for q in a)
    only_b = sum(b[q] and not a[q] for q in a)
    p = binomtest(only_a, only_a + only_b, 0.5).pvalue if only_a + only_b else 1.0
    return {"only_baseline": only_a, "only_panel": only_b, "p": round(float(p), 4)}


def benchmark(args: argparse.Namespace, model: str) -> dict[str, Any]:
    k = PANEL_SIZE * args.rounds + 1
    conditions = {
        "single": [ask(ANSWER_INSTRUCTION), generate()],
        f"vote-{k}": [ask(ANSWER_INSTRUCTION), majority_vote(k, args.answer_budget)],
        "panel": deliberate(
            rounds=args.rounds,
            budget=args.turn_budget,
            final_budget=args.answer_budget,
            seed=args.seed,
        ),
    }
    results = {}
    logs = tempfile.mkdtemp(prefix="deliberation-benchmark-")
    for name, solvers in conditions.items():
        log, wall = run(name, solvers, model, args, logs)
        results[name] = summary(log, wall)
        print(
            f"{name}: {results[name]['correct']}/{results[name]['n']} in {wall:.0f} s", flush=True
        )
    panel = results["panel"]["per_question"]
    for name in conditions:
        if name != "panel":
            results[name]["vs_panel"] = mcnemar(results[name]["per_question"], panel)
    return results


def table(name: str, results: dict[str, Any], args: argparse.Namespace, load: str) -> str:
    lines = [
        f"model: {name}; {results['panel']['n']} questions; temperature {args.temperature}, "
        f"seed {args.seed}; answer budget {args.answer_budget}, panel turn budget "
        f"{args.turn_budget}, {args.rounds} rounds; {load}",
        f"{'condition':<9} {'accuracy':>8} {'95% CI':>13} {'McNemar vs panel':>24} "
        f"{'calls/q':>7} {'tokens/q':>8} {'wall':>7}",
    ]
    for cond, r in results.items():
        versus = r.get("vs_panel")
        test = (
            f"{versus['only_baseline']}:{versus['only_panel']}, p={versus['p']}" if versus else "-"
        )
        lines.append(
            f"{cond:<9} {r['accuracy']:>8.3f} {r['ci95'][0]:>6.3f}-{r['ci95'][1]:<6.3f} {test:>24} "
            f"{r['calls_per_question']:>7.1f} {r['tokens_per_question']:>8.0f} {r['wall_s']:>6.0f}s"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gguf", type=Path, help="serve this GGUF instead of SmolLM2-135M")
    parser.add_argument("--name", default="smollm2-135m", help="name for the results files")
    parser.add_argument("--limit", type=int, help="only the first N questions")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--turn-budget", type=int, default=192)
    parser.add_argument("--answer-budget", type=int, default=192)
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--save", action="store_true", help="write results even with --limit")
    parser.add_argument("--load", default="", help="what else ran on the machine, for the record")
    args = parser.parse_args()
    alias = MODEL_ALIAS if args.gguf is None else args.name
    with embedded_server(threads=args.threads, gguf=args.gguf, alias=alias) as base_url:
        os.environ["OLLAMA_BASE_URL"] = base_url
        results = benchmark(args, f"ollama/{alias}")
    load = (
        f"machine: {os.cpu_count()} cores, llama.cpp {args.threads} threads, "
        f"context {CONTEXT_TOKENS}"
    )
    text = table(args.name, results, args, f"{load}; {args.load}" if args.load else load)
    print(text)
    if args.limit is None or args.save:
        subset = f"-first{args.limit}" if args.limit else ""
        # Not Path.with_suffix: a model name such as qwen2.5-coder has a dot in it.
        out = ROOT / "results" / "benchmarks" / f"deliberation-{args.name}{subset}"
        Path(f"{out}.json").write_text(
            json.dumps(
                {
                    "settings": vars(args) | {"gguf": args.gguf and args.gguf.name},
                    "results": results,
                },
                indent=2,
            )
            + "\n"
        )
        Path(f"{out}.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()
