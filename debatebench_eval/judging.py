"""What the judging scorers share: their options, the judge models, the guard.

Scorer options are task options (`-T swap_judging=false` on `inspect eval`),
and scorer options again under `inspect score -S ...`; both arrive as YAML
scalars and are coerced here, with one clear error naming the option.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from inspect_ai.model import GenerateConfig, Model, ResponseSchema, get_model, model_roles
from inspect_ai.scorer import Scorer
from inspect_ai.util import JSONSchema

from . import arguments as arg
from .errors import ConfigError, DebateError
from .probe import model_base_url
from .record import DebateRecord
from .rubric import Rubric, default_rubric, load_rubric
from .speech import call_config
from .trust import judge_identity, trust_status
from .verdict import DEFAULT_LEANING_MARGIN, DEFAULT_RESOLVED_MARGIN

JUDGE_ROLE = "judge"
# Room for a whole transcript's scores with justifications, and for the
# reasoning a thinking model spends first (debatebench's example uses 6000).
DEFAULT_JUDGE_BUDGET = 6000
JUDGE_ARGS = (
    "rubric", "swap_judging", "fact_check", "judge_budget", "judge_quorum", "strict_judge",
    "judge_schema", "resolved_margin", "leaning_margin", "require_validated_judge",
)  # fmt: skip


@dataclass(frozen=True)
class JudgeOptions:
    rubric: Rubric
    swap_judging: bool = True
    judge_budget: int = DEFAULT_JUDGE_BUDGET
    judge_quorum: int | None = None
    strict_judge: bool = False
    judge_schema: str = "true"
    resolved_margin: float = DEFAULT_RESOLVED_MARGIN
    leaning_margin: float = DEFAULT_LEANING_MARGIN
    require_validated_judge: bool = False


def judge_options(
    *,
    rubric: Any = None,
    swap_judging: Any = True,
    judge_budget: Any = None,
    judge_quorum: Any = None,
    strict_judge: Any = False,
    judge_schema: Any = True,
    resolved_margin: Any = None,
    leaning_margin: Any = None,
    require_validated_judge: Any = False,
) -> JudgeOptions:
    """Coerce and check the judging options (from -T or -S)."""
    path = arg.as_text("rubric", rubric)
    resolved = _number("resolved_margin", resolved_margin, DEFAULT_RESOLVED_MARGIN)
    leaning = _number("leaning_margin", leaning_margin, DEFAULT_LEANING_MARGIN)
    if leaning > resolved:
        raise ConfigError(
            arg.label("leaning_margin"),
            f"{leaning} is above resolved_margin {resolved}",
            "at most it",
        )
    return JudgeOptions(
        rubric=load_rubric(Path(path).expanduser()) if path else default_rubric(),
        swap_judging=arg.as_bool("swap_judging", swap_judging),
        judge_budget=arg.as_int("judge_budget", judge_budget) or DEFAULT_JUDGE_BUDGET,
        judge_quorum=arg.as_int("judge_quorum", judge_quorum),
        strict_judge=arg.as_bool("strict_judge", strict_judge),
        judge_schema=json_mode(judge_schema),
        resolved_margin=resolved,
        leaning_margin=leaning,
        require_validated_judge=arg.as_bool("require_validated_judge", require_validated_judge),
    )


def scorer_options(scorer: str, unknown: Mapping[str, Any], **given: Any) -> JudgeOptions:
    """A judging scorer's options as `inspect score -S` gives them: an unknown
    key or a bad value is one message naming `-S <key>`. (From a task they
    arrive already checked by `judging_scorers`, naming `-T`.)"""
    with arg.given_with("-S"):
        arg.reject_unknown(f"scorer {scorer}", unknown, given)
        return judge_options(**given)


def _number(name: str, value: Any, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = float(value)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 100:
        raise ConfigError(arg.label(name), f"got {value!r}", "a number of points from 0 to 100")
    return float(value)


def judge_models() -> list[Model]:
    """The judge role's models (several for a panel), else the main model."""
    bound = model_roles().get(JUDGE_ROLE)
    if bound is None:
        return [get_model()]
    return list(bound) if isinstance(bound, list) else [bound]


def json_mode(value: Any) -> str:
    """How the judge is held to JSON: `true` (the provider's structured output, from
    Inspect's response schema), `object` (OpenAI-compatible servers such as
    llama.cpp's: `json_object` with the schema, which it enforces by grammar) or
    `false` (the prompt alone)."""
    if isinstance(value, str) and value.strip().lower() == "object":
        return "object"
    try:
        return "true" if arg.as_bool("judge_schema", value) else "false"
    except ConfigError as exc:
        raise ConfigError(exc.where, exc.found, "true, false or object") from None


def judge_config(
    model: Model, budget: int, seed: int, schema: dict[str, Any], name: str, mode: str
) -> GenerateConfig:
    """The debate's own settings rule (budget and seed win), plus the reply format."""
    config = call_config(model, budget, seed)
    if mode == "true":
        format_ = ResponseSchema(name=name, json_schema=JSONSchema.model_validate(schema))
        return config.merge(GenerateConfig(response_schema=format_))
    if mode == "object":
        body = {
            **(config.extra_body or {}),
            "response_format": {"type": "json_object", "schema": schema},
        }
        return config.merge(GenerateConfig(extra_body=body))
    return config


def debater_clashes(judges: list[Model], record: DebateRecord) -> list[str]:
    """A warning for each judge that is also one of the debate's models."""
    assert record.run is not None
    warnings = []
    for judge in judges:
        name, url = str(judge).rsplit("/", 1)[-1], _server(model_base_url(judge))
        for side in record.run.sides:
            other = _server(side.base_url)
            same_url = url is None or other is None or url == other
            if side.model.rsplit("/", 1)[-1] == name and same_url:
                warnings.append(
                    f"judge {judge} is also the {side.side} side's model ({side.model}): "
                    "a model judging its own debate is not an independent judge"
                )
    return warnings


_LOOPBACK = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}


def _server(url: str | None) -> str | None:
    """A server address to compare: every loopback name is one machine."""
    if url is None:
        return None
    parts = urlsplit(url.rstrip("/"))
    host = "loopback" if (parts.hostname or "") in _LOOPBACK else parts.hostname
    return f"{host}:{parts.port}{parts.path}"


def guard(judges: list[Model], record: DebateRecord, strict: bool) -> list[str]:
    """The judge ≠ debater guard: warnings, or an error before any call when strict."""
    warnings = debater_clashes(judges, record)
    if warnings and strict:
        raise DebateError(f"strict_judge: {warnings[0]}; pass a different --model-role judge=...")
    return warnings


async def judge_trust(judges: list[Model], require: bool) -> dict[str, Any]:
    """The judges' trust status (a panel's least trusted), or an error when one is required."""
    statuses = [(judge, trust_status(await judge_identity(judge))) for judge in judges]
    judge, worst = next(((j, s) for j, s in statuses if s["status"] != "trusted"), statuses[0])
    if require and worst["status"] != "trusted":
        why = worst.get("why") or "no validation record for it"
        raise DebateError(
            f"require_validated_judge: judge {judge} is {worst['status']} ({why}); run "
            f"`inspect eval debatebench/judge_validation --model {judge}` and "
            "`debatebench-eval trust LOG` first"
        )
    return {"status": worst["status"], "record": worst.get("record")}


def judging_scorers(
    given: dict[str, Any], default_budget: int | None = None, default_fact_check: bool = True
) -> list[Scorer]:
    """The rubric scorer, and the fact-check unless turned off, from task options."""
    from .fact_check import fact_check
    from .rubric_scorer import rubric

    options = {k: v for k, v in given.items() if k != "fact_check"}
    if options.get("judge_budget") is None:
        options["judge_budget"] = default_budget
    judge_options(**options)  # checked here, so a bad value is named as the task's -T
    checked = given.get("fact_check")
    run_fact_check = default_fact_check if checked is None else arg.as_bool("fact_check", checked)
    scorers = [rubric(**options)]
    if run_fact_check:
        scorers.append(
            fact_check(
                judge_budget=options["judge_budget"],
                judge_schema=options.get("judge_schema", "true"),
                strict_judge=options.get("strict_judge", False),
                require_validated_judge=options.get("require_validated_judge", False),
            )
        )
    return scorers
