"""The crucible's options: `-T` (and `-S` for the scorer) over the topic file's switches.

Every value is coerced and range-checked with one ConfigError naming the
option. The topic file's `protocol` and `scoring` switches are defaults that
`-T` overrides; anything neither sets takes the built-in default below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Self

from pydantic import Field, ValidationInfo, model_validator

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import Given, coerced, labelled
from debatebench_eval.core.run_options import RunOptions
from debatebench_eval.judging.options import JudgeCalls, check_margins, points
from debatebench_eval.truth_crucible.topic import NEUTRALIZE_MODES

# A claims reply (five claims with chains and excerpts) runs to about 1,500
# tokens, and a thinking model spends as much again first.
DEFAULT_BUDGET = 4000
# The reference's verdict thresholds, on the 1-5 scale of a claim's weighted total.
DEFAULT_RESOLVED_MARGIN = 1.5
DEFAULT_LEANING_MARGIN = 0.5
MAX_MARGIN = 4.0  # scores are 1-5, so a gap is at most 4
DEFAULT_AUDIT_SPREAD = 1.5
DEFAULT_EARLY_STOP = 0.8

DEBATE_ARGS = (
    "topic",
    "claims",
    "rounds",
    "steelman",
    "position_swap",
    "neutralize",
    "early_stop",
    "queries",
    "hits",
    "budget",
    "probe",
    "resume_cache",
)

# The run settings a crucible reads (its empty replies fail the call's checks instead).
CRUCIBLE_RUN_KEYS = ("probe",)


@dataclass(frozen=True)
class DebateOptions:
    claims: int = 5
    rounds: int = 2
    steelman: bool = True
    position_swap: bool = False
    neutralize: str = "off"
    early_stop: float | None = DEFAULT_EARLY_STOP
    queries: int = 3
    hits: int = 6
    budget: int = DEFAULT_BUDGET
    probe: bool = True
    resume_cache: bool = True


def _judges(where: str, value: Any) -> int:
    return _ranged_at(where, value, 3, 1, 9)


def _audit_spread(where: str, value: Any) -> float:
    return points(where, value, DEFAULT_AUDIT_SPREAD, MAX_MARGIN)


def _resolved(where: str, value: Any) -> float:
    return points(where, value, DEFAULT_RESOLVED_MARGIN, MAX_MARGIN)


def _leaning(where: str, value: Any) -> float:
    return points(where, value, DEFAULT_LEANING_MARGIN, MAX_MARGIN)


class ScoringOptions(JudgeCalls):
    """The crucible's judging settings: the judge's calls as every judging task's, and a
    panel of readings on the 1-5 scale of a claim (`-T judges=2`)."""

    judges: Annotated[int, coerced(_judges, default=3)] = Field(
        default=3,
        description="Panel readings, each with its own anonymisation seed; the judge role's "
        "models are used in turn (1-9, default 3, or scoring.judge_count).",
    )
    meta_judge: Annotated[bool, coerced(arg.boolean, default=True)] = Field(
        default=True,
        description="Audit the readings with the meta_judge role (else the first judge), with "
        "at most one targeted rescore (default true, or scoring.enable_meta_judge).",
    )
    audit_spread: Annotated[float, coerced(_audit_spread)] = Field(
        default=DEFAULT_AUDIT_SPREAD,
        description="Spread of a claim's weighted total across readings that flags it for "
        "the audit (default 1.5 points of 1-5).",
    )
    resolved_margin: Annotated[float, coerced(_resolved)] = Field(
        default=DEFAULT_RESOLVED_MARGIN,
        description="Gap of side means for RESOLVED (default 1.5).",
    )
    leaning_margin: Annotated[float, coerced(_leaning)] = Field(
        default=DEFAULT_LEANING_MARGIN,
        description="Gap of side means for CONTESTED_BUT_LEANING (default 0.5).",
    )

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> Self:
        check_margins(self.resolved_margin, self.leaning_margin, labelled(info, "leaning_margin"))
        if self.judge_quorum is not None and self.judge_quorum > self.judges:
            raise ConfigError(
                labelled(info, "judge_quorum"),
                f"{self.judge_quorum} is above judges {self.judges}",
                "at most the number of judge readings",
            )
        return self

    def as_dict(self) -> dict[str, Any]:
        return self.model_dump()


SCORING_ARGS = ScoringOptions.option_keys()


def _given(given: dict[str, Any], defaults: dict[str, Any], key: str) -> Any:
    value = given.get(key)
    return defaults.get(key) if value is None else value


def _ranged(name: str, value: Any, default: int, low: int, high: int) -> int:
    return _ranged_at(arg.label(name), value, default, low, high)


def _ranged_at(where: str, value: Any, default: int, low: int, high: int) -> int:
    number = arg.integer(where, value, minimum=low)
    if number is None:
        return default
    if number > high:
        raise ConfigError(where, f"got {number}", f"an integer from {low} to {high}")
    return number


def debate_options(
    given: dict[str, Any], topic_defaults: dict[str, Any], run: RunOptions
) -> DebateOptions:
    """The debate's options from -T values (None: not given) over the topic file's,
    with the run settings as their group checked them."""
    base = DebateOptions()

    def pick(key: str) -> Any:
        return _given(given, topic_defaults, key)

    def flag(key: str, default: bool) -> bool:
        value = pick(key)
        return default if value is None else arg.as_bool(key, value)

    neutralize = pick("neutralize")
    neutralize = "off" if neutralize in (None, False) else neutralize
    if neutralize not in NEUTRALIZE_MODES:
        raise ConfigError(
            arg.label("neutralize"), f"got {neutralize!r}", "off, diagnose or rewrite"
        )
    return DebateOptions(
        claims=_ranged("claims", pick("claims"), base.claims, 1, 10),
        rounds=_ranged("rounds", pick("rounds"), base.rounds, 0, 6),
        steelman=flag("steelman", base.steelman),
        position_swap=flag("position_swap", base.position_swap),
        neutralize=str(neutralize),
        early_stop=early_stop(pick("early_stop")),
        queries=_ranged("queries", pick("queries"), base.queries, 0, 5),
        hits=_ranged("hits", pick("hits"), base.hits, 1, 20),
        budget=arg.as_int("budget", pick("budget")) or base.budget,
        probe=run.probe,
        resume_cache=flag("resume_cache", base.resume_cache),
    )


def early_stop(value: Any) -> float | None:
    """The judged convergence that ends the rounds; None (never) for 0, none or false."""
    if value is None:
        return DEFAULT_EARLY_STOP
    if value is False or (isinstance(value, str) and value.strip().lower() in ("none", "never")):
        return None
    threshold = points(arg.label("early_stop"), value, DEFAULT_EARLY_STOP, maximum=1)
    return threshold or None


def scoring_options(
    given: Given | dict[str, Any], defaults: dict[str, Any] | None = None
) -> ScoringOptions:
    """The scorer's options from -T/-S values (None: not given) over `defaults` (the
    topic file's switches, or the options a saved run was scored with)."""
    if not isinstance(given, Given):
        given = Given(dict(given), {key: arg.label(key) for key in given})
    return ScoringOptions.checked(given, defaults)
