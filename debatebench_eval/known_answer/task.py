"""The `oversight` task: known-answer questions under one protocol, scored on accuracy."""

from __future__ import annotations

import inspect
import math
from pathlib import Path
from typing import Any

from inspect_ai import Task, task, task_with
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.calls import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import task_taker
from debatebench_eval.core.run_options import RUN_KEYS, run_options
from debatebench_eval.core.task_versions import TASK_VERSIONS
from debatebench_eval.known_answer.assignment import PROTOCOLS, SWAPPED_SUFFIX, TWO_DEBATERS
from debatebench_eval.known_answer.orders import OversightJudging
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
    "paired",
    "judge_each_round",
    "stop_when_confident",
)
ARGS = (*OWN_ARGS, *RUN_KEYS, *OversightJudging.option_keys())


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
    paired: bool = False,
    judge_each_round: bool = False,
    stop_when_confident: float | None = None,
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
        paired: Every question twice, the `pro` and `con` models exchanged (debate and
            open only), so each model defends the right answer as often as the wrong
            one and speaks in both positions (default false).
        judge_each_round: The judge states its probability after every round (debate,
            open and consultancy; one call per judge per answer order read, per round): kept
            in the record, shown as p_correct by round, and the metrics give the accuracy
            after each round (default false).
        stop_when_confident: End the speeches once the judge gives its pick at least this
            probability (above 0.5, at most 1; the judge reads each round; default: never).

    The judge's settings are options of their own (-T judge_budget=512, keys:
    `debatebench-eval list`); the judge answers in the scorer, so `inspect score
    --model-role judge=...` judges a log again. Sides and answer order are drawn from
    Inspect's --seed (0 when none is given); the reply timeout is Inspect's --timeout.
    """
    given = {"protocol": protocol, "rounds": rounds, "sequential": sequential,
             "interactive": interactive, "budget": budget, "paired": paired,
             "judge_each_round": judge_each_round, "stop_when_confident": stop_when_confident,
             **unknown}  # fmt: skip
    setup, judged = _setup(
        _questions(questions, quality, arg.as_bool("quality_hard", quality_hard)), given
    )
    return Task(
        version=TASK_VERSIONS["oversight"],
        dataset=oversight_dataset(setup),
        solver=oversight_solver(setup),
        # Given as options, so the log records them and `inspect score` builds them again.
        scorer=judge_accuracy(**judged.given_values()),
        config=GenerateConfig(max_retries=DEFAULT_MAX_RETRIES, timeout=DEFAULT_TIMEOUT),
        # One failed sample must not stop the others.
        fail_on_error=False,
        metadata={"protocol": setup.protocol, "rounds": setup.rounds},
        # The viewer's log list names a log by its task (the same for every protocol)
        # and shows its tags: the protocol tells the runs apart there. Tags stay out of
        # Inspect's task identity, so a tournament or an eval set resumes as before; a
        # display name would not reach that list, and would hide the name that a
        # tournament's pair or a shard is given.
        tags=[setup.protocol],
    )


def oversight_over(found: tuple[Question, ...], args: dict[str, Any]) -> Task:
    """The task over questions held in memory (a tournament's, kept in its folder) with
    `args` as `-T` gives them. Built through `oversight` so that Inspect records the
    arguments (they enter its task identity, the questions do not: as a debate
    tournament's motions); its shipped set is then replaced by `found`."""
    base = oversight(**args)
    defaults = {n: p.default for n, p in inspect.signature(oversight).parameters.items()
                if p.default is not inspect.Parameter.empty}  # fmt: skip
    given = {k: v for k, v in {**defaults, **args}.items() if k not in _SOURCE_ARGS}
    setup, _ = _setup(found, given)
    return task_with(base, dataset=oversight_dataset(setup), solver=oversight_solver(setup))


# Where the questions come from: not settings of a run over given questions.
_SOURCE_ARGS = ("questions", "quality", "quality_hard")


def _setup(found: tuple[Question, ...], given: dict[str, Any]) -> tuple[Setup, OversightJudging]:
    """The checked settings of a run over `found` (`given`: the task's other arguments)."""
    unknown = {k: v for k, v in given.items() if k not in OWN_ARGS}
    taker = task_taker("oversight", ARGS)
    run = run_options(unknown, taker)
    judged = OversightJudging.parse(unknown, taker)
    chosen = arg.as_choice("protocol", given["protocol"], PROTOCOLS)
    is_interactive = arg.as_bool("interactive", given["interactive"])
    if is_interactive and chosen != "consultancy":
        raise ConfigError("-T interactive", f"true with protocol {chosen}", "protocol=consultancy")
    is_paired = arg.as_bool("paired", given["paired"])
    if is_paired and chosen not in TWO_DEBATERS:
        two = " or ".join(TWO_DEBATERS)
        raise ConfigError("-T paired", f"true with protocol {chosen}",
                          f"protocol {two} (two debaters to exchange)")  # fmt: skip
    setup = Setup(
        protocol=chosen,
        questions={q.id: q for q in found},
        rounds=arg.as_int("rounds", given["rounds"]) or DEFAULT_ROUNDS,
        sequential=arg.as_bool("sequential", given["sequential"]),
        interactive=is_interactive,
        budget=arg.as_int("budget", given["budget"]) or DEFAULT_BUDGET,
        judge=judged,
        empty_retries=run.empty_retries,
        probe=run.probe,
        paired=is_paired,
        judge_each_round=arg.as_bool("judge_each_round", given["judge_each_round"]),
        stop_when_confident=_threshold(given["stop_when_confident"]),
    )
    return setup, judged


def _threshold(value: Any) -> float | None:
    """`stop_when_confident`: a probability above 0.5 (a judge always gives its pick at
    least 0.5) and at most 1."""
    if value is None:
        return None
    try:
        found = float(value)
    except (TypeError, ValueError):
        found = math.nan
    if isinstance(value, bool) or not 0.5 < found <= 1:
        raise ConfigError(
            "-T stop_when_confident", f"got {value!r}", "a probability above 0.5, at most 1"
        )
    return found


def oversight_dataset(setup: Setup) -> MemoryDataset:
    """One sample per question, or two when paired: `<id>` and `<id>.swapped`, in which
    the `pro` and `con` models exchange positions (the draw of who defends what is the
    question's, so each model defends each answer once)."""
    samples = [
        Sample(
            id=f"{q.id}{SWAPPED_SUFFIX}" if swapped else q.id,
            input=q.question,
            target=q.right,
            metadata={
                "question_id": q.id,
                "category": q.category,
                "protocol": setup.protocol,
                **({"swapped": swapped} if setup.paired else {}),
            },
        )
        for q in setup.questions.values()
        for swapped in ((False, True) if setup.paired else (False,))
    ]
    return MemoryDataset(samples, name=f"oversight-{setup.protocol}")


def _questions(questions: Any, quality: Any, hard: bool) -> tuple[Question, ...]:
    path = arg.as_text("questions", questions)
    source = arg.as_text("quality", quality)
    if path is not None and source is not None:
        raise ConfigError("-T questions / -T quality", "both were given", "one or the other")
    if source is not None:
        return load_quality(source, hard=hard)
    return default_questions() if path is None else load_questions(Path(path).expanduser())
