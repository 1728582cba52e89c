"""The settings of a debate run, from task arguments or a debatebench run.yaml.

`DebateSettings` is the one validated object the task and solver use; both
entry points (plain `-T` arguments and `-T config=run.yaml`) end here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from debatebench_eval.core.calls import DEFAULT_TIMEOUT
from debatebench_eval.core.config_file import ConfigFile, checked, parse_file, text
from debatebench_eval.core.credentials import strip_credentials
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.resources import data_dir
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.record.motions import Motion, load_motions, single_motion
from debatebench_eval.record.protocol import Phase, parse_phases
from debatebench_eval.record.teams import Team

DEFAULT_BUDGET = 2000
DEFAULT_FORMAT = "quickstart"
DEFAULT_MOTIONS = "default"
DEFAULT_TEAMS = {"pro": "advocate", "con": "skeptic"}
DEFAULT_EMPTY_RETRIES = 2

# Sent to OpenAI-compatible servers named in a run.yaml when no key is set:
# local servers ignore the key but the client library requires one.
API_KEY_VAR = "DEBATEBENCH_API_KEY"


@dataclass(frozen=True)
class RoleModel:
    """A model named by a run.yaml team or judge entry."""

    model: str
    base_url: str


@dataclass(frozen=True)
class DebateSettings:
    motions: tuple[Motion, ...]
    phases: tuple[Phase, ...]
    teams: dict[str, Team]
    budgets: dict[str, int]
    prep_budgets: dict[str, int | None] = field(default_factory=lambda: {"pro": None, "con": None})
    # Per role: thinking's own cap beside the budget; None shares the budget.
    reasoning_budgets: dict[str, int | None] = field(
        default_factory=lambda: {"pro": None, "con": None}
    )
    paired: bool = False
    seed: int | None = None
    timeout: int = DEFAULT_TIMEOUT
    empty_retries: int = DEFAULT_EMPTY_RETRIES
    probe: bool = True
    context_window: int | None = None
    sources: tuple[str, ...] = ()
    topic_match: str = "words"
    role_models: dict[str, RoleModel] = field(default_factory=dict)
    # From a run.yaml judge block; the judging scorers read them.
    judge_budget: int | None = None
    fact_check: bool = True
    notes: tuple[str, ...] = ()


def named_format(name: str) -> tuple[Phase, ...]:
    """The phases of a format shipped in tasks/formats/."""
    formats = data_dir("tasks") / "formats"
    path = formats / f"{name}.yaml"
    if not path.is_file():
        names = sorted(p.stem for p in formats.glob("*.yaml"))
        raise ConfigError("-T format", f"unknown format {name!r}", f"one of {', '.join(names)}")
    data = parse_file(FormatFile, load_yaml(path, "a debate format"), str(path))
    return parse_phases(list(data.phases), where=f"{path}: phases")


class FormatFile(ConfigFile):
    """A debate format of tasks/formats/: its phases, and a line saying what it is."""

    description: Annotated[str, text()] = ""
    phases: Annotated[
        tuple[str, ...],
        checked(
            "a non-empty list of phases",
            lambda v: isinstance(v, list) and bool(v) and all(isinstance(p, str) for p in v),
            tuple,
        ),
    ]


def resolve_motions(motion: str | None, motions: str | None) -> tuple[Motion, ...]:
    if motion is not None and motions not in (None, DEFAULT_MOTIONS):
        raise ConfigError("-T motion / -T motions", "both were given", "one or the other")
    if motion is not None:
        return (single_motion(motion),)
    if motions is None or motions == DEFAULT_MOTIONS:
        return load_motions(data_dir("tasks") / "motions" / "default.yaml")
    return load_motions(Path(motions).expanduser())


def check_prep(
    phases: tuple[Phase, ...], prep_budget: int | None, sources: tuple[str, ...]
) -> None:
    """`prep_budget` if and only if `prep` is a phase; `sources` only with prep."""
    has_prep = any(phase.is_prep for phase in phases)
    if has_prep and prep_budget is None:
        raise ConfigError(
            "-T prep_budget", "missing although phases include 'prep'", "an integer (tokens)"
        )
    if not has_prep and (prep_budget is not None or sources):
        raise ConfigError(
            "-T prep_budget / -T sources", "given but phases have no 'prep'", "prep in -T phases"
        )


def role_model_spec(role_model: RoleModel) -> tuple[str, dict[str, Any]]:
    """Map a run.yaml model to Inspect's generic OpenAI-compatible provider."""
    api_key = os.environ.get(API_KEY_VAR) or "not-needed"
    return (
        f"openai-api/debatebench/{role_model.model}",
        {"base_url": strip_credentials(role_model.base_url), "api_key": api_key},
    )
