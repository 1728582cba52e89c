"""The crucible's options: `-T` (and `-S` for the scorer) over the topic file's switches.

Every value is coerced and range-checked with one ConfigError naming the
option. The topic file's `protocol` and `scoring` switches are defaults that
`-T` overrides; anything neither sets takes the built-in default below.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.crucible.topic import NEUTRALIZE_MODES
from debatebench_eval.judging.options import DEFAULT_JUDGE_BUDGET, json_mode, margins, points

# A claims reply (five claims with chains and excerpts) runs to about 1,500
# tokens, and a thinking model spends as much again first.
DEFAULT_BUDGET = 4000
DEFAULT_TIMEOUT = 600
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
    "seed",
    "timeout",
    "probe",
    "resume_cache",
)
SCORING_ARGS = (
    "judges",
    "judge_quorum",
    "meta_judge",
    "audit_spread",
    "resolved_margin",
    "leaning_margin",
    "judge_budget",
    "judge_schema",
    "strict_judge",
    "require_validated_judge",
)


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
    seed: int | None = None
    timeout: int = DEFAULT_TIMEOUT
    probe: bool = True
    resume_cache: bool = True


@dataclass(frozen=True)
class ScoringOptions:
    judges: int = 3
    judge_quorum: int | None = None
    meta_judge: bool = True
    audit_spread: float = DEFAULT_AUDIT_SPREAD
    resolved_margin: float = DEFAULT_RESOLVED_MARGIN
    leaning_margin: float = DEFAULT_LEANING_MARGIN
    judge_budget: int = DEFAULT_JUDGE_BUDGET
    judge_schema: str = "auto"
    strict_judge: bool = False
    require_validated_judge: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _given(given: dict[str, Any], defaults: dict[str, Any], key: str) -> Any:
    value = given.get(key)
    return defaults.get(key) if value is None else value


def _ranged(name: str, value: Any, default: int, low: int, high: int) -> int:
    number = arg.as_int(name, value, minimum=low)
    if number is None:
        return default
    if number > high:
        raise ConfigError(arg.label(name), f"got {number}", f"an integer from {low} to {high}")
    return number


def debate_options(given: dict[str, Any], topic_defaults: dict[str, Any]) -> DebateOptions:
    """The debate's options from -T values (None: not given) over the topic file's."""
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
        seed=arg.as_int("seed", pick("seed"), minimum=0),
        timeout=arg.as_int("timeout", pick("timeout")) or base.timeout,
        probe=flag("probe", base.probe),
        resume_cache=flag("resume_cache", base.resume_cache),
    )


def early_stop(value: Any) -> float | None:
    """The judged convergence that ends the rounds; None (never) for 0, none or false."""
    if value is None:
        return DEFAULT_EARLY_STOP
    if value is False or (isinstance(value, str) and value.strip().lower() in ("none", "never")):
        return None
    threshold = points("early_stop", value, DEFAULT_EARLY_STOP, maximum=1)
    return threshold or None


def scoring_options(
    given: dict[str, Any], defaults: dict[str, Any] | None = None
) -> ScoringOptions:
    """The scorer's options from -T/-S values (None: not given) over `defaults` (the
    topic file's switches, or the options a saved run was scored with)."""
    defaults = defaults or {}
    base = ScoringOptions()

    def pick(key: str) -> Any:
        return _given(given, defaults, key)

    resolved, leaning = margins(
        pick("resolved_margin"),
        pick("leaning_margin"),
        base.resolved_margin,
        base.leaning_margin,
        maximum=MAX_MARGIN,
    )
    judges = _ranged("judges", pick("judges"), base.judges, 1, 9)
    quorum = arg.as_int("judge_quorum", pick("judge_quorum"))
    if quorum is not None and quorum > judges:
        raise ConfigError(
            arg.label("judge_quorum"),
            f"{quorum} is above judges {judges}",
            "at most the number of judge readings",
        )
    meta, schema = pick("meta_judge"), pick("judge_schema")
    return ScoringOptions(
        judges=judges,
        judge_quorum=quorum,
        meta_judge=base.meta_judge if meta is None else arg.as_bool("meta_judge", meta),
        audit_spread=points("audit_spread", pick("audit_spread"), base.audit_spread, MAX_MARGIN),
        resolved_margin=resolved,
        leaning_margin=leaning,
        judge_budget=arg.as_int("judge_budget", pick("judge_budget")) or base.judge_budget,
        judge_schema=json_mode(base.judge_schema if schema is None else schema),
        strict_judge=arg.as_bool("strict_judge", pick("strict_judge") or False),
        require_validated_judge=arg.as_bool(
            "require_validated_judge", pick("require_validated_judge") or False
        ),
    )
