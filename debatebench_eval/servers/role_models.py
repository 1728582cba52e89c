"""A role's model, with the main model as its fallback, and probing them.

Every solver that seats models binds them explicitly (the main model when no
`--model-role` names the role), so each call is attributed to its role in the
log's usage. Inspect's placeholder for "no model given" is the `none`
provider (`--model none`); it is recognised by name through Inspect's public
`ModelName`, and refused before any call with what to pass.
"""

from __future__ import annotations

from collections.abc import Iterable

from inspect_ai.model import Model, ModelName, get_model

from debatebench_eval.core.errors import DebateError
from debatebench_eval.servers.probe import ensure_reachable

PLACEHOLDER_PROVIDER = "none"


def is_placeholder(model: Model) -> bool:
    """Whether the model is Inspect's stand-in for no model at all."""
    return ModelName(model).api == PLACEHOLDER_PROVIDER


def role_model(role: str, default: Model | None = None, who: str | None = None) -> Model:
    """The model bound to `role`, else `default`, else the main model; refused when
    that is Inspect's placeholder. `who` names the seat in the message."""
    model = get_model(role=role, default=default if default is not None else get_model())
    if is_placeholder(model):
        raise DebateError(
            f"no model for {who or f'role {role!r}'}: pass --model, "
            f"or --model-role {role}=PROVIDER/MODEL"
        )
    return model


async def probe_models(seated: Iterable[tuple[Model, str]]) -> None:
    """Probe each (model, role) in turn: the first server that does not answer
    fails the sample, naming its URL and the role."""
    for model, role in seated:
        await ensure_reachable(model, role)
