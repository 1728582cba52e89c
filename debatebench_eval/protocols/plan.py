"""A deliberation's plan: the protocol, who sits where, and the run's limits.

Built by the task or solver factory from its arguments, before any model
call: every file is read, every selector resolved and every persona's model
mapped here. A persona whose model cannot be mapped is kept with its
problem, which is raised unless the participant's model role is bound.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.run_options import RunOptions
from debatebench_eval.protocols.models import (
    check_effort,
    inspect_role,
    persona_model,
    role_candidates,
)
from debatebench_eval.protocols.options import DeliberationOptions
from debatebench_eval.protocols.personas import Persona
from debatebench_eval.protocols.selection import (
    as_synthesizer,
    resolve,
    select_panel,
    select_synthesizer,
    select_table,
    selector_list,
)
from debatebench_eval.protocols.spec import Converge, Protocol, Turns, check_max_rounds
from debatebench_eval.protocols.workspace import Index, Root, discover_roots, load_index


@dataclass(frozen=True)
class SeatPlan:
    id: str
    persona: Persona
    # The mapped Inspect model name; None: the main model.
    model: str | None
    roles: tuple[str, ...]
    final: bool = False
    problem: ConfigError | None = None
    # The persona's effort, when it is sent as reasoning_effort.
    effort: str | None = None

    @property
    def inspect_role(self) -> str:
        return inspect_role(self.id)


@dataclass(frozen=True)
class Options:
    """The arguments every deliberation takes, each coerced once: its own here
    (`plan_options`), the run and deliberation settings by their groups."""

    with_: list[str] | None = None
    table: str | None = None
    synth: str | None = None
    rounds: int | None = None
    converge: bool = True
    budget: int | None = None
    run: RunOptions = field(default_factory=RunOptions)
    setup: DeliberationOptions = field(default_factory=DeliberationOptions)
    judge_schema: str = "auto"
    # How they were given: -T to a task, -S to the deliberate solver.
    flag: str = "-T"

    def label(self, name: str) -> str:
        return f"{self.flag} {name}"


@dataclass(frozen=True)
class Plan:
    protocol: Protocol
    seats: tuple[SeatPlan, ...]
    max_rounds: int
    converge: Converge | None
    options: Options
    roots: tuple[Root, ...]
    shadowed: tuple[str, ...]

    @property
    def final_seat(self) -> SeatPlan:
        return next(seat for seat in self.seats if seat.final)

    def speakers(self, turns: Turns) -> list[SeatPlan]:
        if turns.speakers is None:
            return [seat for seat in self.seats if not seat.final]
        by_id = {seat.id: seat for seat in self.seats}
        return [by_id[speaker] for speaker in turns.speakers]

    def turn_budget(self, turns: Turns, default: int) -> int:
        return self.options.budget or turns.budget or default

    @property
    def final_budget(self) -> int:
        return self.options.setup.final_budget or self.protocol.final.budget


def build_plan(protocol: Protocol, options: Options, start: Path) -> Plan:
    roots = discover_roots(start, options.setup.workspace, options.flag)
    index = load_index(roots)
    if protocol.participants is None:
        seats = _table_seats(protocol, options, index)
    else:
        seats = _fixed_seats(protocol, options, index)
    max_rounds = protocol.max_rounds
    if options.rounds is not None:
        check_max_rounds(
            options.rounds, len(protocol.rounds), protocol.repeats, options.label("rounds")
        )
        max_rounds = options.rounds
    return Plan(
        protocol=protocol,
        seats=tuple(seats),
        max_rounds=max_rounds,
        converge=protocol.converge if options.converge else None,
        options=options,
        roots=roots,
        shadowed=tuple(index.shadowed()),
    )


def _table_seats(protocol: Protocol, options: Options, index: Index) -> list[SeatPlan]:
    table = select_table(index, options.table, options.with_ is not None, options.flag)
    selectors = options.with_ if options.with_ is not None else list(table.panel if table else ())
    where = (
        options.label("with")
        if options.with_ is not None
        else f"{table.file if table else ''}: panel"
    )
    panel = select_panel(index, selectors, where)
    if options.synth is None and (table is None or table.synth is None) and protocol.final.by:
        synth = _final_persona(index, protocol.final.by, f"{protocol.file}: final.by")
    else:
        synth = select_synthesizer(index, options.synth, table, options.flag)
    seats = [_seat(p.id, p, options) for p in panel]
    final = _seat(synth.id, synth, options, final_kind="synthesis")
    return [*seats, _shared_model(final, seats, index)]


def _fixed_seats(protocol: Protocol, options: Options, index: Index) -> list[SeatPlan]:
    if options.with_ is not None or options.table is not None:
        given = "with" if options.with_ is not None else "table"
        raise ConfigError(
            options.label(given),
            f"given, but protocol {protocol.name} has fixed participants",
            "a protocol with `participants: table`",
        )
    assert protocol.participants is not None
    final = protocol.final
    seats = []
    for i, participant in enumerate(protocol.participants):
        label = f"{protocol.file}: participants[{i}].persona"
        persona = resolve(index, participant.persona, label)
        is_final = final.kind == "decision" and participant.id == final.by
        kind = final.kind if is_final else None
        seats.append(_seat(participant.id, persona, options, final_kind=kind))
    if final.kind == "synthesis":
        selector = options.synth or final.by
        label = options.label("synth") if options.synth else f"{protocol.file}: final.by"
        synth = (
            _final_persona(index, selector, label)
            if selector
            else select_synthesizer(index, None, None)
        )
        if any(seat.id == synth.id for seat in seats):
            raise ConfigError(
                label, f"synthesizer {synth.id!r} is also a participant id", "another persona"
            )
        seats.append(_seat(synth.id, synth, options, final_kind="synthesis"))
    return seats


def _final_persona(index: Index, selector: str, label: str) -> Persona:
    return as_synthesizer(resolve(index, selector, label), label)


def _seat(
    pid: str, persona: Persona, options: Options, *, final_kind: str | None = None
) -> SeatPlan:
    model, problem = None, None
    if options.setup.persona_models:
        try:
            model = persona_model(persona)
        except ConfigError as exc:
            problem = exc
    return SeatPlan(
        id=pid,
        persona=persona,
        model=model,
        roles=tuple(role_candidates(pid, final_kind)),
        final=final_kind is not None,
        problem=problem,
        effort=check_effort(persona) if options.setup.send_effort else None,
    )


def _shared_model(final: SeatPlan, panel: list[SeatPlan], index: Index) -> SeatPlan:
    """heurema's built-in synthesizer speaks with the panel's model when the panel
    shares one; the shipped synthesizer (model: inherit) does the same."""
    shipped = index.bundled.personas.get(final.persona.id) is final.persona
    models = {seat.model for seat in panel}
    if not shipped or final.model is not None or len(models) != 1 or None in models:
        return final
    return SeatPlan(**{**final.__dict__, "model": models.pop()})


def check_models(plan: Plan, bound: Collection[str]) -> None:
    """Raise the first unmappable persona model whose participant no role binds."""
    for seat in plan.seats:
        if seat.problem is not None and not any(role in bound for role in seat.roles):
            raise seat.problem


def plan_options(
    own: dict[str, Any],
    run: RunOptions,
    setup: DeliberationOptions,
    *,
    judge_schema: str = "auto",
    flag: str = "-T",
) -> Options:
    """The plan's options: the caller's own arguments (`-T` / `-S` values, YAML-parsed,
    comma-split) coerced here, the groups' values as their checks left them.
    `with` is a Python keyword, so it can only arrive among the unknown keys."""

    def at(name: str) -> str:
        return f"{flag} {name}"

    return Options(
        with_=selector_list(at("with"), own["with"]) if "with" in own else None,
        table=arg.text(at("table"), own.get("table")),
        synth=arg.text(at("synth"), own.get("synth")),
        rounds=arg.integer(at("rounds"), own.get("rounds")),
        converge=arg.boolean(at("converge"), own.get("converge", True)),
        budget=arg.integer(at("budget"), own.get("budget")),
        run=run,
        setup=setup,
        judge_schema=judge_schema,
        flag=flag,
    )
