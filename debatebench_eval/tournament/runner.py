"""Running a tournament: one `debate` task per model pair, all in one Inspect eval set.

An oversight tournament (`--task oversight`) runs one paired `oversight` task per
pair instead, over the questions its folder holds; everything else is the same.

Every pair is an ordinary paired `debate` task (its name `a_vs_b`, the pair's
models in the `pro` and `con` roles, the panel in `judge`), so each head-to-head
is one log that `inspect view` reads as usual. The eval set is planned once
(capture mode: tournament.plan) and run by workers, each a share of its tasks
(selection mode: tournament.worker): a task whose log is complete is skipped; an
interrupted one is resumed with its finished debates kept; a grown dataset (new
motions) runs only the new samples; a new model adds only new tasks. `-T`
options pass through to every task unchanged.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval_set, task_with
from inspect_ai.model import Model, get_model

from debatebench_eval.core import arguments as arg
from debatebench_eval.core._inspect import without_source_file
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import Taker
from debatebench_eval.core.run_options import RUN_KEYS, RunOptions
from debatebench_eval.debating.config import DEFAULT_FORMAT, DebateSettings, named_format
from debatebench_eval.debating.task import DEBATE_ARGS, debate, debate_dataset
from debatebench_eval.judging.options import JUDGE_ARGS, JudgingOptions
from debatebench_eval.known_answer import task as known_answer
from debatebench_eval.known_answer.assignment import TWO_DEBATERS
from debatebench_eval.known_answer.questions import Question, default_questions, load_questions
from debatebench_eval.record.motions import Motion, default_motions, load_motions
from debatebench_eval.record.protocol import parse_phases
from debatebench_eval.servers.probe import ensure_reachable
from debatebench_eval.tournament.schedule import (
    DEBATE,
    OVERSIGHT,
    SLOT,
    TASKS,
    Schedule,
    Settings,
    pair_task_name,
    parse_names,
    parse_task_args,
    refuse_role_mappings,
)

# -T keys the tournament sets itself, with what to use instead.
OWNED = {
    "motion": "--motions FILE and --limit N",
    "motions": "--motions FILE and --limit N",
    "format": "--format NAME",
    "seed": "--seed N",
    "timeout": "--timeout SECONDS",
    "paired": "nothing: every matchup is argued from both sides",
    "config": "--models and --judges (a run.yaml brings its own models)",
    "strict_judge": "--allow-self-judging (the judge guard is on by default)",
    "pro_budget": f"-T budget: {SLOT}",
    "con_budget": f"-T budget: {SLOT}",
}
# The same, for an oversight tournament's -T keys.
OVERSIGHT_OWNED = {
    "questions": "--questions FILE and --limit N",
    "quality": "--questions FILE (a question file)",
    "quality_hard": "--questions FILE (a question file)",
    "seed": OWNED["seed"],
    "timeout": OWNED["timeout"],
    "paired": "nothing: every question is debated with the models in both positions",
    "strict_judge": OWNED["strict_judge"],
}
DEFAULT_MAX_TASKS = 2
DEFAULT_SLOTS = 8
DEFAULT_RETRY_ATTEMPTS = 2
_TAKER = Taker("debatebench-eval tournament")


@dataclass(frozen=True)
class Concurrency:
    """How much runs at once. Inspect's defaults would keep hundreds of debates in
    flight (all lost on a kill); these keep about 2 x slots, enough to fill the slots."""

    max_connections: int | None = None
    max_samples: int | None = None
    max_tasks: int = DEFAULT_MAX_TASKS
    retry_attempts: int = DEFAULT_RETRY_ATTEMPTS
    # Inspect's provider batch APIs (True, or the requests a batch holds); None: off.
    batch: bool | int | None = None

    def eval_set_args(self) -> dict[str, Any]:
        samples = self.max_samples or self.max_connections or DEFAULT_SLOTS
        extra: dict[str, Any] = (
            {"max_connections": self.max_connections} if self.max_connections else {}
        )
        if self.batch is not None:
            extra["batch"] = self.batch
        # In selection mode (a worker) Inspect makes no task retry: the worker's own
        # loop uses retry_attempts then.
        return {"max_samples": samples, "max_tasks": self.max_tasks,
                "retry_attempts": self.retry_attempts, **extra}  # fmt: skip


def requested_schedule(
    *,
    models: str,
    judges: str,
    motions: str | None,
    limit: int | None,
    format: str | None,
    seed: int,
    allow_self_judging: bool,
    task_items: Sequence[str],
    cost_limit: float | None = None,
    timeout: int | None = None,
    task: str = DEBATE,
    questions: str | None = None,
) -> Schedule:
    """The schedule the command line asks for, every input checked."""
    if task not in TASKS:
        raise ConfigError("--task", f"got {task!r}", f"one of {', '.join(TASKS)}")
    model_names = parse_names(models, "--models", minimum=2)
    judge_names = parse_names(judges, "--judges", minimum=1)
    both = [name for name in judge_names if name in model_names]
    if both and not allow_self_judging:
        raise ConfigError(
            "--judges",
            f"{both[0]} is also in --models: it would judge debates it argues",
            "judges distinct from the debaters, or --allow-self-judging",
        )
    if timeout is not None:
        arg.integer("--timeout", timeout)
    common = Settings(phases=(), format=None, task_args=(), seed=seed,
                      allow_self_judging=allow_self_judging, rubric_sha256="",
                      cost_limit=cost_limit, timeout=timeout)  # fmt: skip
    if task == OVERSIGHT:
        task_args, chosen = _oversight_args(task_items, motions, format, questions, limit)
        settings = replace(common, task_args=tuple(sorted(task_args.items())), task=OVERSIGHT)
        return Schedule(model_names, judge_names, (), settings, chosen)
    if questions is not None:
        raise ConfigError("--questions", "given with --task debate", "--motions FILE for debates")
    task_args = parse_task_args(task_items, (*DEBATE_ARGS, *JUDGE_ARGS), OWNED)
    refuse_role_mappings(task_args)
    RunOptions.parse({k: v for k, v in task_args.items() if k in RUN_KEYS}, _TAKER)
    judging = JudgingOptions.parse({k: v for k, v in task_args.items() if k in JUDGE_ARGS}, _TAKER)
    phases, format_name = _phases(format, task_args.get("phases"))
    if "phases" in task_args:
        task_args["phases"] = list(phases)
    settings = replace(
        common,
        phases=phases,
        format=format_name,
        task_args=tuple(sorted(task_args.items())),
        rubric_sha256=judging.rubric.sha256,
    )
    return Schedule(model_names, judge_names, _motions(motions or "default", limit), settings)


def _oversight_args(
    task_items: Sequence[str],
    motions: str | None,
    format: str | None,
    questions: str | None,
    limit: int | None,
) -> tuple[dict[str, Any], tuple[Question, ...]]:
    """An oversight tournament's -T options and questions: the keys are the oversight
    task's, and only a protocol with two debaters can be a match between two models."""
    for flag, value in (("--motions", motions), ("--format", format)):
        if value is not None:
            raise ConfigError(flag, "given with --task oversight",
                              "--questions FILE and -T options of the oversight task")  # fmt: skip
    task_args = parse_task_args(task_items, known_answer.ARGS, OVERSIGHT_OWNED)
    protocol = task_args.get("protocol", "debate")
    if protocol not in TWO_DEBATERS:
        raise ConfigError(
            "-T protocol", f"{protocol}: a tournament needs two debaters to match",
            f"protocol {' or '.join(TWO_DEBATERS)}",
        )  # fmt: skip
    RunOptions.parse({k: v for k, v in task_args.items() if k in RUN_KEYS}, _TAKER)
    return task_args, _questions(questions, limit)


def _questions(source: str | None, limit: int | None) -> tuple[Question, ...]:
    path = None if source in (None, "default") else Path(str(source)).expanduser()
    found = default_questions() if path is None else load_questions(path)
    if limit is None:
        return found
    if not 1 <= limit <= len(found):
        where = source or "the shipped set"
        expected = f"1 to {len(found)} (the questions in {where})"
        raise ConfigError("--limit", f"got {limit}", expected)
    return found[:limit]


def _phases(format: str | None, phases: Any) -> tuple[tuple[str, ...], str | None]:
    if phases is not None:
        if format is not None:
            raise ConfigError("--format / -T phases", "both were given", "one or the other")
        parsed = parse_phases(arg.as_list("phases", phases), where="-T phases")
        return tuple(map(str, parsed)), None
    name = format or DEFAULT_FORMAT
    try:
        return tuple(map(str, named_format(name))), name
    except ConfigError as exc:
        raise ConfigError("--format", exc.found, exc.expected) from None


def _motions(source: str, limit: int | None) -> tuple[Motion, ...]:
    motions = default_motions() if source == "default" else load_motions(Path(source).expanduser())
    if limit is None:
        return motions
    if not 1 <= limit <= len(motions):
        raise ConfigError(
            "--limit", f"got {limit}", f"1 to {len(motions)} (the motions in {source})"
        )
    return motions[:limit]


def pair_tasks(schedule: Schedule, pairs: Iterable[tuple[str, str]]) -> list[Task]:
    """One paired `debate` task per pair, over every scheduled motion."""
    dataset_settings = DebateSettings(
        # debate_dataset reads only the motions and the pairing.
        motions=schedule.motions,
        phases=(),
        teams={},
        budgets={},
        paired=True,
    )
    # Fresh model objects (not Inspect's memoized ones): a second run in the same
    # process must see the server address of its own environment. One per name:
    # each holds a client with its own connection setup.
    models: dict[str, Model] = {}

    def model(name: str) -> Model:
        return models.setdefault(name, get_model(name, memoize=False))

    judges = [model(name) for name in schedule.judges]
    tasks = []
    for a, b in pairs:
        base = _pair_base(schedule, dataset_settings)
        tasks.append(
            # A task's identity must not depend on where the package was imported from:
            # the plan and each worker, on any machine, compute it.
            without_source_file(
                task_with(
                    base,
                    name=pair_task_name(a, b),
                    model_roles={
                        "pro": model(a),
                        "con": model(b),
                        "judge": judges,
                    },
                    metadata={
                        **(base.metadata or {}),
                        "tournament": schedule.identity_hash,
                        "pair": [a, b],
                    },
                )
            )
        )
    return tasks


def _pair_base(schedule: Schedule, dataset_settings: DebateSettings) -> Task:
    """A pair's task before its name and models: the paired debate over the scheduled
    motions, or the paired oversight task over the scheduled questions. Neither the
    motions nor the questions enter Inspect's task identity (the arguments do)."""
    if schedule.settings.task == OVERSIGHT:
        return known_answer.oversight_over(schedule.questions, schedule.settings.oversight_args())
    # The dataset is replaced, so which motions the task was built with does not matter.
    base = debate(**schedule.settings.debate_args())
    return task_with(base, dataset=debate_dataset(dataset_settings))


def probe_servers(schedule: Schedule, models: Iterable[str]) -> None:
    """Every server answers (5 s each), before anything is written or run."""

    async def probe_all() -> None:
        for name in models:
            await ensure_reachable(get_model(name, memoize=False), "pro/con")
        for name in schedule.judges:
            await ensure_reachable(get_model(name, memoize=False), "judge")

    asyncio.run(probe_all())


def run_eval_set(
    schedule: Schedule,
    tasks: list[Task],
    log_dir: str,
    concurrency: Concurrency,
    display: str | None = None,
    prices: dict[str, Any] | None = None,
) -> bool:
    """The tournament's one eval_set call. The plan makes it in Inspect's capture mode
    and a worker in selection mode (INSPECT_EVAL_SET_CAPTURE / _SELECTION in the
    environment); both pass the same arguments, so a task's identifier in the plan
    is the one the worker computes. True when every task's log ended in success."""
    success, _ = eval_set(
        tasks,
        log_dir=log_dir,
        model=None,  # else INSPECT_EVAL_MODEL would enter every task's identity
        eval_set_id=schedule.eval_set_id,
        # Called outside both modes (the Python API), this is a whole tournament in
        # one eval set: other logs in the folder are left alone, and a log with a
        # failed debate ends in error, so eval_set retries just the failed debates.
        # Selection mode forces fail_on_error=False and no task retry instead: the
        # worker checks what is settled and resumes the rest itself.
        log_dir_allow_dirty=True,
        fail_on_error=True,
        continue_on_fail=True,
        display=_quiet_display(display),  # type: ignore[arg-type]
        # Live metrics recompute every score key of every finished debate for the
        # display: a third of the harness's CPU in a tournament. Logs are unchanged.
        score_display=False,
        # Each finished debate is written into its pair's log at once, and running
        # debates are not streamed to Inspect's live-view buffer, which re-serialised
        # each model event three times, a judge's reply schema with it: 11-13 ms
        # of 55 a call. So a killed worker, resumed on any machine, finds every
        # finished debate in the log (the buffer would recover them only on its own).
        log_realtime=False,
        log_buffer=1,
        # Part of each task's identity: the plan's, in the capture and in every worker.
        cost_limit=schedule.settings.cost_limit,
        # Only the models Inspect can price (tournament.cost.known_to_inspect).
        model_cost_config=prices or None,
        # Inspect's seed and timeout of every debate, as `--seed` / `--timeout` give them.
        **schedule.settings.generate_settings(),
        **concurrency.eval_set_args(),
    )
    return bool(success)


def _quiet_display(display: str | None) -> str | None:
    """`none` as Inspect's `log` display, silent below its log level as `none` is.
    Inspect runs `none` on its rich display with the console muted, which still
    lays out every finished pair's results table to throw it away: 0.3 s of CPU a
    pair at this project's 79 metrics, a fifth of a worker's CPU."""
    return "log" if display == "none" else display


@contextmanager
def eval_set_mode(variable: str, path: str) -> Iterator[None]:
    """Inspect's capture or selection mode for the eval_set calls inside: Inspect
    reads it from the environment, so it is set for the call and put back after."""
    before = os.environ.get(variable)
    os.environ[variable] = path
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(variable, None)
        else:
            os.environ[variable] = before
