"""Does a judge who cannot read the evidence find the truth after hearing debate?

All five protocols of `debatebench/oversight` (naive, expert, consultancy,
debate, open) on the same questions of the shipped set, one model in every
role, served by the embedded llama.cpp server. Printed per protocol: the
judge's accuracy with its interval, the questions scored, model calls and
tokens per question, and wall time; then the paired differences over the
questions both protocols scored (`debatebench-eval oversight compare`'s
table). Written to results/benchmarks/oversight-<name>.txt and .json.

    python tests/benchmarks/benchmark_oversight.py                       # embedded SmolLM2-135M
    python tests/benchmarks/benchmark_oversight.py --gguf FILE.gguf --name NAME
    python tests/benchmarks/benchmark_oversight.py --limit 4             # a quick look
    python tests/benchmarks/benchmark_oversight.py --questions traps     # the trap questions
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from debatebench_eval.cli.embedded import CONTEXT_TOKENS, MODEL_ALIAS, embedded_server
from debatebench_eval.core.resources import data_file
from debatebench_eval.known_answer.assignment import PROTOCOLS
from debatebench_eval.known_answer.comparison import comparison_table
from debatebench_eval.known_answer.log_reader import compare_logs
from debatebench_eval.known_answer.task import oversight

ROOT = Path(__file__).resolve().parents[2]
# The naive judge first: the floor every other protocol is read against.
ORDER = ("naive", "expert", "consultancy", "debate", "open")
assert set(ORDER) == set(PROTOCOLS)


def question_file(which: str, folder: Path) -> str | None:
    """The shipped set (None: the task's default), or only its passage or trap questions."""
    if which == "all":
        return None
    shipped = data_file("tasks", "oversight", "questions.jsonl").read_text().splitlines()
    chosen = [
        row for row in shipped if (json.loads(row)["category"] == "trap") == (which == "traps")
    ]
    path = folder / f"questions-{which}.jsonl"
    path.write_text("\n".join(chosen) + "\n")
    return str(path)


def run(protocol: str, model: str, args: argparse.Namespace, logs: str) -> tuple[EvalLog, float]:
    task = oversight(
        protocol=protocol, questions=args.question_file, rounds=args.rounds,
        budget=args.budget, judge_budget=args.judge_budget,
    )  # fmt: skip
    start = time.perf_counter()
    log = eval(
        task, model=model, log_dir=logs, display="none", limit=args.limit, seed=args.seed,
        max_connections=1,
    )[0]  # fmt: skip
    wall = time.perf_counter() - start
    log = read_eval_log(log.location)
    if log.status != "success":
        raise SystemExit(f"{protocol}: the run failed: {log.error}")
    return log, wall


def summary(log: EvalLog, wall: float) -> dict[str, Any]:
    samples = log.samples or []
    metrics = {
        k: m.value
        for s in (log.results.scores if log.results else [])
        for k, m in s.metrics.items()
    }
    calls = sum(sum(1 for e in s.events if e.event == "model") for s in samples)
    tokens = sum(u.total_tokens for s in samples for u in s.model_usage.values())
    n = len(samples) or 1
    keep = ("accuracy", "accuracy_low", "accuracy_high", "questions", "brier")
    return {
        **{k: metrics.get(k) for k in keep},
        "samples": len(samples),
        "calls_per_question": round(calls / n, 1),
        "tokens_per_question": round(tokens / n),
        "wall_s": round(wall, 1),
        "log": Path(log.location).name,
    }


def table(results: dict[str, Any]) -> str:
    lines = [
        f"{'protocol':<12} {'accuracy':>8} {'95% interval':>15} {'questions':>9} {'brier':>6} "
        f"{'calls/q':>7} {'tokens/q':>8} {'wall':>7}"
    ]
    for protocol, r in results.items():
        acc = "-" if r["accuracy"] is None else f"{r['accuracy']:.3f}"
        low, high = r["accuracy_low"], r["accuracy_high"]
        interval = "-" if low is None else f"{low:.3f}-{high:.3f}"
        brier = "-" if r["brier"] is None else f"{r['brier']:.3f}"
        lines.append(
            f"{protocol:<12} {acc:>8} {interval:>15} {r['questions'] or 0:>9.0f} {brier:>6} "
            f"{r['calls_per_question']:>7.1f} {r['tokens_per_question']:>8} {r['wall_s']:>6.0f}s"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gguf", type=Path, help="serve this GGUF instead of SmolLM2-135M")
    parser.add_argument("--name", default="smollm2-135m", help="name for the results files")
    parser.add_argument("--questions", choices=("all", "passages", "traps"), default="all")
    parser.add_argument("--limit", type=int, help="only the first N questions")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--budget", type=int, default=120, help="tokens per speech")
    parser.add_argument("--judge-budget", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--protocols", nargs="+", choices=ORDER, default=list(ORDER))
    parser.add_argument("--save", action="store_true", help="write the results files")
    parser.add_argument("--load", default="", help="what else ran on the machine, for the record")
    args = parser.parse_args()
    logs = tempfile.mkdtemp(prefix="oversight-benchmark-")
    args.question_file = question_file(args.questions, Path(logs))
    alias = MODEL_ALIAS if args.gguf is None else args.name
    results: dict[str, Any] = {}
    with embedded_server(threads=args.threads, gguf=args.gguf, alias=alias) as base_url:
        os.environ["OLLAMA_BASE_URL"] = base_url
        for protocol in args.protocols:
            log, wall = run(protocol, f"ollama/{alias}", args, logs)
            results[protocol] = summary(log, wall)
            print(
                f"{protocol}: accuracy {results[protocol]['accuracy']} in {wall:.0f} s", flush=True
            )
    load = os.getloadavg()
    head = (
        f"model: {args.name}; questions: {args.questions}"
        f"{f' (first {args.limit})' if args.limit else ''}; {args.rounds} rounds, "
        f"{args.budget}-token speeches, judge budget {args.judge_budget}, seed {args.seed}; "
        f"machine: {os.cpu_count()} cores, llama.cpp {args.threads} threads, context "
        f"{CONTEXT_TOKENS}; load at the end {load[0]:.1f}{f'; {args.load}' if args.load else ''}"
    )
    text = f"{head}\n{table(results)}\n\n{comparison_table(compare_logs([logs]))}"
    print(text)
    if args.save:
        out = ROOT / "results" / "benchmarks" / f"oversight-{args.name}-{args.questions}"
        settings = vars(args) | {"gguf": args.gguf and args.gguf.name, "question_file": None}
        Path(f"{out}.json").write_text(
            json.dumps({"settings": settings, "results": results}, indent=2, default=str) + "\n"
        )
        Path(f"{out}.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()
