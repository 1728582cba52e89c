"""The rubric debate as a tournament's task kind: two models argue a motion from both
sides, a judge panel scores both on the rubric, and a model's rating is how often
the panel found it argued better (`tournament.kind` for the protocol).

Its identity is the debate's shape (phases, format), its -T options, the seed,
the judge guard and the rubric's digest; it names no task (the identity debate
tournaments had before there was any other kind, so their folders keep it).
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task_with
from inspect_ai.log import EvalSample

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import Taker
from debatebench_eval.core.run_options import RUN_KEYS, RunOptions
from debatebench_eval.debating.config import DEFAULT_FORMAT, DebateSettings, named_format
from debatebench_eval.debating.task import DEBATE_ARGS, debate, debate_dataset
from debatebench_eval.judging.options import JUDGE_ARGS, JudgingOptions
from debatebench_eval.judging.repeats import combine_repeats, judge_groups, outcome
from debatebench_eval.judging.verdict import SWAP_DISAGREED, mean_scores
from debatebench_eval.matches.results import DebateResult, JudgeView, SideStats
from debatebench_eval.matches.spend import debate_spend
from debatebench_eval.record.motions import Motion, default_motions, load_motions
from debatebench_eval.record.protocol import SIDES, parse_phases
from debatebench_eval.record.store import DebateRecord
from debatebench_eval.tournament import rubric_board
from debatebench_eval.tournament.kind import (
    Asked,
    Board,
    Column,
    Items,
    Rated,
    RateOptions,
    reason_line,
)
from debatebench_eval.tournament.schedule import (
    SLOT,
    Item,
    Schedule,
    Settings,
    digest,
    parse_task_args,
    refuse_role_mappings,
)

SCORER = "rubric"
FACT_CHECK = "fact_check"
# Verdicts decided before the scores: the loser forfeited, whatever the totals.
FORFEITS = ("stance_forfeit",)
# -T keys the tournament sets itself, with what to use instead.
OWNED = {
    "motion": "--motions FILE and --limit N",
    "motions": "--motions FILE and --limit N",
    "format": "--format NAME",
    "seed": "--seed N",
    "timeout": "--timeout SECONDS",
    "paired": "nothing: every matchup is argued from both sides",
    "config": "--models and --judges (a run.yaml brings its own models)",
    "strict_judge": "--allow-self-judging (the judge guard is on by default)",
    "pro_budget": f"-T budget: {SLOT}",
    "con_budget": f"-T budget: {SLOT}",
}
_TAKER = Taker("debatebench-eval tournament")


def motion_sha256(motion: Motion) -> str:
    """What the tournament scheduled under a motion's id: a later edit shows here."""
    return digest({"text": motion.text, "topic": motion.topic, "category": motion.category})


def motion_record(motion: Motion) -> dict[str, Any]:
    return {"id": motion.id, "text": motion.text, "topic": motion.topic,
            "category": motion.category, "sha256": motion_sha256(motion)}  # fmt: skip


class Motions:
    """A debate tournament's items: the motions, recorded whole in its folder."""

    key: str = "motions"
    noun: str = "motion"
    flag: str = "--motions"

    def item(self, motion: Motion) -> Item:
        return Item(motion.id, motion_sha256(motion), motion_record(motion), motion, motion.text)

    def from_record(self, data: dict[str, Any]) -> Item:
        return self.item(Motion(data["id"], data["text"], data["topic"], data.get("category")))

    def header(self, items: tuple[Item, ...]) -> dict[str, Any]:
        return {"motions": [item.record for item in items]}


class DebateKind:
    """`--task debate`: rubric-judged debates on motions."""

    name = "debate"
    task = "debatebench/debate"
    scorer = SCORER
    rating = (
        "Bradley-Terry ratings of how often the judge panel scored a model's side higher "
        "on the rubric, with a pro/con side advantage"
    )
    columns: tuple[Column, ...] = (
        Column("rating", "Rating", 0), Column("rating_low", "95% low", 0),
        Column("rating_high", "95% high", 0), Column("rating_width", "95% width", 0),
        Column("win_rate", "Win rate", 2), Column("debates", "Debates", 0),
        Column("mean_margin", "Margin", 1),
    )  # fmt: skip
    items: Items = Motions()

    def requested(self, asked: Asked, common: Settings) -> tuple[Settings, tuple[Item, ...]]:
        asked.refuse(self.name, ("--motions", "--format"),
                     "--motions FILE, --format NAME and -T options of the debate task")  # fmt: skip
        task_args = parse_task_args(asked.task_items, (*DEBATE_ARGS, *JUDGE_ARGS), OWNED)
        refuse_role_mappings(task_args)
        RunOptions.parse({k: v for k, v in task_args.items() if k in RUN_KEYS}, _TAKER)
        judging = JudgingOptions.parse({k: v for k, v in task_args.items() if k in JUDGE_ARGS},
                                       _TAKER)  # fmt: skip
        phases, format_name = _phases(asked.flags.get("--format"), task_args.get("phases"))
        if "phases" in task_args:
            task_args["phases"] = list(phases)
        settings = debate_settings(phases, format_name, task_args, common.seed,
                                   common.allow_self_judging, judging.rubric.sha256)  # fmt: skip
        settings = Settings(self.name, settings.identity, common.cost_limit, common.timeout)
        motions = _motions(asked.flags.get("--motions") or "default", asked.limit)
        return settings, tuple(Motions().item(m) for m in motions)

    def pair_base(self, schedule: Schedule, items: tuple[Item, ...]) -> Task:
        """The paired debate over every scheduled motion (the dataset is replaced, so
        which motions the task was built with does not matter; neither enters
        Inspect's task identity, the arguments do)."""
        base = debate(**self.task_args(schedule.settings))
        motions = tuple(item.value for item in items)
        dataset = DebateSettings(motions=motions, phases=(), teams={}, budgets={}, paired=True)
        return task_with(base, dataset=debate_dataset(dataset))

    def task_args(self, settings: Settings) -> dict[str, Any]:
        """The `debate` task's arguments (each enters Inspect's task identity): every
        matchup from both sides, the judge guard; the seed and the timeout go in the
        task's generate settings instead (`Settings.generate_settings`)."""
        shape = {"format": settings.identity["format"]} if settings.identity.get("format") else {}
        return {**shape, **settings.task_args, "paired": True,
                "strict_judge": not settings.allow_self_judging}  # fmt: skip

    def outcome(self, sample: EvalSample, pair: tuple[str, str], log: str) -> DebateResult:
        return debate_result(sample, pair, log)

    def board(self, rated: Rated, options: RateOptions) -> Board:
        return rubric_board.board(rated, options)


def debate_settings(
    phases: tuple[str, ...],
    format: str | None,
    task_args: dict[str, Any],
    seed: int,
    allow_self_judging: bool,
    rubric_sha256: str,
) -> Settings:
    """A debate tournament's settings, its identity in the form its folders hold."""
    identity = {"phases": list(phases), "format": format, "task_args": dict(task_args),
                "seed": seed, "allow_self_judging": allow_self_judging,
                "rubric_sha256": rubric_sha256}  # fmt: skip
    return Settings("debate", identity)


def _phases(format: str | None, phases: Any) -> tuple[tuple[str, ...], str | None]:
    if phases is not None:
        if format is not None:
            raise ConfigError("--format / -T phases", "both were given", "one or the other")
        parsed = parse_phases(arg.as_list("phases", phases), where="-T phases")
        return tuple(map(str, parsed)), None
    name = format or DEFAULT_FORMAT
    try:
        return tuple(map(str, named_format(name))), name
    except ConfigError as exc:
        raise ConfigError("--format", exc.found, exc.expected) from None


def _motions(source: str, limit: int | None) -> tuple[Motion, ...]:
    motions = default_motions() if source == "default" else load_motions_file(source)
    if limit is None:
        return motions
    if not 1 <= limit <= len(motions):
        raise ConfigError(
            "--limit", f"got {limit}", f"1 to {len(motions)} (the motions in {source})"
        )
    return motions[:limit]


def load_motions_file(source: str) -> tuple[Motion, ...]:
    from pathlib import Path

    return load_motions(Path(source).expanduser())


def debate_result(sample: EvalSample, pair: tuple[str, str], log: str) -> DebateResult:
    """One sample of a pair's log as a result."""
    meta = sample.metadata or {}
    swapped = bool(meta.get("swapped"))
    record = sample.store_as(DebateRecord)
    pro, con = (pair[1], pair[0]) if swapped else pair
    common: dict[str, Any] = {
        "pair": pair, "motion": str(meta.get("motion_id", sample.id)), "swapped": swapped,
        "pro": pro, "con": con, "log": log, "sample_id": str(sample.id), "uuid": sample.uuid,
        "sides": side_stats(record), "opener": record.opener(),
        "spend": debate_spend(sample.role_usage, sample.model_usage, pair),
    }  # fmt: skip
    if sample.error is not None:
        return DebateResult(**common, status="error", reason=reason_line(sample.error.message))
    fact_check = (sample.scores or {}).get(FACT_CHECK)
    common["fact_check_failed"] = fact_check is not None and not isinstance(fact_check.value, dict)
    score = (sample.scores or {}).get(SCORER)
    if score is None:
        return DebateResult(**common, status="unscored", reason="no rubric score in the log")
    meta = score.metadata or {}
    winner = meta.get("winner")
    judged: dict[str, Any] = {
        "judges": _judge_views(meta), "trust": (meta.get("trust") or {}).get("status"),
        "self_judged": bool(meta.get("judge_warnings")),
        "forfeited": ("con" if winner == "pro" else "pro")
        if meta.get("winner_reason") in FORFEITS else None,
        "swap_tie": meta.get("winner_reason") == SWAP_DISAGREED,
        "swap_rule": str(meta.get("swap_rule") or "mean"),
    }  # fmt: skip
    if not isinstance(score.value, dict):
        why = str(score.reason or score.explanation or "the judges gave no usable verdict")
        return DebateResult(**common, **judged, status="unscored", reason=reason_line(why))
    sides = meta.get("sides") or {}
    dimensions: dict[str, dict[str, float]] = {
        side: {name: float(d["score"]) for name, d in sides[side]["dimensions"].items()}
        for side in SIDES
    }
    maxima = {name: float(d["max"]) for name, d in sides["pro"]["dimensions"].items()}
    return DebateResult(
        **common, **judged, status="scored", dimensions=dimensions, maxima=maxima,
        totals={side: float(score.value[f"{side}_total"]) for side in SIDES},
    )  # fmt: skip


def _judge_views(meta: dict[str, Any]) -> tuple[JudgeView, ...]:
    maxima = {
        name: float(d["max"])
        for name, d in ((meta.get("sides") or {}).get("pro") or {}).get("dimensions", {}).items()
    }
    views = []
    for group in judge_groups(meta.get("readings") or []):
        name = str(group[0].get("judge"))
        repeats = [[o["scores"] for o in r.get("orientations", []) if "scores" in o] for r in group]
        if not all(r.get("valid") for r in group) or not all(repeats):
            views.append(JudgeView(name, False))
            continue
        # As the scorer combines them: orientations averaged, repeats by the median.
        by_repeat = [mean_scores(scored) for scored in repeats]
        means = combine_repeats(by_repeat)
        fractions: dict[str, dict[str, float]] = {
            side: {
                name: value / maxima[name]
                for name, value in means[side].items()
                if maxima.get(name)
            }
            for side in SIDES
        }
        # The first repeat's flip: it is the debate's own seed, as an unrepeated judge's.
        flipped = group[0].get("swap_flipped") if len(repeats[0]) > 1 else None
        winners = tuple(outcome(scores) for scores in by_repeat) if len(group) > 1 else ()
        views.append(JudgeView(name, True, outcome(means), flipped, fractions, winners))
    return tuple(views)


def side_stats(record: DebateRecord) -> dict[str, SideStats]:
    stats: dict[str, SideStats] = {}
    for side in SIDES:
        turns = [t for t in record.turns if t.side == side]
        stats[side] = SideStats(
            words=record.words(side),
            output_tokens=sum(t.usage.output_tokens for t in turns),
            budget_hits=sum(t.hit_budget for t in turns),
            turns=len(turns),
        )
    return stats
