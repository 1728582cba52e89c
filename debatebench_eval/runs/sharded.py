"""One task's samples in shards, each shard an Inspect task of its own, so that the
package's one plan/worker runner can spread any task over many processes.

`inspect eval` runs a task in one process, and Inspect's harness costs CPU per
model call: on a fast server one process is bound by its own core. A sharded run
splits the task's samples (after `--limit`, `--sample-id` and a seeded
`--sample-shuffle`, as Inspect applies them) into S shards, sample i going to
shard i mod S, so a growing `--limit` keeps every sample in its shard. Shard k is
the task itself with that part of the dataset, named `TASK_shard-k-of-S`: Inspect
tells tasks apart by name, arguments, model and settings (never by dataset), so
the shards need names of their own. Its registry name stays the task's, so
every reader of the package knows the log for what it is, and a tag says which
shard it is in `inspect view`.

Every option is Inspect's own, parsed by Inspect's `eval-set` command line, so a
sharded run takes exactly what `inspect eval` takes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai import Task, task_with
from inspect_ai.dataset import Dataset, MemoryDataset, Sample

from debatebench_eval.core._inspect import (
    eval_set_arguments,
    load_tasks,
    slice_dataset,
    without_source_file,
)
from debatebench_eval.core.errors import ConfigError

# What `run` takes itself or decides per worker: the sample selection (applied
# before sharding, so each shard runs all of its own samples) and eval-set's
# bookkeeping, which selection mode replaces.
SELECTION = ("limit", "sample_id", "sample_shuffle")
EVAL_SET_ONLY = (
    # The -T arguments made the tasks; eval_set would only warn it ignores them.
    "tasks", "task_args", "retry_attempts", "retry_immediate", "retry_wait", "retry_connections",
    "retry_cleanup", "incomplete_action", "incomplete_max", "bundle_dir",
    "bundle_overwrite", "embed_viewer", "eval_set_id", "log_dir_allow_dirty",
)  # fmt: skip
# A worker's log settings (none of them enters a task's identity), unless the options
# set them: each finished sample written at once, and no live-view buffer, which
# re-serialises every model event (a tournament worker's measured choice).
WORKER_DEFAULTS: dict[str, Any] = {"log_realtime": False, "log_buffer": 1, "score_display": False}
# What names the run: the task and what it runs on. Every other setting that changes
# what runs (generate settings, solver, limits, epochs) is in the shards' Inspect
# identifiers, which the plan compares; the runtime options in neither.
_NAMING = ("task_args", "model", "model_roles", "model_args", "model_base_url", "solver")


@dataclass(frozen=True)
class RunSpec:
    """A sharded run as the command line gave it: the task, Inspect's options (the log
    folder apart), and the number of shards."""

    task: str
    options: tuple[str, ...]
    log_dir: str
    shards: int

    def arguments(self, extra: Sequence[str] = ()) -> dict[str, Any]:
        """`eval_set`'s arguments, as Inspect's command line reads the options (the
        folder the run is in last, so it wins: a worker may reach it by another path)."""
        folder = ["--log-dir", self.log_dir] if self.log_dir else []
        return parsed_options(self.task, [*self.options, *extra, *folder])

    def key(self, arguments: dict[str, Any]) -> str:
        """Twelve hex digits naming the run in its folder: from the task and what it
        runs on, so the same command finds its run again."""
        named = {name: arguments.get(name) for name in _NAMING}
        text = json.dumps({"task": self.task, **named}, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:12]


def parsed_options(task: str, options: Sequence[str]) -> dict[str, Any]:
    """Inspect's options for `task`, or one ConfigError naming the bad one."""
    import click

    try:
        return eval_set_arguments([task, *options])
    except click.ClickException as exc:
        raise ConfigError(
            f"the options for {task}", exc.format_message().rstrip("."),
            "the options `inspect eval` takes (inspect eval --help)",
        ) from None  # fmt: skip


def shard_name(task: str, index: int, shards: int) -> str:
    """Shard `index` (0-based) of a task, as its log names it (1-based, as people count)."""
    return f"{task.rsplit('/', 1)[-1]}_shard-{index + 1}-of-{shards}"


def shard_tasks(spec: RunSpec, arguments: dict[str, Any], which: Iterable[int]) -> list[Task]:
    """The shards `which` (0-based) of the run, each the task freshly made (Inspect's
    `task_with` changes the task it is given) with its part of the samples."""
    tasks = []
    for index in which:
        task = _loaded(spec.task, arguments)
        samples = selected_samples(task, arguments)[index :: spec.shards]
        dataset = MemoryDataset(list(samples), name=task.dataset.name,
                                location=task.dataset.location)  # fmt: skip
        tag = f"shard {index + 1} of {spec.shards}"
        tasks.append(
            without_source_file(
                task_with(
                    task, dataset=dataset, name=shard_name(spec.task, index, spec.shards),
                    tags=[*(task.tags or []), tag],
                    metadata={**(task.metadata or {}), "shard": [index + 1, spec.shards]},
                )
            )
        )  # fmt: skip
    return tasks


def selected_samples(task: Task, arguments: dict[str, Any]) -> list[Sample]:
    """The task's samples `--sample-shuffle`, `--limit` and `--sample-id` select, in the
    order Inspect would run them."""
    dataset: Dataset = task.dataset
    shuffle = arguments.get("sample_shuffle")
    if shuffle is True:
        raise ConfigError(
            "--sample-shuffle", "without a seed: each worker would draw its own order",
            "a seed (--sample-shuffle 42), so every worker shards the same order",
        )  # fmt: skip
    if shuffle is not None:
        dataset.shuffle(seed=int(shuffle))
    chosen = slice_dataset(dataset, arguments.get("limit"), arguments.get("sample_id"))
    return list(chosen)


def _loaded(name: str, arguments: dict[str, Any]) -> Task:
    """The task by name (a registered task, or `file.py@task`) with its -T arguments."""
    found = load_tasks([name], arguments.get("task_args") or {})
    if len(found) != 1:
        raise ConfigError(
            "debatebench-eval run", f"{name} names {len(found)} tasks",
            "one task (a registered name such as debatebench/debate, or file.py@task)",
        )  # fmt: skip
    task = found[0]
    if not isinstance(task.dataset, Dataset):
        raise ConfigError(name, "its samples are made while it runs (a sample source)",
                          "a task with a dataset, whose samples can be shared out")  # fmt: skip
    return task


def eval_set_call(
    tasks: list[Task],
    arguments: dict[str, Any],
    log_dir: str,
    eval_set_id: str,
    runtime: dict[str, Any],
) -> Any:
    """The one eval_set call of the plan and of every worker (the same arguments, so
    the same identifiers), with `runtime` settings that change no identifier."""
    from inspect_ai import eval_set

    passed = {k: v for k, v in arguments.items() if k not in (*SELECTION, *EVAL_SET_ONLY)}
    passed.update({k: v for k, v in runtime.items() if passed.get(k) is None})
    passed.update(log_dir=log_dir, eval_set_id=eval_set_id, log_dir_allow_dirty=True)
    return lambda: eval_set(tasks, **passed)
