"""The judging options and the judge models, shared by every judging scorer.

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

from inspect_ai.model import GenerateConfig, Model, ResponseSchema, get_model, model_roles
from inspect_ai.util import JSONSchema

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.errors import ConfigError, DebateError
from debatebench_eval.judging.rubric import Rubric, default_rubric, load_rubric
from debatebench_eval.judging.verdict import DEFAULT_LEANING_MARGIN, DEFAULT_RESOLVED_MARGIN
from debatebench_eval.servers.calls import call_config
from debatebench_eval.servers.kind import LLAMA_CPP_KINDS, ServerKind, server_kind
from debatebench_eval.servers.probe import model_base_url

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
    judge_schema: str = "auto"
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
    judge_schema: Any = "auto",
    resolved_margin: Any = None,
    leaning_margin: Any = None,
    require_validated_judge: Any = False,
) -> JudgeOptions:
    """Coerce and check the judging options (from -T or -S)."""
    path = arg.as_text("rubric", rubric)
    resolved, leaning = margins(
        resolved_margin, leaning_margin, DEFAULT_RESOLVED_MARGIN, DEFAULT_LEANING_MARGIN
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


def margins(
    resolved_margin: Any,
    leaning_margin: Any,
    default_resolved: float,
    default_leaning: float,
    maximum: float = 100,
) -> tuple[float, float]:
    """The two margin-tier thresholds, each from 0 to `maximum`, leaning at most resolved."""
    resolved = points("resolved_margin", resolved_margin, default_resolved, maximum)
    leaning = points("leaning_margin", leaning_margin, default_leaning, maximum)
    if leaning > resolved:
        raise ConfigError(
            arg.label("leaning_margin"),
            f"{leaning} is above resolved_margin {resolved}",
            "at most it",
        )
    return resolved, leaning


def points(name: str, value: Any, default: float, maximum: float = 100) -> float:
    """A number of score points from 0 to `maximum` (a YAML string is read as a number)."""
    if value is None:
        return default
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = float(value)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= maximum:
        raise ConfigError(
            arg.label(name), f"got {value!r}", f"a number of points from 0 to {maximum:g}"
        )
    return float(value)


def judge_models() -> list[Model]:
    """The judge role's models (several for a panel), else the main model bound to
    the role, so its calls are attributed to the judge in the log's usage."""
    bound = model_roles().get(JUDGE_ROLE)
    if bound is None:
        return [get_model(role=JUDGE_ROLE, default=get_model())]
    return list(bound) if isinstance(bound, list) else [bound]


JSON_MODES = ("auto", "true", "object", "false")


def json_mode(value: Any) -> str:
    """How the judge is held to JSON: `auto` (per judge server, see
    `resolve_json_mode`), `true` (the provider's structured output, from
    Inspect's response schema), `object` (OpenAI-compatible servers such as
    llama.cpp's: `json_object` with the schema, which they enforce by grammar)
    or `false` (the prompt alone)."""
    if isinstance(value, str) and value.strip().lower() in ("auto", "object"):
        return value.strip().lower()
    try:
        return "true" if arg.as_bool("judge_schema", value) else "false"
    except ConfigError as exc:
        raise ConfigError(exc.where, exc.found, "auto, true, false or object") from None


class JsonModeRefused(DebateError):
    """The judge's server refuses the JSON mode asked for; no call is made."""


async def resolve_json_mode(model: Model, requested: str) -> str:
    """The JSON mode one judge's calls use. `auto` asks the judge's server what it
    runs: llama.cpp's servers get `object` (llama-cpp-python's refuses `json_schema`
    outright), everything else `true`. An explicit `true` against a server known to
    refuse it fails here, before any call, naming the option to change."""
    if requested not in ("auto", "true"):
        return requested
    kind = await server_kind(model)
    if requested == "true" and kind == "llama-cpp-python":
        raise JsonModeRefused(
            f"judge {model} at {model_base_url(model)} runs llama-cpp-python's server, which "
            "refuses the json_schema response format that judge_schema=true sends; use "
            "-T judge_schema=auto (or object) instead"
        )
    return "object" if kind in LLAMA_CPP_KINDS else "true"


def judge_config(
    model: Model,
    budget: int,
    seed: int,
    schema: dict[str, Any],
    name: str,
    mode: str,
    kind: ServerKind | None = None,
) -> GenerateConfig:
    """The debate's own settings rule (budget and seed win), plus the reply format.

    `true` is Inspect's structured output with `strict` on (every reply schema
    requires all its properties and forbids others, as OpenAI's strict mode
    asks), except on Ollama: Inspect's provider there strips `pattern`, lengths
    and ranges from a response schema, so the schema goes as the request's own
    `response_format`, which Ollama turns into a grammar whole."""
    config = call_config(model, budget, seed)
    if mode == "true" and kind != "ollama":
        format_ = ResponseSchema(
            name=name, json_schema=JSONSchema.model_validate(schema), strict=True
        )
        return config.merge(GenerateConfig(response_schema=format_))
    if mode in ("true", "object"):
        reply_format = _response_format(schema, name, mode)
        body = {**(config.extra_body or {}), "response_format": reply_format}
        return config.merge(GenerateConfig(extra_body=body))
    return config


def _response_format(schema: dict[str, Any], name: str, mode: str) -> dict[str, Any]:
    if mode == "object":  # llama.cpp's servers: json_object with the schema, by grammar
        return {"type": "json_object", "schema": schema}
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}
