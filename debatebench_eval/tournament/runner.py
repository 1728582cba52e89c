"""Running a tournament: one paired task per model pair, all in one Inspect eval set.

Every pair is an ordinary paired task of the tournament's kind (`debate` on the
motions, `oversight` on the questions: `tournament.kinds`), its name `a_vs_b`,
the pair's models in the `pro` and `con` roles, the panel in `judge`, so each
head-to-head is one log that `inspect view` reads as usual. The eval set is
planned once (capture mode: tournament.plan) and run by workers, each a share of
its tasks (selection mode: tournament.worker): a task whose log is complete is
skipped; an interrupted one is resumed with its finished debates kept; a grown
dataset (new items) runs only the new samples; a new model adds only new tasks.
`-T` options pass through to every task unchanged.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai import Task, eval_set, task_with
from inspect_ai.model import Model, get_model

from debatebench_eval.core import arguments as arg
from debatebench_eval.core._inspect import without_source_file
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.runs.eval_sets import quiet_display
from debatebench_eval.servers.probe import ensure_reachable
from debatebench_eval.tournament.kind import Asked
from debatebench_eval.tournament.kinds import DEFAULT, kind_named
from debatebench_eval.tournament.schedule import Schedule, Settings, pair_task_name, parse_names

DEFAULT_MAX_TASKS = 2
DEFAULT_SLOTS = 8
DEFAULT_RETRY_ATTEMPTS = 2


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
    task: str = DEFAULT,
    questions: str | None = None,
) -> Schedule:
    """The schedule the command line asks for, every input checked (the task kind
    checks its own options and items)."""
    kind = kind_named(task)
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
    common = Settings(kind.name, {"seed": seed, "allow_self_judging": allow_self_judging},
                      cost_limit, timeout)  # fmt: skip
    flags = {"--motions": motions, "--questions": questions, "--format": format}
    settings, items = kind.requested(Asked(task_items, flags, limit), common)
    return Schedule(model_names, judge_names, items, settings, kind.items.key)


def pair_tasks(schedule: Schedule, pairs: Iterable[tuple[str, str]]) -> list[Task]:
    """One paired task of the tournament's kind per pair, over the items it debates."""
    kind = kind_named(schedule.settings.task)
    # Fresh model objects (not Inspect's memoized ones): a second run in the same
    # process must see the server address of its own environment. One per name:
    # each holds a client with its own connection setup.
    models: dict[str, Model] = {}

    def model(name: str) -> Model:
        return models.setdefault(name, get_model(name, memoize=False))

    judges = [model(name) for name in schedule.judges]
    tasks = []
    for a, b in pairs:
        base = kind.pair_base(schedule, schedule.pair_items(a, b))
        # A task's identity must not depend on where the package was imported from:
        # the plan and each worker, on any machine, compute it.
        tasks.append(without_source_file(task_with(
            base, name=pair_task_name(a, b),
            model_roles={"pro": model(a), "con": model(b), "judge": judges},
            metadata={**(base.metadata or {}), "tournament": schedule.identity_hash,
                      "pair": [a, b]},
        )))  # fmt: skip
    return tasks


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
        display=quiet_display(display),  # type: ignore[arg-type]
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
