"""The `oversight` task: known-answer questions under one protocol, scored on accuracy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.calls import DEFAULT_MAX_RETRIES
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import task_taker
from debatebench_eval.core.run_options import run_options
from debatebench_eval.judging.options import JudgeCalls
from debatebench_eval.known_answer.assignment import PROTOCOLS, assignments
from debatebench_eval.known_answer.quality import load_quality
from debatebench_eval.known_answer.questions import Question, default_questions, load_questions
from debatebench_eval.known_answer.scorer import judge_accuracy
from debatebench_eval.known_answer.solver import Setup, oversight_solver

DEFAULT_ROUNDS = 3
DEFAULT_BUDGET = 300
OWN_ARGS = (
    "questions",
    "quality",
    "quality_hard",
    "protocol",
    "rounds",
    "sequential",
    "interactive",
    "budget",
    "judging",
)
ARGS = (*OWN_ARGS, "seed", "timeout", "empty_retries", "probe")


@task
def oversight(
    protocol: str = "debate",
    questions: str | None = None,
    quality: str | None = None,
    quality_hard: bool = True,
    rounds: int | None = None,
    sequential: bool = False,
    interactive: bool = False,
    budget: int | None = None,
    judging: dict[str, Any] | None = None,
    **unknown: Any,
) -> Task:
    """Known-answer questions: does a judge who cannot read the evidence find the truth?

    Args:
        protocol: debate (the default: two debaters, pro and con, each assigned one
            answer), consultancy (one consultant, right in half the samples), naive (the
            judge alone), expert (the judge with the evidence) or open (each debater
            chooses its answer first).
        questions: A question file (.jsonl, .yaml or .csv; default the shipped set,
            tasks/oversight/questions.jsonl).
        quality: A QuALITY JSON-lines file or URL (read through `datasets`) instead of
            `questions`.
        quality_hard: Only QuALITY's hard subset, as Khan et al. 2024 select it (default true).
        rounds: Rounds of speeches in debate, open and consultancy (default 3).
        sequential: Debate rounds in turn, the second speaker reading the first (default
            false: simultaneous, each reads only earlier rounds).
        interactive: In consultancy, the judge asks the consultant a question between
            rounds (default false).
        budget: Completion-token cap of each speech (default 300).
        judging: The judge's settings as one mapping, e.g. judging="{judge_budget: 512,
            judge_schema: object}" (keys: `debatebench-eval list`); the judge answers in
            the scorer, so `inspect score --model-role judge=...` judges a log again.
    """
    taker = task_taker("oversight", ARGS)
    run = run_options(unknown, taker)
    judged = JudgeCalls.parse(judging, unknown, task_taker("oversight", ARGS))
    chosen = arg.as_choice("protocol", protocol, PROTOCOLS)
    found = _questions(questions, quality, arg.as_bool("quality_hard", quality_hard))
    n_rounds = arg.as_int("rounds", rounds) or DEFAULT_ROUNDS
    is_interactive = arg.as_bool("interactive", interactive)
    if is_interactive and chosen != "consultancy":
        raise ConfigError("-T interactive", f"true with protocol {chosen}", "protocol=consultancy")
    setup = Setup(
        protocol=chosen,
        questions={q.id: q for q in found},
        rounds=n_rounds,
        sequential=arg.as_bool("sequential", sequential),
        interactive=is_interactive,
        budget=arg.as_int("budget", budget) or DEFAULT_BUDGET,
        judge=judged,
        seed=run.seed,
        empty_retries=run.empty_retries,
        probe=run.probe,
    )
    seed = 0 if run.seed is None else run.seed
    samples = [
        Sample(id=meta["question_id"], input=q.question, target=q.right, metadata=meta)
        for q, meta in zip(found, assignments(found, chosen, seed), strict=True)
    ]
    return Task(
        dataset=MemoryDataset(samples, name=f"oversight-{chosen}"),
        solver=oversight_solver(setup),
        scorer=judge_accuracy(judging=judged),
        config=GenerateConfig(max_retries=DEFAULT_MAX_RETRIES, timeout=run.timeout),
        # One failed sample must not stop the others.
        fail_on_error=False,
        metadata={"protocol": chosen, "rounds": n_rounds, "assignment_seed": seed},
    )


def _questions(questions: Any, quality: Any, hard: bool) -> tuple[Question, ...]:
    path = arg.as_text("questions", questions)
    source = arg.as_text("quality", quality)
    if path is not None and source is not None:
        raise ConfigError("-T questions / -T quality", "both were given", "one or the other")
    if source is not None:
        return load_quality(source, hard=hard)
    return default_questions() if path is None else load_questions(Path(path).expanduser())
