"""The `panel` and `adjudicate` tasks: one deliberation over one task or proposal."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig, model_roles

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.calls import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import task_taker
from debatebench_eval.core.run_options import run_options
from debatebench_eval.core.task_versions import TASK_VERSIONS
from debatebench_eval.judging.options import JudgeCalls
from debatebench_eval.judging.run_summary import report_problems_after_the_run
from debatebench_eval.protocols.options import DeliberationOptions, deliberation_options
from debatebench_eval.protocols.plan import Options, Plan, build_plan, check_models, plan_options
from debatebench_eval.protocols.scorer import outcome
from debatebench_eval.protocols.solver import deliberation_solver
from debatebench_eval.protocols.spec import load_protocol

DEBATE_TYPES = (
    "research_question", "theory_selection", "method_fit", "claim_adjudication",
    "rival_explanations", "final_revision",
)  # fmt: skip
COMMON_ARGS = (
    "protocol", "budget", "final_budget", "persona_models", "send_effort", "workspace",
    "empty_retries", "probe",
)  # fmt: skip
PANEL_ARGS = (*COMMON_ARGS, "task", "task_file", "table", "synth", "with", "rounds", "converge")
ADJUDICATE_ARGS = (*COMMON_ARGS, "proposal", "debate_type")


@task
def panel(
    task: str | None = None,
    task_file: str | None = None,
    table: str | None = None,
    synth: str | None = None,
    rounds: int | None = None,
    converge: bool = True,
    budget: int | None = None,
    **unknown: Any,
) -> Task:
    """A panel of personas deliberates a task in rounds; a synthesizer writes the answer (heurema).

    The judge is held to JSON by -T judge_schema (auto, the default, true, object or
    false, as every judging task's).

    Args:
        task: The task text, e.g. task="Should we migrate to Postgres now or defer?".
        task_file: A file holding the task (heurema's --task @file; Inspect cannot parse @).
        table: A table of personas (default tables/default.yml: proposer, skeptic).
        synth: The synthesizer persona (default the table's, else `synthesizer`).
        with: Persona selectors for the panel, e.g. with=proposer,skeptic (overrides table).
        rounds: Most rounds (default 10); the panel stops early when it converges.
        converge: Stop early when every participant signals done (default true).
        budget: Completion-token cap of each participant's turn (default 1000).
    """
    taker = task_taker("panel", PANEL_ARGS)
    run = run_options(unknown, taker)
    setup = deliberation_options(unknown, taker, "panel")
    arg.reject_unknown("task panel", {k: v for k, v in unknown.items() if k != "with"}, PANEL_ARGS)
    text, source = task_text(task, task_file)
    own = dict(unknown, table=table, synth=synth, rounds=rounds, converge=converge, budget=budget)
    plan = _plan(setup, plan_options(own, run, setup))
    sample = Sample(id=plan.protocol.name, input=text, metadata={"task_source": source})
    return _task(plan, sample, "panel")


@task
def adjudicate(
    proposal: str | None = None,
    debate_type: str | None = None,
    budget: int | None = None,
    **unknown: Any,
) -> Task:
    """Five roles adjudicate a proposal; the judge decides accept, revise or escalate (ar-debate).

    Args:
        proposal: The proposal document (a file path).
        debate_type: research_question, theory_selection, method_fit, claim_adjudication,
            rival_explanations or final_revision.
        budget: Completion-token cap of each role's turn (default 1000).
    """
    taker = task_taker("adjudicate", ADJUDICATE_ARGS)
    run = run_options(unknown, taker)
    setup = deliberation_options(unknown, taker, "adjudication")
    judge_taker = task_taker("adjudicate", ADJUDICATE_ARGS, ("judge_schema",))
    judged = JudgeCalls.parse(unknown, judge_taker)
    kind = arg.as_text("debate_type", debate_type)
    if kind not in DEBATE_TYPES:
        found = "missing" if kind is None else f"got {kind!r}"
        raise ConfigError(arg.label("debate_type"), found, f"one of {', '.join(DEBATE_TYPES)}")
    path = arg.as_text("proposal", proposal)
    if path is None:
        raise ConfigError(arg.label("proposal"), "missing", "the proposal document's path")
    text = _read(path, "proposal")
    options = plan_options({"budget": budget}, run, setup, judge_schema=judged.judge_schema)
    plan = _plan(setup, options)
    sample = Sample(
        id=kind,
        input=f"Debate type: {kind}\n\nProposal ({Path(path).name}):\n\n{text}",
        metadata={"task_source": "file", "debate_type": kind, "proposal_file": path},
    )
    return _task(plan, sample, "adjudicate")


def task_text(task: Any, task_file: Any) -> tuple[str, str]:
    """The task from `task` (inline, or `@path` when quoted) or `task_file`."""
    if task is not None and task_file is not None:
        raise ConfigError("-T task / -T task_file", "both were given", "one or the other")
    path = arg.as_text("task_file", task_file)
    if path is not None:
        return _read(path, "task_file"), "file"
    if task is None:
        raise ConfigError(
            "-T task", "missing", 'the task text (-T task="...") or -T task_file=PATH'
        )
    task = _unmapped(task)
    if isinstance(task, dict) or (isinstance(task, list) and None in task):
        raise ConfigError(
            "-T task",
            f"YAML read the value as {task!r}",
            "text: quote it inside the argument (-T 'task=\"...\"') or use -T task_file=PATH",
        )
    text = arg.as_text("task", task) or ""
    if text.startswith("@"):
        return _read(text[1:], "task"), "file"
    if not text.strip():
        raise ConfigError("-T task", "empty", "the task text")
    return text, "inline"


def _unmapped(task: Any) -> Any:
    """`-T task="Decide: now or later?"` reaches us as YAML's {"Decide": "now or later?"}:
    put the text back when nothing was lost (string key and value)."""
    if isinstance(task, dict) and len(task) == 1:
        ((key, value),) = task.items()
        if isinstance(key, str) and isinstance(value, str):
            return f"{key}: {value}"
    return task


def _read(path: str, name: str) -> str:
    file = Path(path).expanduser()
    if not file.is_file():
        raise ConfigError(f"-T {name}", f"file not found: {file}", "a readable text file")
    text = file.read_text(encoding="utf-8").strip()
    if not text:
        raise ConfigError(f"-T {name}", f"{file} is empty", "a file holding the text")
    return text


def _plan(setup: DeliberationOptions, options: Options) -> Plan:
    assert setup.protocol is not None  # deliberation_options fills in the task's own
    plan = build_plan(load_protocol(setup.protocol), options, Path(os.getcwd()))
    # Roles bound on the command line are known here; a Python caller binds them
    # later, and the solver checks again before any call.
    check_models(plan, model_roles())
    return plan


def _task(plan: Plan, sample: Sample, task: str) -> Task:
    report_problems_after_the_run()
    return Task(
        version=TASK_VERSIONS[task],
        dataset=MemoryDataset([sample], name=f"debatebench-{plan.protocol.name}"),
        solver=deliberation_solver(plan),
        scorer=outcome(),
        config=GenerateConfig(max_retries=DEFAULT_MAX_RETRIES, timeout=DEFAULT_TIMEOUT),
        # One failed deliberation must not stop others; eval-retry resumes it.
        fail_on_error=False,
        metadata={"protocol": plan.protocol.name, "protocol_file": plan.protocol.file},
    )
