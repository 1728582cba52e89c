"""Read a debatebench 0.1.x run.yaml unchanged, with its validation rules.

Mapping to Inspect: each team's `model` and `base_url` become that side's role
model through Inspect's generic OpenAI-compatible provider
(`openai-api/debatebench/<model>`), the `judge:` block becomes the `judge`
role, `budget`/`prep_budget` become the side's per-call caps, `seed` the base
seed and `timeout` the per-request timeout. `output:` (and the judge's
`output`/`transcript`) are accepted and ignored: the Inspect log is the output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from debatebench_eval.core.calls import DEFAULT_TIMEOUT
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.debate.config import (
    RUN_JUDGE_KEYS,
    RUN_KEYS,
    RUN_TEAM_KEYS,
    DebateSettings,
    RoleModel,
)
from debatebench_eval.prep.pools import VETTED_SOURCES
from debatebench_eval.record.motions import single_motion
from debatebench_eval.record.protocol import Phase, parse_phases
from debatebench_eval.record.teams import Team, resolve_team


def parse_run_yaml(path: Path) -> DebateSettings:
    data = load_yaml(path, "a debatebench run.yaml mapping")
    where = str(path)
    if not isinstance(data, dict):
        raise ConfigError(where, f"top level is {_describe(data)}", "a mapping of run settings")
    _check_keys(data, RUN_KEYS, where)
    topic = _text(data, "topic", where, required=True)
    phases = _phases(data.get("format"), where)
    teams, budgets, models, prep_budgets = _teams(data.get("teams"), phases, path.parent, where)
    judge = _judge(data.get("judge"), where)
    if judge is not None:
        models["judge"] = judge[0]
    notes = (
        ["run.yaml 'output' is ignored: the Inspect log is the output"] if "output" in data else []
    )
    assert topic is not None
    return DebateSettings(
        motions=(single_motion(topic),),
        phases=phases,
        teams=teams,
        budgets=budgets,
        prep_budgets=prep_budgets,
        seed=_int(data, "seed", where, minimum=0),
        timeout=_int(data, "timeout", where, minimum=1) or DEFAULT_TIMEOUT,
        sources=_sources(data.get("sources"), where),
        role_models=models,
        judge_budget=judge[1] if judge else None,
        fact_check=judge[2] if judge else True,
        notes=tuple(notes),
    )


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{value!r} ({type(value).__name__})"


def _check_keys(data: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    unknown = sorted(str(key) for key in data if key not in allowed)
    if unknown:
        raise ConfigError(where, f"unknown key {unknown[0]!r}", f"only {', '.join(allowed)}")


def _text(data: dict[str, Any], key: str, where: str, *, required: bool) -> str | None:
    if key not in data:
        if required:
            raise ConfigError(f"{where}: {key}", "missing", "a non-empty string")
        return None
    value = data[key]
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: {key}", f"got {_describe(value)}", "a non-empty string")
    return value.strip()


def _int(data: dict[str, Any], key: str, where: str, *, minimum: int) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(
            f"{where}: {key}", f"got {_describe(value)}", f"an integer of at least {minimum}"
        )
    return value


def _phases(block: Any, where: str) -> tuple[Phase, ...]:
    if not isinstance(block, dict):
        raise ConfigError(f"{where}: format", f"got {_describe(block)}", "a mapping with 'phases'")
    _check_keys(block, ("phases",), f"{where}: format")
    specs = block.get("phases")
    if not isinstance(specs, list) or not specs:
        raise ConfigError(f"{where}: format.phases", f"got {_describe(specs)}", "a non-empty list")
    for index, spec in enumerate(specs):
        if isinstance(spec, dict):
            raise ConfigError(
                f"{where}: format.phases[{index}]",
                f"a mapping {spec!r}",
                "a phase name such as rebuttal:long (no space after the colon)",
            )
    return parse_phases(specs, where=f"{where}: format.phases")


def _teams(
    entries: Any, phases: tuple[Phase, ...], base: Path, where: str
) -> tuple[dict[str, Team], dict[str, int], dict[str, RoleModel], dict[str, int | None]]:
    if not isinstance(entries, list) or len(entries) != 2:
        found = f"{len(entries)} entries" if isinstance(entries, list) else _describe(entries)
        raise ConfigError(f"{where}: teams", found, "a list of exactly two team entries")
    teams: dict[str, Team] = {}
    budgets: dict[str, int] = {}
    models: dict[str, RoleModel] = {}
    prep_budgets: dict[str, int | None] = {}
    for index, entry in enumerate(entries):
        at = f"{where}: teams[{index}]"
        if not isinstance(entry, dict):
            raise ConfigError(
                at, f"got {_describe(entry)}", "a mapping with team, side, model, base_url, budget"
            )
        _check_keys(entry, RUN_TEAM_KEYS, at)
        side = entry.get("side")
        if side not in ("pro", "con"):
            raise ConfigError(f"{at}.side", f"got {_describe(side)}", "'pro' or 'con'")
        if side in teams:
            raise ConfigError(at, f"two teams are both {side!r}", "one pro team and one con team")
        team_path = _text(entry, "team", at, required=True)
        assert team_path is not None
        teams[side] = resolve_team(team_path, base=base)
        budget = _int(entry, "budget", at, minimum=1)
        if budget is None:
            raise ConfigError(
                f"{at}.budget", "missing", "an integer of at least 1 (completion tokens per turn)"
            )
        budgets[side] = budget
        prep_budgets[side] = _prep_budget(entry, phases, at)
        models[side] = RoleModel(
            model=_text(entry, "model", at, required=True) or "",
            base_url=_url(entry.get("base_url"), f"{at}.base_url"),
        )
    return teams, budgets, models, prep_budgets


def _prep_budget(entry: dict[str, Any], phases: tuple[Phase, ...], at: str) -> int | None:
    has_prep = any(phase.is_prep for phase in phases)
    if has_prep and "prep_budget" not in entry:
        raise ConfigError(
            f"{at}.prep_budget", "missing although phases include 'prep'", "an integer"
        )
    if not has_prep and "prep_budget" in entry:
        raise ConfigError(f"{at}.prep_budget", "set but phases have no 'prep'", "no prep_budget")
    return _int(entry, "prep_budget", at, minimum=1)


def _url(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(
            where,
            f"got {_describe(value)}",
            "an http:// or https:// URL such as http://127.0.0.1:11434/v1",
        )
    try:
        parts = urlsplit(value)
        _ = parts.port  # raises on a malformed port
    except ValueError:
        parts = None
    # A stray space survives urlsplit but becomes %20 in every request path.
    spaced = any(char.isspace() for char in value)
    if spaced or parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            where,
            f"got {value!r}" + (", which holds a space" if spaced else ""),
            "an http:// or https:// URL such as http://127.0.0.1:11434/v1",
        )
    return value


def _judge(block: Any, where: str) -> tuple[RoleModel, int | None, bool] | None:
    if block is None:
        return None
    at = f"{where}: judge"
    if not isinstance(block, dict):
        raise ConfigError(
            at, f"got {_describe(block)}", "a mapping with model, base_url and budget"
        )
    _check_keys(block, RUN_JUDGE_KEYS, at)
    fact_check = block.get("fact_check", True)
    if not isinstance(fact_check, bool):
        raise ConfigError(f"{at}.fact_check", f"got {_describe(fact_check)}", "true or false")
    budget = _int(block, "budget", at, minimum=1)
    _int(block, "timeout", at, minimum=1)
    model = RoleModel(
        model=_text(block, "model", at, required=True) or "",
        base_url=_url(block.get("base_url"), f"{at}.base_url"),
    )
    return model, budget, fact_check


def _sources(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{where}: sources", f"got {_describe(value)}", "a list of pool names")
    for name in value:
        if name not in VETTED_SOURCES:
            raise ConfigError(
                f"{where}: sources",
                f"{name!r} is not a vetted pool",
                f"one of {', '.join(VETTED_SOURCES)}",
            )
    if len(set(value)) != len(value):
        raise ConfigError(f"{where}: sources", "a pool is listed twice", "each pool once")
    return tuple(value)
