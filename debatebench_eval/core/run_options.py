"""The run settings every task that calls models takes: retries of an empty reply, probe.

One group, declared and documented here once (`-T probe=false`). The seed and
the timeout are Inspect's own (`--seed`, `--timeout`): a solver reads them from
the run's generate settings. A task reads only the keys it has
(`Taker.accepts`): a re-judging task makes no debater call, so it takes `probe`
alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import Field

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.options import OptionGroup, Taker, coerced

# A model that returns no speech is asked again this many times before its sample fails.
DEFAULT_EMPTY_RETRIES = 2
RUN_KEYS = ("empty_retries", "probe")
# What a task that only judges recorded debates reads of the group.
PROBE_ONLY = ("probe",)


class RunOptions(OptionGroup):
    """How a run calls its models: retries of an empty reply, probing."""

    GROUP: ClassVar[str] = "run"

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
