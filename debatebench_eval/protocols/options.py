"""The settings both deliberation tasks (`panel`, `adjudicate`) take, declared once.

Each is an option of its own (`-T final_budget=1500`). Each task fills in its
own protocol when none is given.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import Field

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.options import OptionGroup, Taker, coerced

DELIBERATION_KEYS = ("protocol", "final_budget", "persona_models", "send_effort", "workspace")


class DeliberationOptions(OptionGroup):
    """How a deliberation is set up: its protocol, the final call's cap, the personas' models."""

    GROUP: ClassVar[str] = "deliberation"

    protocol: Annotated[str | None, coerced(arg.text)] = Field(
        default=None,
        description="The task's own protocol (`panel` for panel, `adjudication` for "
        "adjudicate; the default) or a protocol .yaml file.",
    )
    final_budget: Annotated[int | None, coerced(arg.integer)] = Field(
        default=None,
        description="Completion-token cap of the final calls: panel's synthesis, "
        "adjudicate's judge calls (default 2000).",
    )
    persona_models: Annotated[bool, coerced(arg.boolean, default=True)] = Field(
        default=True,
        description="Speak with each persona's own `model` (default true; false: --model).",
    )
    send_effort: Annotated[bool, coerced(arg.boolean, default=False)] = Field(
        default=False,
        description="Send each persona's `effort` as reasoning_effort (default false).",
    )
    workspace: Annotated[str | None, coerced(arg.text)] = Field(
        default=None,
        description="A folder with personas/ and tables/, or one holding .heurema/debate "
        "(default: found by walking up from the working directory).",
    )


def deliberation_options(flat: dict[str, Any], taker: Taker, protocol: str) -> DeliberationOptions:
    """The deliberation settings, moved out of `flat` (a task's `**unknown`, or the
    solver's arguments) and checked; `protocol` when none is given."""
    given = DeliberationOptions.taken(flat, taker)
    return DeliberationOptions.checked(given, defaults={"protocol": protocol})
