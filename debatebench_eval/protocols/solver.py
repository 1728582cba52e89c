"""Deliberation as an Inspect solver: the protocol tasks' solver, and
`deliberate`, which puts a panel in place of `generate()` in any task.

With `deliberate` the sample's input becomes the task (its choices
lettered), every participant states the answer it holds, and the final
step ends with an `ANSWER:` line; `state.output` is that final reply, so
the task's own scorer scores it, and a multiple-choice sample's choices are
marked from the answer's letter for `choice()`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from inspect_ai.model import ModelOutput, ModelUsage, model_roles
from inspect_ai.solver import Generate, Solver, TaskState, solver

from debatebench_eval.core import arguments as arg
from debatebench_eval.core._inspect import active_generate_config
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import Taker
from debatebench_eval.core.run_options import run_options
from debatebench_eval.core.seeds import sample_seed
from debatebench_eval.protocols.answers import (
    ANSWER_INSTRUCTION,
    PARTICIPANT_INSTRUCTION,
    choice_index,
    question_text,
)
from debatebench_eval.protocols.display import forced_note
from debatebench_eval.protocols.engine import Deliberation
from debatebench_eval.protocols.options import deliberation_options
from debatebench_eval.protocols.plan import Plan, build_plan, check_models, plan_options
from debatebench_eval.protocols.record import (
    DeliberationRecord,
    DeliberationSettings,
    Outcome,
    Seat,
)
from debatebench_eval.protocols.seats import Seated, seat_models
from debatebench_eval.protocols.spec import load_protocol
from debatebench_eval.servers.probe import model_base_url

DELIBERATE_ARGS = (
    "protocol", "rounds", "table", "synth", "with", "budget", "final_budget", "converge",
    "persona_models", "send_effort", "workspace", "empty_retries", "probe",
)  # fmt: skip
# The run settings a deliberation in another task's place reads (the seed and the
# timeout are Inspect's --seed and --timeout).
SOLVER_RUN_KEYS = ("empty_retries", "probe")


@solver
def deliberation_solver(plan: Plan, answers: bool = False) -> Solver:
    """Run the plan's deliberation on each sample and record it.

    Args:
        plan: The checked plan: protocol, seats, limits.
        answers: Read the sample as a question and end with an `ANSWER:` line.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        seats = await seat_models(plan)
        # Inspect's --seed; none given: one drawn per sample.
        seed = sample_seed(active_generate_config().seed, state.sample_id, state.epoch)
        record = state.store_as(DeliberationRecord)
        task = _task_text(state, answers)
        record.run = _settings(plan, seats, state, task, seed)
        deliberation = Deliberation(
            plan=plan,
            seats=seats,
            state=state,
            record=record,
            task=task,
            seed=seed[0],
            answer_instruction=ANSWER_INSTRUCTION if answers else None,
        )
        outcome = await deliberation.run()
        record.complete = True
        state.output = _output(record, outcome)
        if answers and state.choices:
            picked = choice_index(outcome.answer, len(state.choices))
            for index in range(len(state.choices)):
                state.choices.mark_choice(index, index == picked)
        return state

    return solve


@solver
def deliberate(
    protocol: str = "panel",
    rounds: int | None = None,
    table: str | None = None,
    synth: str | None = None,
    budget: int | None = None,
    final_budget: int | None = None,
    converge: bool = True,
    persona_models: bool = True,
    send_effort: bool = False,
    workspace: str | None = None,
    empty_retries: int = 2,
    probe: bool = True,
    **unknown: Any,
) -> Solver:
    """A panel deliberates each sample in place of generate(); the task's scorer scores its answer.

    Args:
        protocol: A protocol ending in a synthesis: `panel` (the default) or a .yaml file.
        rounds: Most rounds (default the protocol's: 10 for panel, with early stop on convergence).
        table: A table of personas (default tables/default.yml: proposer, skeptic).
        synth: The synthesizer persona (default the table's, else `synthesizer`).
        with: Persona selectors for the panel, e.g. with=proposer,skeptic (overrides table).
        budget: Completion-token cap of each participant's turn (default the protocol's, 1000).
        final_budget: Completion-token cap of the final answer (default the protocol's, 2000).
        converge: Stop early when the panel converges (heurema's signals; default true).
        persona_models: Speak with each persona's own `model` (default true; false: --model).
        send_effort: Send each persona's `effort` as reasoning_effort (default false).
        workspace: A folder with personas/ and tables/ (default: found from the working dir).
        empty_retries: Extra attempts when a participant returns no text (default 2).
        probe: Check each model server answers before the first call (default true).
    """
    arg.reject_unknown(
        "solver deliberate",
        {k: v for k, v in unknown.items() if k != "with"},
        DELIBERATE_ARGS,
        flag="-S",
    )
    given = {k: v for k, v in locals().items() if k in DELIBERATE_ARGS}
    run = run_options(given, Taker("solver deliberate", "-S", DELIBERATE_ARGS, SOLVER_RUN_KEYS))
    setup = deliberation_options(given, Taker("solver deliberate", "-S", DELIBERATE_ARGS), "panel")
    assert setup.protocol is not None  # deliberation_options fills in "panel"
    spec = load_protocol(setup.protocol)
    if spec.final.kind != "synthesis":
        raise ConfigError(
            "-S protocol",
            f"protocol {spec.name} ends in a {spec.final.kind}",
            "a protocol whose final step is a synthesis (an answer the task can score)",
        )
    options = plan_options({**given, **unknown}, run, setup, flag="-S")
    plan = build_plan(spec, options, Path(os.getcwd()))
    check_models(plan, model_roles())
    return deliberation_solver(plan, answers=True)


def _task_text(state: TaskState, answers: bool) -> str:
    if not answers:
        return state.input_text
    choices = [choice.value for choice in state.choices]
    return f"{question_text(state.input_text, choices)}\n\n{PARTICIPANT_INSTRUCTION}"


def _settings(
    plan: Plan, seats: dict[str, Seated], state: TaskState, task: str, seed: tuple[int, str]
) -> DeliberationSettings:
    meta = state.metadata
    return DeliberationSettings(
        protocol=plan.protocol.name,
        protocol_file=plan.protocol.file,
        protocol_snapshot=plan.protocol.snapshot,
        task_text=task,
        task_source=str(meta.get("task_source", "sample")),
        debate_type=meta.get("debate_type"),
        workspace_roots=[f"{root.kind}: {root.path}" for root in plan.roots],
        shadowed=list(plan.shadowed),
        seed=seed[0],
        seed_source=seed[1],
        max_rounds=plan.max_rounds,
        participants=[_seat(seat) for seat in seats.values()],
    )


def _seat(seat: Seated) -> Seat:
    persona = seat.plan.persona
    return Seat(
        id=seat.id,
        persona_id=persona.id,
        persona_file=persona.file,
        persona_role=persona.role,
        inspect_role=seat.role,
        model=str(seat.model),
        base_url=model_base_url(seat.model),
        effort=persona.effort,
        tags=list(persona.tags),
        system=persona.system,
        final=seat.plan.final,
    )


def _output(record: DeliberationRecord, outcome: Outcome) -> ModelOutput:
    """The final reply as the sample's output (never headed text), with the usage
    of every turn."""
    final = next(t for t in record.turns if t.id == outcome.final_turn_ids[-1])
    output = ModelOutput.from_content(model=final.model, content=_final_text(final.text, outcome))
    totals = {
        key: sum(getattr(t.usage, key) for t in record.turns)
        for key in ("input_tokens", "output_tokens", "total_tokens")
    }
    output.usage = ModelUsage(**totals)
    return output


def _final_text(text: str, outcome: Outcome) -> str:
    if outcome.kind == "synthesis":
        return text
    if outcome.status == "undecided":
        return f"UNDECIDED: {outcome.undecided_reason}"
    decision = outcome.decision or {}
    lines = [f"DECISION: {outcome.answer}"]
    if outcome.forced_escalate:
        lines.append(f"({forced_note(decision)})")
    lines += ["", str(decision.get("reasoning_summary", ""))]
    revisions = decision.get("revisions") or []
    if revisions:
        lines += ["", "Revisions:", *(f"- {r}" for r in revisions)]
    if decision.get("dissent"):
        lines += ["", f"Dissent: {decision['dissent']}"]
    return "\n".join(lines)
