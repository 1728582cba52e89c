"""Does a judge who cannot read the evidence find the truth after hearing debate?

All five protocols of `debatebench/oversight` (naive, expert, consultancy,
debate, open) on the same questions of the shipped set, one model in every
role, served by the embedded llama.cpp server. Printed per protocol: the
judge's accuracy with its interval, the questions scored, the accuracy when
the right answer was A and when it was B (position bias), model calls and
tokens per question, and wall time; the accuracy per question category (each
passage's questions, the traps); then the paired differences over the
questions both protocols scored (`debatebench-eval oversight compare`'s
table). Written to results/benchmarks/oversight-<name>-<questions>.txt and .json.

The report is built from every finished log in `--log-dir`, so a long run can
be split into shards (`--start`, `--limit`), run one after another or side by
side into one folder, and reported once (`--report-only`); the assignment of
sides and answer order is drawn over the whole set, so shards agree with one
run. A sample that runs past `--sample-time-limit` is recorded as an error and
the run goes on.

    python tests/benchmarks/benchmark_oversight.py                       # embedded SmolLM2-135M
    python tests/benchmarks/benchmark_oversight.py --gguf FILE.gguf --name NAME
    python tests/benchmarks/benchmark_oversight.py --limit 4             # a quick look
    python tests/benchmarks/benchmark_oversight.py --questions traps     # the trap questions
    python tests/benchmarks/benchmark_oversight.py --log-dir D --start 38  # a second shard
    python tests/benchmarks/benchmark_oversight.py --log-dir D --report-only --save
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog, EvalSample, list_eval_logs, read_eval_log
from inspect_ai.scorer import SampleScore

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from debatebench_eval.cli.embedded import CONTEXT_TOKENS, MODEL_ALIAS, embedded_server
from debatebench_eval.core.resources import data_file
from debatebench_eval.known_answer.assignment import PROTOCOLS
from debatebench_eval.known_answer.comparison import comparison_table
from debatebench_eval.known_answer.log_reader import compare_logs, judge_score
from debatebench_eval.known_answer.scorer import headline
from debatebench_eval.known_answer.task import oversight

ROOT = Path(__file__).resolve().parents[2]
# The naive judge first: the floor every other protocol is read against.
ORDER = ("naive", "expert", "consultancy", "debate", "open")
assert set(ORDER) == set(PROTOCOLS)
SHIPPED = data_file("tasks", "oversight", "questions.jsonl")


def question_file(which: str, folder: Path) -> str | None:
    """The shipped set (None: the task's default), or only its passage or trap questions."""
    if which == "all":
        return None
    shipped = SHIPPED.read_text().splitlines()
    chosen = [
        row for row in shipped if (json.loads(row)["category"] == "trap") == (which == "traps")
    ]
    path = folder / f"questions-{which}.jsonl"
    path.write_text("\n".join(chosen) + "\n")
    return str(path)


def run(protocol: str, model: str, args: argparse.Namespace) -> None:
    """One protocol over the chosen questions, its log written to `args.log_dir`."""
    task = oversight(
        protocol=protocol, questions=args.question_file, rounds=args.rounds,
        budget=args.budget, judge_budget=args.judge_budget, answer_orders=args.answer_orders,
        judge_each_round=args.judge_each_round, stop_when_confident=args.stop_when_confident,
    )  # fmt: skip
    start = time.perf_counter()
    log = eval(
        task, model=model, log_dir=args.log_dir, display="none", limit=args.slice,
        seed=args.seed, max_connections=1, time_limit=args.sample_time_limit,
    )[0]  # fmt: skip
    if log.status != "success":
        raise SystemExit(f"{protocol}: the run failed: {log.error}")
    errors = sum(1 for s in read_eval_log(log.location).samples or [] if s.error)
    print(
        f"{protocol}: {log.results and log.results.completed_samples} samples, {errors} "
        f"errors, in {time.perf_counter() - start:.0f} s",
        flush=True,
    )


def finished_logs(folder: str) -> dict[str, list[EvalLog]]:
    """The folder's finished oversight logs by protocol; they must share one model and
    one set of task settings (shards of one benchmark), and no question twice."""
    found: dict[str, list[EvalLog]] = {}
    settings: set[str] = set()
    for info in list_eval_logs(folder):
        log = read_eval_log(info.name)
        protocol = (log.eval.metadata or {}).get("protocol")
        if log.status == "started" or not protocol:
            continue
        args = {k: v for k, v in log.eval.task_args.items() if k != "protocol"}
        seed = log.eval.model_generate_config.seed
        settings.add(json.dumps([log.eval.model, args, seed], sort_keys=True))
        found.setdefault(protocol, []).append(log)
    if len(settings) > 1:
        raise SystemExit(f"{folder} holds logs of different settings: {sorted(settings)}")
    for protocol, logs in found.items():
        ids = [s.id for log in logs for s in log.samples or []]
        if len(ids) != len(set(ids)):
            raise SystemExit(f"{folder}: shards of {protocol} overlap (a question twice)")
    return {p: found[p] for p in ORDER if p in found}


def summary(logs: list[EvalLog]) -> dict[str, Any]:
    """One protocol's figures over all its shards, from the samples' scores (the same
    function as the log's own metrics, `headline`)."""
    samples = [s for log in logs for s in log.samples or []]
    figures = headline(_scores(samples))
    calls = sum(sum(1 for e in s.events if e.event == "model") for s in samples)
    tokens = sum(u.total_tokens for s in samples for u in s.model_usage.values())
    n = len(samples) or 1
    keep = ("accuracy", "accuracy_low", "accuracy_high", "questions", "brier",
            "accuracy_right_first", "accuracy_right_second", "position_bias",
            "position_bias_low", "position_bias_high", "accuracy_order_drawn",
            "accuracy_order_exchanged", "orders_disagree", "stopped_early",
            "rounds_heard")  # fmt: skip
    rounds = {k: v for k, v in figures.items() if k.startswith("accuracy_round_")}
    return {
        **{k: figures.get(k) for k in keep},
        "by_round": rounds,
        "samples": len(samples),
        "errors": sum(1 for s in samples if s.error),
        "calls_per_question": round(calls / n, 1),
        "tokens_per_question": round(tokens / n),
        "wall_s": round(sum(_seconds(log) for log in logs), 1),
        "by_category": by_category(samples),
        "logs": sorted(Path(log.location).name for log in logs),
    }


def _scores(samples: list[EvalSample]) -> list[SampleScore]:
    return [
        SampleScore(score=score, sample_id=s.id)
        for s in samples
        if (score := judge_score(s.scores or {})) is not None
    ]


def by_category(samples: list[EvalSample]) -> dict[str, dict[str, Any]]:
    """Accuracy per question category (each passage's questions, the traps): a judge
    that finds the truth on one kind of question and not the other shows here."""
    groups: dict[str, list[EvalSample]] = {}
    for sample in samples:
        groups.setdefault((sample.metadata or {}).get("category", "?"), []).append(sample)
    return {
        category: {k: headline(_scores(group)).get(k) for k in ("accuracy", "questions")}
        for category, group in sorted(groups.items())
    }


def category_table(results: dict[str, Any]) -> str:
    categories = sorted({c for r in results.values() for c in r["by_category"]})
    width = max(len(c) for c in categories)
    lines = ["accuracy by question category (questions scored)",
             f"{'protocol':<12} " + " ".join(f"{c:>{width}}" for c in categories)]  # fmt: skip
    for protocol, r in results.items():
        cells = []
        for category in categories:
            found = r["by_category"].get(category) or {"accuracy": None, "questions": 0}
            cells.append(f"{_fixed(found['accuracy'])} ({found['questions'] or 0:.0f})")
        lines.append(f"{protocol:<12} " + " ".join(f"{cell:>{width}}" for cell in cells))
    return "\n".join(lines)


def _seconds(log: EvalLog) -> float:
    began, ended = log.stats.started_at, log.stats.completed_at
    return (datetime.fromisoformat(ended) - datetime.fromisoformat(began)).total_seconds()


def _fixed(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def order_table(results: dict[str, Any]) -> str:
    """Both answer orders: each order's accuracy (the drawn one is what a run with
    answer_orders=one reports), the share of samples whose orders disagree, the
    position bias with its interval, and the accuracy after each round."""
    lines = [f"{'protocol':<12} {'drawn':>6} {'exchanged':>9} {'both':>6} {'disagree':>8} "
             f"{'position bias (95%)':>26}  accuracy by round"]  # fmt: skip
    for protocol, r in results.items():
        bias = r["position_bias"]
        shown = (
            "-"
            if bias is None
            else (f"{bias:+.3f} ({r['position_bias_low']:+.3f} to {r['position_bias_high']:+.3f})")
        )
        by_round = " ".join(f"{k.rsplit('_', 1)[1]}:{v:.3f}" for k, v in r["by_round"].items())
        stopped = (
            ""
            if r["stopped_early"] is None
            else (f"; stopped early {r['stopped_early']:.3f}, rounds heard {r['rounds_heard']:.2f}")
        )
        lines.append(
            f"{protocol:<12} {_fixed(r['accuracy_order_drawn']):>6} "
            f"{_fixed(r['accuracy_order_exchanged']):>9} {_fixed(r['accuracy']):>6} "
            f"{_fixed(r['orders_disagree']):>8} {shown:>26}  {by_round or '-'}{stopped}"
        )
    return "\n".join(lines)


def table(results: dict[str, Any]) -> str:
    lines = [
        f"{'protocol':<12} {'accuracy':>8} {'95% interval':>13} {'questions':>9} "
        f"{'right=A':>7} {'right=B':>7} {'brier':>6} {'errors':>6} {'calls/q':>7} "
        f"{'tokens/q':>8} {'wall':>7}"
    ]
    for protocol, r in results.items():
        low, high = r["accuracy_low"], r["accuracy_high"]
        interval = "-" if low is None else f"{low:.3f}-{high:.3f}"
        lines.append(
            f"{protocol:<12} {_fixed(r['accuracy']):>8} {interval:>13} "
            f"{r['questions'] or 0:>9.0f} {_fixed(r['accuracy_right_first']):>7} "
            f"{_fixed(r['accuracy_right_second']):>7} {_fixed(r['brier']):>6} "
            f"{r['errors']:>6} {r['calls_per_question']:>7.1f} {r['tokens_per_question']:>8} "
            f"{r['wall_s']:>6.0f}s"
        )
    return "\n".join(lines)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gguf", type=Path, help="serve this GGUF instead of SmolLM2-135M")
    parser.add_argument("--name", default="smollm2-135m", help="name for the results files")
    parser.add_argument("--questions", choices=("all", "passages", "traps"), default="all")
    parser.add_argument("--start", type=int, default=0, help="skip the first N questions")
    parser.add_argument("--limit", type=int, help="only N questions (from --start)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--budget", type=int, default=120, help="tokens per speech")
    parser.add_argument("--judge-budget", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--answer-orders", choices=("both", "one"), default="both")
    parser.add_argument("--judge-each-round", action="store_true")
    parser.add_argument("--stop-when-confident", type=float, help="e.g. 0.9")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--protocols", nargs="+", choices=ORDER, default=list(ORDER))
    parser.add_argument(
        "--sample-time-limit", type=int, default=900,
        help="seconds a sample may run before it is recorded as an error",
    )  # fmt: skip
    parser.add_argument("--log-dir", help="the logs' folder (default: a new temporary one)")
    parser.add_argument(
        "--report-only", action="store_true", help="run nothing: report the logs in --log-dir"
    )
    parser.add_argument("--save", action="store_true", help="write the results files")
    parser.add_argument("--load", default="", help="what else ran on the machine, for the record")
    args = parser.parse_args()
    if args.report_only and not args.log_dir:
        parser.error("--report-only reads the logs of --log-dir: name it")
    args.log_dir = args.log_dir or tempfile.mkdtemp(prefix="oversight-benchmark-")
    return args


def report(args: argparse.Namespace) -> str:
    """The figures of every finished log in the folder, with the settings they ran."""
    by_protocol = finished_logs(args.log_dir)
    if not by_protocol:
        raise SystemExit(f"{args.log_dir}: no finished oversight log to report")
    results = {protocol: summary(logs) for protocol, logs in by_protocol.items()}
    first = next(iter(by_protocol.values()))[0].eval
    settings = first.task_args
    # The load says what ran beside the benchmark: not known when only reporting.
    load = "" if args.report_only else f"; load at the end {os.getloadavg()[0]:.1f}"
    head = (
        f"model: {args.name}; questions: {args.questions}, "
        f"{max(r['samples'] for r in results.values())} run; {settings.get('rounds')} rounds, "
        f"{settings.get('budget')}-token speeches, judge budget "
        f"{settings.get('judge_budget')}, answer orders {settings.get('answer_orders')}, "
        f"judge each round {settings.get('judge_each_round')}, stop when confident "
        f"{settings.get('stop_when_confident')}, seed {first.model_generate_config.seed}; machine: "
        f"{os.cpu_count()} cores, llama.cpp {args.threads} threads, context "
        f"{CONTEXT_TOKENS}{load}{f'; {args.load}' if args.load else ''}"
    )
    text = (
        f"{head}\n{table(results)}\n\n{order_table(results)}\n\n{category_table(results)}"
        f"\n\n{comparison_table(compare_logs([args.log_dir]))}"
    )
    if args.save:
        out = ROOT / "results" / "benchmarks" / f"oversight-{args.name}-{args.questions}"
        kept = {k: v for k, v in vars(args).items() if k not in ("question_file", "slice")}
        record = {"settings": kept | {"gguf": args.gguf and args.gguf.name}, "results": results}
        Path(f"{out}.json").write_text(json.dumps(record, indent=2, default=str) + "\n")
        Path(f"{out}.txt").write_text(text + "\n")
    return text


def main() -> None:
    args = arguments()
    # In the log folder: its path is a task argument, the same for every shard.
    args.question_file = question_file(args.questions, Path(args.log_dir))
    # The end no further than the last question: the viewer reads the slice as the
    # shard's size ("18 / 999942 samples" with an open end).
    count = len(Path(args.question_file or SHIPPED).read_text().splitlines())
    end = count if args.limit is None else min(count, args.start + args.limit)
    args.slice = (args.start, end)
    if not args.report_only:
        alias = MODEL_ALIAS if args.gguf is None else args.name
        with embedded_server(threads=args.threads, gguf=args.gguf, alias=alias) as base_url:
            os.environ["OLLAMA_BASE_URL"] = base_url
            for protocol in args.protocols:
                run(protocol, f"ollama/{alias}", args)
    print(report(args))


if __name__ == "__main__":
    main()
