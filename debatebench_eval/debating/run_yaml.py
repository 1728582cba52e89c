"""Read a debatebench 0.1.x run.yaml unchanged, with its validation rules.

Mapping to Inspect: each team's `model` and `base_url` become that side's role
model through Inspect's generic OpenAI-compatible provider
(`openai-api/debatebench/<model>`), the `judge:` block becomes the `judge`
role, `budget`/`prep_budget` become the side's per-call caps, `seed` the base
seed and `timeout` the per-request timeout. `output:` (and the judge's
`output`/`transcript`) are accepted and ignored: the Inspect log is the output.
The file's shape is one typed model (`core.config_file`); the rules that read
other files (the team files, the phase names) follow it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, ClassVar
from urllib.parse import urlsplit

from pydantic import BeforeValidator, PlainValidator, model_validator

from debatebench_eval.core.calls import DEFAULT_TIMEOUT
from debatebench_eval.core.config_file import (
    ConfigFile,
    Said,
    choice,
    flag,
    parse_file,
    text,
    whole,
)
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.reply_model import expected_error
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.debating.config import DebateSettings, RoleModel
from debatebench_eval.prep.pools import VETTED_SOURCES
from debatebench_eval.record.motions import single_motion
from debatebench_eval.record.protocol import Phase, parse_phases
from debatebench_eval.record.teams import Team, resolve_team

_URL = "an http:// or https:// URL such as http://127.0.0.1:11434/v1"
Text = Annotated[str, text()]
Count = Annotated[int, whole()]


def _url(value: Any) -> str:
    if not isinstance(value, str):
        raise expected_error(_URL)
    try:
        parts = urlsplit(value)
        _ = parts.port  # raises on a malformed port
    except ValueError:
        parts = None
    # A stray space survives urlsplit but becomes %20 in every request path.
    spaced = any(char.isspace() for char in value)
    if spaced or parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise expected_error(_URL, f"got {value!r}" + (", which holds a space" if spaced else ""))
    return value


Url = Annotated[str, PlainValidator(_url), Said(_URL)]


def _phase_specs(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise expected_error("a non-empty list")
    for index, spec in enumerate(value):
        if isinstance(spec, dict):
            raise expected_error(
                "a phase name such as rebuttal:long (no space after the colon)",
                f"a mapping {spec!r}",
                index,
            )
    return tuple(value)


def _two(value: Any) -> Any:
    if not isinstance(value, list) or len(value) != 2:
        found = f"{len(value)} entries" if isinstance(value, list) else None
        raise expected_error("a list of exactly two team entries", found)
    return value


def _sources(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise expected_error("a list of pool names")
    for name in value:
        if name not in VETTED_SOURCES:
            found = f"{name!r} is not a vetted pool"
            raise expected_error(f"one of {', '.join(VETTED_SOURCES)}", found)
    if len(set(value)) != len(value):
        raise expected_error("each pool once", "a pool is listed twice")
    return tuple(value)


class RunTeam(ConfigFile):
    team: Text
    side: Annotated[str, choice(("pro", "con"), "'pro' or 'con'")]
    model: Text
    base_url: Url
    budget: Annotated[int, whole(1, "an integer of at least 1 (completion tokens per turn)")]
    prep_budget: Count | None = None


class RunJudge(ConfigFile):
    model: Text
    base_url: Url
    budget: Count | None = None
    fact_check: Annotated[bool, flag()] = True
    timeout: Count | None = None
    # debatebench's own outputs: accepted, and ignored (the Inspect log is the output).
    transcript: object = None
    output: object = None


class RunFormat(ConfigFile):
    phases: Annotated[tuple[str, ...], BeforeValidator(_phase_specs), Said("a non-empty list")]


class RunFile(ConfigFile):
    """A debatebench 0.1.x run.yaml."""

    MAPPING: ClassVar[str | None] = "a mapping of run settings"
    topic: Text
    format: RunFormat
    teams: Annotated[
        tuple[RunTeam, ...], BeforeValidator(_two), Said("a list of exactly two team entries")
    ]
    sources: Annotated[tuple[str, ...], BeforeValidator(_sources)] = ()
    seed: Annotated[int, whole(0)] | None = None
    timeout: Count | None = None
    judge: RunJudge | None = None
    output: object = None

    @model_validator(mode="after")
    def _one_side_each(self) -> Any:
        if self.teams[0].side == self.teams[1].side:
            found = f"two teams are both {self.teams[1].side!r}"
            raise expected_error("one pro team and one con team", found, "teams", 1)
        return self


def parse_run_yaml(path: Path) -> DebateSettings:
    where = str(path)
    data = parse_file(RunFile, load_yaml(path, "a debatebench run.yaml mapping"), where)
    phases = parse_phases(list(data.format.phases), where=f"{where}: format.phases")
    teams: dict[str, Team] = {}
    models: dict[str, RoleModel] = {}
    for index, entry in enumerate(data.teams):
        _check_prep(entry, phases, f"{where}: teams[{index}]")
        teams[entry.side] = resolve_team(entry.team, base=path.parent)
        models[entry.side] = RoleModel(model=entry.model, base_url=entry.base_url)
    judge = data.judge
    if judge is not None:
        models["judge"] = RoleModel(model=judge.model, base_url=judge.base_url)
    notes = ["run.yaml 'output' is ignored: the Inspect log is the output"]
    return DebateSettings(
        motions=(single_motion(data.topic),),
        phases=phases,
        teams=teams,
        budgets={entry.side: entry.budget for entry in data.teams},
        prep_budgets={entry.side: entry.prep_budget for entry in data.teams},
        seed=data.seed,
        timeout=data.timeout or DEFAULT_TIMEOUT,
        sources=data.sources,
        role_models=models,
        judge_budget=judge.budget if judge else None,
        fact_check=judge.fact_check if judge else True,
        notes=tuple(notes) if "output" in data.model_fields_set else (),
    )


def _check_prep(entry: RunTeam, phases: tuple[Phase, ...], at: str) -> None:
    has_prep = any(phase.is_prep for phase in phases)
    given = "prep_budget" in entry.model_fields_set
    if has_prep and not given:
        raise ConfigError(
            f"{at}.prep_budget", "missing although phases include 'prep'", "an integer"
        )
    if not has_prep and given:
        raise ConfigError(f"{at}.prep_budget", "set but phases have no 'prep'", "no prep_budget")
