"""The judging options and the judge models, shared by every judging scorer.

The judging settings are one option group, `JudgingOptions`, each setting an
option of its own: a task that judges takes them as `-T judge_budget=...` and
hands the checked values on to its scorers; `inspect score -S judge_budget=...`
gives them to a scorer directly.
"""

from __future__ import annotations

import contextlib
import functools
import json
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Self

from inspect_ai.model import GenerateConfig, Model, ResponseSchema, get_model, model_roles
from inspect_ai.util import JSONSchema
from pydantic import Field, ValidationInfo, field_serializer, model_validator

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.errors import ConfigError, DebateError
from debatebench_eval.core.options import OptionGroup, coerced, labelled
from debatebench_eval.judging.rubric import Rubric, default_rubric, load_rubric
from debatebench_eval.judging.verdict import DEFAULT_LEANING_MARGIN, DEFAULT_RESOLVED_MARGIN
from debatebench_eval.servers.calls import call_config
from debatebench_eval.servers.kind import LLAMA_CPP_KINDS, ServerKind, server_kind
from debatebench_eval.servers.probe import model_base_url

JUDGE_ROLE = "judge"
# strict_judge's third value: refuse a judge of a debater's model family too.
FAMILY = "family"
# How the two orientations of the order swap become one verdict: their mean
# decides (today's), or a winner only when both readings name it, else a tie.
SWAP_RULES = ("mean", "survive")
# Repeats multiply the judge's calls; a typo of 100 should not start 100x the cost.
MAX_JUDGE_REPEATS = 25
# Room for a whole transcript's scores with justifications, and for the
# reasoning a thinking model spends first (debatebench's example uses 6000).
DEFAULT_JUDGE_BUDGET = 6000


def check_margins(resolved: float, leaning: float, where: str) -> None:
    """A contested-but-leaning margin above the resolved one would leave no RESOLVED tier."""
    if leaning > resolved:
        raise ConfigError(where, f"{leaning} is above resolved_margin {resolved}", "at most it")


def points(where: str, value: Any, default: float, maximum: float = 100) -> float:
    """A number of score points from 0 to `maximum` (a YAML string is read as a number)."""
    if value is None:
        return default
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = float(value)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= maximum:
        raise ConfigError(where, f"got {value!r}", f"a number of points from 0 to {maximum:g}")
    return float(value)


def judge_models() -> list[Model]:
    """The judge role's models (several for a panel), else the main model bound to
    the role, so its calls are attributed to the judge in the log's usage."""
    bound = model_roles().get(JUDGE_ROLE)
    if bound is None:
        return [get_model(role=JUDGE_ROLE, default=get_model())]
    return list(bound) if isinstance(bound, list) else [bound]


JSON_MODES = ("auto", "true", "object", "false")


def json_mode(where: str, value: Any) -> str:
    """How the judge is held to JSON: `auto` (per judge server, see
    `resolve_json_mode`), `true` (the provider's structured output, from
    Inspect's response schema), `object` (OpenAI-compatible servers such as
    llama.cpp's: `json_object` with the schema, which they enforce by grammar)
    or `false` (the prompt alone)."""
    if isinstance(value, str) and value.strip().lower() in ("auto", "object"):
        return value.strip().lower()
    try:
        return "true" if arg.boolean(where, value) else "false"
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
        return config.merge(GenerateConfig(response_schema=shared_schema(name, schema)))
    if mode in ("true", "object"):
        reply_format = _response_format(schema, name, mode)
        body = {**(config.extra_body or {}), "response_format": reply_format}
        return config.merge(GenerateConfig(extra_body=body))
    return config


class SharedSchema(ResponseSchema):
    """A reply schema built once for every call of its shape, and never copied.

    Inspect deep-copies a call's settings several times on the way to the server
    (each `merge`, the model's own resolve): about 1.2 ms a copy for the rubric's
    or the ledger's schema, several a judge call. Nothing changes a schema once it
    is sent, so a copy of it is the schema itself."""

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        return self


def shared_schema(name: str, schema: dict[str, Any]) -> SharedSchema:
    """The response schema of this reply schema, validated once per content."""
    return _shared_schema(name, json.dumps(schema))


@functools.lru_cache(maxsize=256)  # a crucible's evidence enums make a schema per debate
def _shared_schema(name: str, text: str) -> SharedSchema:
    return SharedSchema(name=name, json_schema=JSONSchema.model_validate_json(text), strict=True)


def _response_format(schema: dict[str, Any], name: str, mode: str) -> dict[str, Any]:
    if mode == "object":  # llama.cpp's servers: json_object with the schema, by grammar
        return {"type": "json_object", "schema": schema}
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}


def _rubric(where: str, value: Any) -> Rubric:
    if isinstance(value, Rubric):
        return value
    path = arg.text(where, value)
    return load_rubric(Path(path).expanduser()) if path else default_rubric()


def _strict(where: str, value: Any) -> bool | str:
    if isinstance(value, str) and value.strip().lower() == FAMILY:
        return FAMILY
    try:
        return arg.boolean(where, value)
    except ConfigError as exc:
        raise ConfigError(exc.where, exc.found, "true, false or family") from None


def _repeats(where: str, value: Any) -> int:
    found = arg.integer(where, value)
    if found is not None and found > MAX_JUDGE_REPEATS:
        raise ConfigError(where, f"got {found}", f"at most {MAX_JUDGE_REPEATS} repeats")
    return found or 1


def _swap_rule(where: str, value: Any) -> str:
    return arg.choice(where, value, SWAP_RULES)


def _schema(where: str, value: Any) -> str:
    return json_mode(where, value)


def _kappa(where: str, value: Any) -> float | None:
    """A kappa to require: a number from 0 to 1 (a YAML string is read as a number)."""
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = float(value)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ConfigError(where, f"got {value!r}", "a Cohen's kappa from 0 to 1, e.g. 0.6")
    return float(value)


def _resolved(where: str, value: Any) -> float:
    return points(where, value, DEFAULT_RESOLVED_MARGIN)


def _leaning(where: str, value: Any) -> float:
    return points(where, value, DEFAULT_LEANING_MARGIN)


class JudgeCalls(OptionGroup):
    """The settings of the judge's calls, shared by every group of judging settings."""

    GROUP: ClassVar[str] = "judging"

    judge_budget: Annotated[int, coerced(arg.integer, default=DEFAULT_JUDGE_BUDGET)] = Field(
        default=DEFAULT_JUDGE_BUDGET,
        description="Completion-token cap of each judge call (default 6000, or a debate "
        "run.yaml's judge budget).",
    )
    judge_quorum: Annotated[int | None, coerced(arg.integer)] = Field(
        default=None,
        description="Valid judges (readings) needed when the judge role is a panel (default: all).",
    )
    strict_judge: Annotated[bool | Literal["family"], coerced(_strict)] = Field(
        default=False,
        description="Refuse to judge with a model that also debated (true), or also with "
        "one of a debater's model family (family: qwen3:8b and qwen2.5 are both qwen; see "
        "judging.families); default false: warn of either.",
    )
    judge_schema: Annotated[str, coerced(_schema)] = Field(
        default="auto",
        description="Hold the judge to JSON: auto (the default: object on llama.cpp's servers, "
        "true elsewhere, asked of each judge's server), true (structured output), object "
        "(json_object with the schema) or false (prompt only).",
    )
    require_validated_judge: Annotated[bool, coerced(arg.boolean, default=False)] = Field(
        default=False,
        description="Refuse, before any model call, a judge without a passing validation "
        "record (see `debatebench-eval trust`).",
    )
    require_human_kappa: Annotated[float | None, coerced(_kappa)] = Field(
        default=None,
        description="Refuse, before any model call, a judge whose newest human-agreement "
        "record (`debatebench-eval agreement`) has a Cohen's kappa below this, or that has "
        "none (default: not required; the record's own pass mark is 0.40).",
    )


class JudgingOptions(JudgeCalls):
    """The judge's settings: one group, taken by every task and scorer that judges a
    debate (`-T judge_budget=1024 -T swap_judging=false`, `-S judge_budget=...`)."""

    rubric: Annotated[Rubric, coerced(_rubric)] = Field(
        default_factory=default_rubric,
        description="A rubric file for the judge (default scorers/rubric.yaml).",
    )
    swap_judging: Annotated[bool, coerced(arg.boolean, default=True)] = Field(
        default=True, description="Judge twice with Side A/B swapped and average (default true)."
    )
    swap_rule: Annotated[str, coerced(_swap_rule, default="mean")] = Field(
        default="mean",
        description="How the swapped readings decide: mean (the default: their mean scores "
        "decide) or survive (a winner only when both orientations pick it, else a tie, its "
        "reason recorded); no extra calls. Needs swap_judging.",
    )
    judge_repeats: Annotated[int, coerced(_repeats, default=1)] = Field(
        default=1,
        description="Judge each debate k times (default 1), each repeat with its own recorded "
        "seed; each judge's repeats are combined by the median per dimension, then the panel "
        "as before. Costs k times the rubric calls (k x 2 per judge with swap_judging); the "
        "fact-check is not repeated. A judge counts toward the quorum when all its repeats "
        "parsed. Reports the verdict flip rate across repeats, the share of debates whose "
        "winner is stable in all k and each dimension's spread.",
    )
    fact_check: Annotated[bool | None, coerced(arg.boolean)] = Field(
        default=None,
        description="Run the fact-check scorer (default true, or the run.yaml's judge setting).",
    )
    resolved_margin: Annotated[float, coerced(_resolved)] = Field(
        default=DEFAULT_RESOLVED_MARGIN,
        description="Total-score margin for RESOLVED (default 15 of 100).",
    )
    leaning_margin: Annotated[float, coerced(_leaning)] = Field(
        default=DEFAULT_LEANING_MARGIN,
        description="Total-score margin for CONTESTED_BUT_LEANING (default 5 of 100).",
    )

    @field_serializer("rubric")
    def _rubric_file(self, rubric: Rubric) -> str | None:
        # The bundled rubric as "not given", so a log names no path of this machine.
        return None if rubric == default_rubric() else rubric.file

    @model_validator(mode="after")
    def _leaning_at_most_resolved(self, info: ValidationInfo) -> Self:
        check_margins(self.resolved_margin, self.leaning_margin, labelled(info, "leaning_margin"))
        if self.swap_rule == "survive" and not self.swap_judging:
            # One reading has nothing to survive: the rule would be the mean rule unsaid.
            raise ConfigError(
                labelled(info, "swap_rule"), "survive with swap_judging false", "swap_judging true"
            )
        return self


# The judging options as task arguments.
JUDGE_ARGS = JudgingOptions.option_keys()
