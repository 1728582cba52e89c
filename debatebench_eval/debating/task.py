"""The `debate` task: motions in, complete recorded debates out."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig, Model, get_model

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.calls import DEFAULT_MAX_RETRIES
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import task_taker
from debatebench_eval.core.run_options import RunOptions
from debatebench_eval.core.task_versions import TASK_VERSIONS
from debatebench_eval.debating.call_shape import CALLS_KEY, CallBound, settings_bounds
from debatebench_eval.debating.config import (
    DEFAULT_BUDGET,
    DEFAULT_FORMAT,
    DEFAULT_MOTIONS,
    DEFAULT_TEAMS,
    DebateSettings,
    check_prep,
    named_format,
    resolve_motions,
    role_model_spec,
)
from debatebench_eval.debating.context_plan import JudgedCalls
from debatebench_eval.debating.pairing import PAIRING_KEY, SWAPPED_SUFFIX, new_pairing_token
from debatebench_eval.debating.run_yaml import parse_run_yaml
from debatebench_eval.debating.solver import debate_solver
from debatebench_eval.debating.turn_stats import STAT_LISTED, turn_stats
from debatebench_eval.judging.options import JudgingOptions
from debatebench_eval.judging.run_summary import report_problems_after_the_run
from debatebench_eval.judging.scorer_set import HEADLINE_METRIC, Judging, judging_scorers
from debatebench_eval.judging.viewer import debate_viewer
from debatebench_eval.prep.pools import TOPIC_MATCHES, Pools, open_pools
from debatebench_eval.record.protocol import parse_phases
from debatebench_eval.record.store import REASONING_BUDGETS_KEY
from debatebench_eval.record.teams import resolve_team

DEBATE_ARGS = (
    "motion", "motions", "format", "phases", "budget", "pro_team", "con_team", "paired",
    "config", "empty_retries", "probe", "sources", "prep_budget", "context_window",
    "topic_match", "reasoning_budget",
)  # fmt: skip
_RUN_DEFAULTS = {key: field.default for key, field in RunOptions.model_fields.items()}
# With config=run.yaml these live in the file; giving both would be ambiguous.
_RUN_YAML_OWNS = (
    "motion",
    "motions",
    "format",
    "phases",
    "budget",
    "pro_team",
    "con_team",
    "sources",
    "prep_budget",
)


@task
def debate(
    motion: str | None = None,
    motions: str = DEFAULT_MOTIONS,
    format: str = DEFAULT_FORMAT,
    phases: str | list[str] | None = None,
    budget: int | dict[str, int] = DEFAULT_BUDGET,
    pro_team: str = DEFAULT_TEAMS["pro"],
    con_team: str = DEFAULT_TEAMS["con"],
    paired: bool = False,
    config: str | None = None,
    sources: str | list[str] | None = None,
    prep_budget: int | None = None,
    context_window: int | None = None,
    topic_match: str = "words",
    reasoning_budget: int | dict[str, int] | None = None,
    **unknown: Any,
) -> Task:
    """A structured adversarial debate between the `pro` and `con` model roles.

    The judge's settings (judge_budget, swap_judging, ...) and the run settings
    (empty_retries, probe) are options of their own too (`debatebench-eval list`).
    The seed and the reply timeout are Inspect's --seed and --timeout.

    Args:
        motion: One motion to debate (the pro side argues for it).
        motions: A motion file (.yaml, .jsonl or .csv with columns id, motion,
            topic, category), or `default` for the bundled set (the default).
        format: A named format from tasks/formats (quickstart, classic,
            lightning, mirror). Default quickstart.
        phases: The phase list, e.g. [opening:medium, rebuttal:long,
            conclusion:short]; overrides `format`. Lengths short/medium/long
            ask for 2/5/10 sentences.
        budget: Completion-token cap on every call: a number for both sides (default
            2000), or "{pro: N, con: M}" per role (a role left out gets 2000).
        pro_team: Team of the pro side: built-in `advocate` (default) or
            `skeptic`, or a team file (.yaml, or .md with front matter).
        con_team: Team of the con side (default `skeptic`).
        paired: Run every motion twice with the pro and con models exchanged.
        config: A debatebench 0.1.x run.yaml; its models become the roles.
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
        reasoning_budget: Reasoning-token cap of every debater call: a number for both
            sides, or "{pro: N, con: M}" per role. `budget` then caps the speech alone:
            each call is sent max_tokens = budget + its reasoning budget, with Inspect's
            reasoning_tokens for the providers that take it. A reply reporting more
            reasoning tokens fails its debate. Default: none (thinking shares `budget`).
    """
    given = {k: v for k, v in locals().items() if k in DEBATE_ARGS}
    taker = task_taker("debate", DEBATE_ARGS)
    run_given = RunOptions.taken(unknown, taker)
    judged = JudgingOptions.gather(unknown, taker)
    # The pairing token reads the run settings as given, beside the task's own.
    given.update({**_RUN_DEFAULTS, **run_given.values})
    given.update(side_budgets(budget))
    settings, roles = _settings(given, RunOptions.checked(run_given))
    options = JudgingOptions.checked(
        judged, defaults={"judge_budget": settings.judge_budget, "fact_check": settings.fact_check}
    )
    judging_set = judging_scorers(options)
    pairing = _pairing_token(settings, {**given, **judged.values})
    report_problems_after_the_run()
    pools = _prep_pools(settings, given["config"])
    return _debate_task(settings, roles, options, judging_set, pairing, pools)


def _pairing_token(settings: DebateSettings, given: dict[str, Any]) -> str | None:
    """The token both halves of a paired run share (None when not paired), from every
    option as given: the task's own, the run settings and the judging options."""
    if not settings.paired:
        return None
    # An unset reasoning budget is left out: a paired run keeps the token (and so the
    # task identity eval_set resumes by) that it had before the option existed.
    return new_pairing_token(
        {k: v for k, v in given.items() if v is not None or k != "reasoning_budget"}
    )


def _prep_pools(settings: DebateSettings, config: str | None) -> Pools | None:
    """The evidence pools of a debate with a prep phase (None without one), opened
    before the run so that a missing or bad pool fails before any model call."""
    if not any(phase.is_prep for phase in settings.phases):
        return None
    where = f"{config}: sources" if config else "-T sources"
    return open_pools(settings.sources, settings.teams, where, settings.topic_match)


def _debate_task(
    settings: DebateSettings,
    roles: dict[str, Model],
    options: JudgingOptions,
    judging_set: Judging,
    pairing: str | None,
    pools: Pools | None,
) -> Task:
    """The task of checked settings: the debates, their judging and the run's metadata."""
    return Task(
        version=TASK_VERSIONS["debate"],
        dataset=debate_dataset(settings),
        solver=debate_solver(
            settings,
            pools,
            pairing=pairing,
            judged=JudgedCalls(options, judging_set.fact_check),
        ),
        scorer=[*judging_set.scorers, turn_stats()],
        model_roles=roles or None,
        viewer=debate_viewer({**judging_set.score_keys, "turn_stats": STAT_LISTED}),
        headline_metric=HEADLINE_METRIC,
        config=GenerateConfig(max_retries=DEFAULT_MAX_RETRIES, timeout=settings.timeout),
        # One failed debate must not stop the others; eval-retry resumes it.
        fail_on_error=False,
        metadata={
            "phases": [str(p) for p in settings.phases],
            "notes": list(settings.notes),
            **({PAIRING_KEY: pairing} if pairing else {}),
            **_reasoning_metadata(settings),
            CALLS_KEY: [bound.as_dict() for bound in _call_bounds(settings, options, judging_set)],
        },
    )


def _settings(given: dict[str, Any], run: RunOptions) -> tuple[DebateSettings, dict[str, Model]]:
    paired = arg.as_bool("paired", given["paired"])
    window = arg.as_int("context_window", given["context_window"])
    match = arg.as_choice("topic_match", given["topic_match"], TOPIC_MATCHES)
    config = arg.as_text("config", given["config"])
    if config is None:
        settings = _settings_from_args(given, run)
    else:
        # A default is a value the run.yaml can own; only a value given differs from it.
        parameters = inspect.signature(debate).parameters.items()
        defaults = {**_RUN_DEFAULTS, **{n: p.default for n, p in parameters}}
        clash = [key for key in _RUN_YAML_OWNS if given[key] != defaults.get(key)]
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
            "probe": run.probe,
            "empty_retries": run.empty_retries,
            "context_window": window,
            "topic_match": match,
            "reasoning_budgets": _reasoning_budgets(given),
        }
    )
    roles = {}
    for role, role_model in settings.role_models.items():
        name, model_args = role_model_spec(role_model)
        roles[role] = get_model(name, memoize=False, **model_args)
    return settings, roles


def by_role(name: str, value: Any) -> dict[str, Any] | None:
    """An option given per role ("{pro: N, con: M}") as its values by role (a role
    left out: None); None when it is one value for both roles."""
    if not isinstance(value, dict):
        return None
    extra = sorted(set(map(str, value)) - set(DEFAULT_TEAMS))
    if extra:
        raise ConfigError(arg.label(name), f"has the key(s) {', '.join(extra)}",
                          "a number, or a mapping of pro and con to numbers")  # fmt: skip
    return {role: value.get(role) for role in DEFAULT_TEAMS}


def side_budgets(budget: Any) -> dict[str, Any]:
    """Each role's own cap from a `budget` mapping ("{pro: N, con: M}"; a role left
    out, or one number for both: None)."""
    roles = by_role("budget", budget) or dict.fromkeys(DEFAULT_TEAMS)
    return {f"{role}_budget": roles[role] for role in DEFAULT_TEAMS}


def _reasoning_budgets(given: dict[str, Any]) -> dict[str, int | None]:
    """Each role's reasoning budget: one number for both, or a mapping by role (a role
    left out has none). Not owned by a run.yaml (debatebench's has no such key), so it
    applies to both entry points."""
    value = given["reasoning_budget"]
    roles = by_role("reasoning_budget", value)
    if roles is None:
        return dict.fromkeys(DEFAULT_TEAMS, arg.as_int("reasoning_budget", value))
    return {role: arg.as_int(f"reasoning_budget.{role}", roles[role]) for role in DEFAULT_TEAMS}


def _call_bounds(
    settings: DebateSettings, options: JudgingOptions, judging_set: Judging
) -> list[CallBound]:
    """Each call of one debate at its caps (a run's cost estimate reads them)."""
    readings = (2 if options.swap_judging else 1) * options.judge_repeats
    judging = (options.rubric, options.judge_budget, readings, judging_set.fact_check)
    return settings_bounds(settings.phases, settings.budgets, settings.prep_budgets,
                           settings.reasoning_budgets, judging)  # fmt: skip


def _reasoning_metadata(settings: DebateSettings) -> dict[str, dict[str, int | None]]:
    """The run's reasoning budgets by role, when one is set (else nothing: a run
    without them keeps the metadata it had)."""
    if all(budget is None for budget in settings.reasoning_budgets.values()):
        return {}
    return {REASONING_BUDGETS_KEY: dict(settings.reasoning_budgets)}


def _settings_from_args(given: dict[str, Any], run: RunOptions) -> DebateSettings:
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
    one = None if isinstance(given["budget"], dict) else given["budget"]
    budget = arg.as_int("budget", one) or DEFAULT_BUDGET
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
            "pro": arg.as_int("budget.pro", given["pro_budget"]) or budget,
            "con": arg.as_int("budget.con", given["con_budget"]) or budget,
        },
        prep_budgets={"pro": prep_budget, "con": prep_budget},
        sources=sources,
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
