"""The run settings every task that calls models takes: seed, timeout, retries, probe.

One group, declared and documented here once. Its flat form is the documented
one (`-T seed=3`, `-T probe=false`); `-T run="{probe: false}"` gives the same.
A task reads only the keys it has (`Taker.accepts`): a re-judging task makes
no debater call, so it takes `probe` alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import Field

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.calls import DEFAULT_TIMEOUT
from debatebench_eval.core.options import OptionGroup, Taker, coerced

# A model that returns no speech is asked again this many times before its sample fails.
DEFAULT_EMPTY_RETRIES = 2
RUN_KEYS = ("seed", "timeout", "empty_retries", "probe")
# What a task that only judges recorded debates reads of the group.
PROBE_ONLY = ("probe",)


class RunOptions(OptionGroup):
    """How a run calls its models: seed, timeout, retries of an empty reply, probing."""

    GROUP: ClassVar[str] = "run"
    FLAT_PRIMARY: ClassVar[bool] = True

    seed: Annotated[int | None, coerced(arg.integer, minimum=0)] = Field(
        default=None,
        description="Base seed when --seed is not given (per-sample seeds derive from it).",
    )
    timeout: Annotated[int, coerced(arg.integer, default=DEFAULT_TIMEOUT)] = Field(
        default=DEFAULT_TIMEOUT,
        description=f"Seconds to wait for one model reply (default {DEFAULT_TIMEOUT}).",
    )
    empty_retries: Annotated[
        int, coerced(arg.integer, minimum=0, default=DEFAULT_EMPTY_RETRIES)
    ] = Field(
        default=DEFAULT_EMPTY_RETRIES,
        description="Extra attempts when a model returns no speech "
        f"(default {DEFAULT_EMPTY_RETRIES}).",
    )
    probe: Annotated[bool, coerced(arg.boolean, default=True)] = Field(
        default=True,
        description="Check each model server answers before the first call (default true).",
    )


def run_options(
    flat: dict[str, Any], taker: Taker, defaults: Mapping[str, Any] | None = None
) -> RunOptions:
    """The task's run settings, moved out of its `**unknown` (`flat`) and checked."""
    return RunOptions.checked(RunOptions.taken(flat, taker), defaults)
