"""The `debate` task: motions in, complete recorded debates out."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig, Model, get_model

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.calls import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.debate.config import (
    DEFAULT_BUDGET,
    DEFAULT_EMPTY_RETRIES,
    DEFAULT_FORMAT,
    DEFAULT_MOTIONS,
    DEFAULT_TEAMS,
    DebateSettings,
    check_prep,
    named_format,
    resolve_motions,
    role_model_spec,
)
from debatebench_eval.debate.context_plan import JudgedCalls
from debatebench_eval.debate.pairing import PAIRING_KEY, SWAPPED_SUFFIX, new_pairing_token
from debatebench_eval.debate.run_yaml import parse_run_yaml
from debatebench_eval.debate.solver import debate_solver
from debatebench_eval.debate.turn_stats import STAT_KEYS, turn_stats
from debatebench_eval.judging.options import JUDGE_ARGS
from debatebench_eval.judging.run_summary import report_problems_after_the_run
from debatebench_eval.judging.scorer_set import HEADLINE_METRIC, judging_scorers
from debatebench_eval.judging.verdict import DEFAULT_LEANING_MARGIN, DEFAULT_RESOLVED_MARGIN
from debatebench_eval.judging.viewer import debate_viewer
from debatebench_eval.prep.pools import TOPIC_MATCHES, open_pools
from debatebench_eval.record.protocol import parse_phases
from debatebench_eval.record.teams import resolve_team

DEBATE_ARGS = (
    "motion", "motions", "format", "phases", "budget", "pro_budget", "con_budget",
    "pro_team", "con_team", "paired", "config", "seed", "timeout", "empty_retries", "probe",
    "sources", "prep_budget", "context_window", "topic_match",
)  # fmt: skip
# With config=run.yaml these live in the file; giving both would be ambiguous.
_RUN_YAML_OWNS = (
    "motion",
    "motions",
    "format",
    "phases",
    "budget",
    "pro_budget",
    "con_budget",
    "pro_team",
    "con_team",
    "seed",
    "timeout",
    "sources",
    "prep_budget",
)


@task
def debate(
    motion: str | None = None,
    motions: str = DEFAULT_MOTIONS,
    format: str = DEFAULT_FORMAT,
    phases: str | list[str] | None = None,
    budget: int = DEFAULT_BUDGET,
    pro_budget: int | None = None,
    con_budget: int | None = None,
    pro_team: str = DEFAULT_TEAMS["pro"],
    con_team: str = DEFAULT_TEAMS["con"],
    paired: bool = False,
    config: str | None = None,
    seed: int | None = None,
    timeout: int = DEFAULT_TIMEOUT,
    empty_retries: int = DEFAULT_EMPTY_RETRIES,
    probe: bool = True,
    sources: str | list[str] | None = None,
    prep_budget: int | None = None,
    context_window: int | None = None,
    topic_match: str = "words",
    rubric: str | None = None,
    swap_judging: bool = True,
    fact_check: bool | None = None,
    judge_budget: int | None = None,
    judge_quorum: int | None = None,
    strict_judge: bool = False,
    judge_schema: bool | str = "auto",
    resolved_margin: float = DEFAULT_RESOLVED_MARGIN,
    leaning_margin: float = DEFAULT_LEANING_MARGIN,
    require_validated_judge: bool = False,
    **unknown: Any,
) -> Task:
    """A structured adversarial debate between the `pro` and `con` model roles.

    Args:
        motion: One motion to debate (the pro side argues for it).
        motions: A motion file (.yaml, .jsonl or .csv with columns id, motion,
            topic, category), or `default` for the bundled set (the default).
        format: A named format from tasks/formats (quickstart, classic,
            lightning, mirror). Default quickstart.
        phases: The phase list, e.g. [opening:medium, rebuttal:long,
            conclusion:short]; overrides `format`. Lengths short/medium/long
            ask for 2/5/10 sentences.
        budget: Completion-token cap on every call, both sides (default 2000).
        pro_budget: Cap for the `pro` role's model (overrides `budget`).
        con_budget: Cap for the `con` role's model (overrides `budget`).
        pro_team: Team of the pro side: built-in `advocate` (default) or
            `skeptic`, or a team file (.yaml, or .md with front matter).
        con_team: Team of the con side (default `skeptic`).
        paired: Run every motion twice with the pro and con models exchanged.
        config: A debatebench 0.1.x run.yaml; its models become the roles.
        seed: Base seed when --seed is not given (per-sample seeds derive from it).
        timeout: Seconds to wait for one model reply (default 600).
        empty_retries: Extra attempts when a model returns no speech (default 2).
        probe: Check each model server answers before debating (default true).
        sources: Shared evidence pools for prep: args-me, debatesum (from
            DEBATEBENCH_SOURCES_DIR), example (shipped), or .jsonl paths.
        prep_budget: Completion-token cap of each side's prep call (required with prep).
        context_window: Tokens each model server holds. Before the first turn, every
            call (each turn, the judge's and the fact-check's) is checked at its budget
            against it, its prompt counted by the server (llama.cpp's) with the turns not
            yet spoken at their budgets; each turn is counted again before its call.
            Default: the context a llama.cpp server reports, else not checked.
        topic_match: Which pool rows are candidates for prep: words (the default: a row
            whose topic shares a word with the motion's topic, as debatebench matches) or
            exact (a row whose topic equals it, ignoring case and spacing).
        rubric: A rubric file for the judge (default scorers/rubric.yaml).
        swap_judging: Judge twice with Side A/B swapped and average (default true).
        fact_check: Run the fact-check scorer (default true, or the run.yaml's judge setting).
        judge_budget: Completion-token cap of each judge call (default 6000, or the run.yaml's).
        judge_quorum: Valid judges needed when the judge role is a panel (default: all).
        strict_judge: Refuse to debate when the judge is also a debater (default false: warn).
        judge_schema: Hold the judge to JSON: auto (the default: object on llama.cpp's
            servers, true elsewhere, asked of each judge's server), true (structured
            output), object (json_object with the schema) or false (prompt only).
        resolved_margin: Total-score margin for RESOLVED (default 15 of 100).
        leaning_margin: Total-score margin for CONTESTED_BUT_LEANING (default 5 of 100).
        require_validated_judge: Refuse, before any model call, a judge without a passing
            validation record (see `debatebench-eval trust`).
    """
    arg.reject_unknown("task debate", unknown, (*DEBATE_ARGS, *JUDGE_ARGS))
    given = {k: v for k, v in locals().items() if k in DEBATE_ARGS}
    settings, roles = _settings(given)
    judged = {k: v for k, v in locals().items() if k in JUDGE_ARGS}
    judging = judging_scorers(
        judged, default_budget=settings.judge_budget, default_fact_check=settings.fact_check
    )
    pairing = new_pairing_token({**given, **judged}) if settings.paired else None
    report_problems_after_the_run()
    has_prep = any(phase.is_prep for phase in settings.phases)
    where = f"{given['config']}: sources" if given["config"] else "-T sources"
    pools = (
        open_pools(settings.sources, settings.teams, where, settings.topic_match)
        if has_prep
        else None
    )
    return Task(
        dataset=debate_dataset(settings),
        solver=debate_solver(
            settings,
            pools,
            strict_judge=arg.as_bool("strict_judge", strict_judge),
            require_validated_judge=arg.as_bool("require_validated_judge", require_validated_judge),
            pairing=pairing,
            judge_quorum=arg.as_int("judge_quorum", judge_quorum),
            judged=JudgedCalls(judging.options, judging.fact_check),
        ),
        scorer=[*judging.scorers, turn_stats()],
        model_roles=roles or None,
        viewer=debate_viewer({**judging.score_keys, "turn_stats": STAT_KEYS}),
        headline_metric=HEADLINE_METRIC,
        config=GenerateConfig(max_retries=DEFAULT_MAX_RETRIES, timeout=settings.timeout),
        # One failed debate must not stop the others; eval-retry resumes it.
        fail_on_error=False,
        metadata={
            "phases": [str(p) for p in settings.phases],
            "notes": list(settings.notes),
            **({PAIRING_KEY: pairing} if pairing else {}),
        },
    )


def _settings(given: dict[str, Any]) -> tuple[DebateSettings, dict[str, Model]]:
    paired = arg.as_bool("paired", given["paired"])
    probe = arg.as_bool("probe", given["probe"])
    retries = arg.as_int("empty_retries", given["empty_retries"], minimum=0, optional=False)
    assert retries is not None
    window = arg.as_int("context_window", given["context_window"])
    match = arg.as_choice("topic_match", given["topic_match"], TOPIC_MATCHES)
    config = arg.as_text("config", given["config"])
    if config is None:
        settings = _settings_from_args(given)
    else:
        # A default is a value the run.yaml can own; only a value given differs from it.
        defaults = {n: p.default for n, p in inspect.signature(debate).parameters.items()}
        clash = [key for key in _RUN_YAML_OWNS if given[key] != defaults[key]]
        if clash:
            raise ConfigError(
                f"-T {clash[0]}",
                "given together with -T config",
                f"'{clash[0]}' set in the run.yaml",
            )
        settings = parse_run_yaml(Path(config).expanduser())
    settings = DebateSettings(
        **{
            **settings.__dict__,
            "paired": paired,
            "probe": probe,
            "empty_retries": retries,
            "context_window": window,
            "topic_match": match,
        }
    )
    roles = {}
    for role, role_model in settings.role_models.items():
        name, model_args = role_model_spec(role_model)
        roles[role] = get_model(name, memoize=False, **model_args)
    return settings, roles


def _settings_from_args(given: dict[str, Any]) -> DebateSettings:
    phase_list = arg.as_list("phases", given["phases"])
    format_name = arg.as_text("format", given["format"])
    if phase_list is not None and format_name != DEFAULT_FORMAT:
        raise ConfigError("-T phases / -T format", "both were given", "one or the other")
    phases = (
        parse_phases(phase_list, where="-T phases")
        if phase_list is not None
        else named_format(format_name or DEFAULT_FORMAT)
    )
    sources = tuple(arg.as_list("sources", given["sources"]) or ())
    prep_budget = arg.as_int("prep_budget", given["prep_budget"])
    check_prep(phases, prep_budget, sources)
    budget = arg.as_int("budget", given["budget"]) or DEFAULT_BUDGET
    return DebateSettings(
        motions=resolve_motions(
            arg.as_text("motion", given["motion"]), arg.as_text("motions", given["motions"])
        ),
        phases=phases,
        teams={
            side: resolve_team(arg.as_text(f"{side}_team", given[f"{side}_team"]) or default)
            for side, default in DEFAULT_TEAMS.items()
        },
        budgets={
            "pro": arg.as_int("pro_budget", given["pro_budget"]) or budget,
            "con": arg.as_int("con_budget", given["con_budget"]) or budget,
        },
        prep_budgets={"pro": prep_budget, "con": prep_budget},
        sources=sources,
        seed=arg.as_int("seed", given["seed"], minimum=0),
        timeout=arg.as_int("timeout", given["timeout"]) or DEFAULT_TIMEOUT,
    )


def debate_dataset(settings: DebateSettings) -> MemoryDataset:
    """One sample per motion, or two per motion (sides exchanged) when paired."""
    samples = []
    for motion in settings.motions:
        for swapped in (False, True) if settings.paired else (False,):
            samples.append(
                Sample(
                    id=f"{motion.id}{SWAPPED_SUFFIX}" if swapped else motion.id,
                    input=f"Motion: {motion.text}",
                    metadata={
                        "motion_id": motion.id,
                        "motion": motion.text,
                        "topic": motion.topic,
                        "category": motion.category,
                        "pair_id": motion.id if settings.paired else None,
                        "swapped": swapped,
                    },
                )
            )
    return MemoryDataset(samples, name="debatebench-motions")
