"""Each participant's Inspect model, bound at the start of a sample.

Precedence: a `--model-role` binding (the participant's id, its `_`
spelling, or `synthesizer` / `judge` for the final step); then, with
`persona_models` off or a persona on `model: inherit`, the main model; else
the persona's mapped model. Models are resolved per sample, not when the
task is built, so a persona's provider is never constructed when a role
binding replaces it.
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import copy
from dataclasses import dataclass

from inspect_ai.model import GenerateConfig, Model, get_model, model_roles

from debatebench_eval.core.errors import DebateError
from debatebench_eval.protocols.plan import Plan, SeatPlan, check_models
from debatebench_eval.servers.role_models import is_placeholder, probe_models


@dataclass(frozen=True)
class Seated:
    plan: SeatPlan
    model: Model
    # The role the model answers to in Inspect's log (usage per role).
    role: str

    @property
    def id(self) -> str:
        return self.plan.id


async def seat_models(plan: Plan) -> dict[str, Seated]:
    bound = model_roles()
    check_models(plan, bound)
    seated = {seat.id: _seat(seat, bound) for seat in plan.seats}
    if plan.options.run.probe:
        await probe_models((seat.model, seat.role) for seat in seated.values())
    return seated


def _seat(seat: SeatPlan, bound: Mapping[str, object]) -> Seated:
    role = next((name for name in seat.roles if name in bound), None)
    if role is not None:
        model = get_model(role=role)
    else:
        role = seat.inspect_role
        default = seat.model if seat.model is not None else get_model()
        model = get_model(role=role, default=default)
    if is_placeholder(model):
        raise DebateError(
            f"no model for participant '{seat.id}' (persona {seat.persona.id}, model "
            f"{seat.persona.model}): pass --model, or --model-role {role}=PROVIDER/MODEL"
        )
    if seat.effort is not None:
        model = copy(model)
        model.config = model.config.merge(GenerateConfig(reasoning_effort=seat.effort))  # type: ignore[arg-type]
    return Seated(plan=seat, model=model, role=role)
