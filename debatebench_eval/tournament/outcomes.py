"""Reading a tournament's logs back into one result per scheduled debate.

Every `.eval` log under the folder(s) is looked at. A log counts when its task
metadata names this tournament; any other is listed as skipped. Within the
tournament, a debate is found by what its sample says (its pair, its motion,
whether the sides were exchanged), never by its sample id. When one debate is
in several logs (a stale log from a crashed run, or two workers given the
same pair by hand), a debate that finished beats one that failed, then the log
whose run started later, then the smaller uuid; the others are listed as
duplicates. A scheduled debate in no log is `missing`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from inspect_ai.log import (
    EvalLog,
    EvalLogInfo,
    EvalSample,
    list_eval_logs,
    read_eval_log,
    read_eval_log_samples,
)

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.judging.repeats import combine_repeats, judge_groups, outcome
from debatebench_eval.judging.run_summary import shorten
from debatebench_eval.judging.verdict import SWAP_DISAGREED, mean_scores
from debatebench_eval.known_answer.log_reader import judge_score
from debatebench_eval.known_answer.record import OversightRecord
from debatebench_eval.record.protocol import SIDES
from debatebench_eval.record.store import DebateRecord
from debatebench_eval.tournament.leaderboard_log import LEADERBOARD_KEY
from debatebench_eval.tournament.manifest import Manifest, check_same_tournament, read_manifest
from debatebench_eval.tournament.results import DebateResult, JudgeView, SideStats
from debatebench_eval.tournament.schedule import OVERSIGHT, Schedule, pair_task_name
from debatebench_eval.tournament.spend import debate_spend
from debatebench_eval.tournament.task_logs import log_file_task

SCORER = "rubric"
FACT_CHECK = "fact_check"
# Verdicts decided before the scores: the loser forfeited, whatever the totals.
FORFEITS = ("stance_forfeit",)
# Enough of an error message to act on; the log has all of it.
_REASON_CHARS = 300
_EXCLUDED_FIELDS = {"events", "messages", "attachments"}


@dataclass(frozen=True)
class UsedLog:
    location: str
    task: str
    task_id: str
    status: str
    eval_id: str
    pair: tuple[str, str]
    samples: int
    versions: dict[str, str] = field(default_factory=dict)
    # The debate task's version the log was made by (Inspect's eval spec task_version).
    task_version: int | str = 0

    def as_dict(self) -> dict[str, Any]:
        return {"location": self.location, "task": self.task, "task_id": self.task_id,
                "status": self.status, "eval_id": self.eval_id, "pair": list(self.pair),
                "samples": self.samples, "versions": self.versions,
                "task_version": self.task_version}  # fmt: skip


@dataclass(frozen=True)
class TournamentLogs:
    """A tournament as its folders hold it."""

    manifest: Manifest
    results: list[DebateResult]
    logs: list[UsedLog]
    skipped: list[dict[str, str]]
    duplicates: list[dict[str, object]]
    folders: list[str]

    @property
    def schedule(self) -> Schedule:
        return self.manifest.schedule


def read_manifests(folders: Sequence[str]) -> Manifest:
    """The folders' manifests, merged; they must describe one tournament."""
    merged: Manifest | None = None
    for folder in folders:
        manifest = read_manifest(folder)
        if manifest is None:
            raise ConfigError(
                folder, "no tournament.json in it",
                "a folder written by `debatebench-eval tournament run`",
            )  # fmt: skip
        if merged is None:
            merged = manifest
            continue
        check_same_tournament(merged.schedule, manifest.schedule, folder)
        merged = Manifest(merged.schedule.grown(manifest.schedule), (*merged.runs, *manifest.runs))
    assert merged is not None
    return merged


def read_tournament(
    folders: Sequence[str], pairs: Iterable[tuple[str, str]] | None = None
) -> TournamentLogs:
    """Every scheduled debate (of `pairs`, or of all pairs) with what became of it."""
    manifest = read_manifests(folders)
    schedule = manifest.schedule
    wanted = set(schedule.pairs if pairs is None else pairs)
    # Asked for some pairs (a worker's own), only their logs are opened, found by the
    # task name in the file name: the other pairs' workers may be writing theirs.
    names = None if pairs is None else {log_file_task(pair_task_name(*p)) for p in wanted}
    found: dict[tuple[Any, ...], list[tuple[float, DebateResult]]] = {}
    logs: list[UsedLog] = []
    skipped: list[dict[str, str]] = []
    for folder in folders:
        for info in list_eval_logs(folder):
            if names is not None and info.task not in names:
                continue
            used = _read_log(info, schedule, wanted, found, skipped)
            if used is not None:
                logs.append(used)
    results, duplicates = _choose(found)
    seen = {r.key for r in results}
    for a, b in sorted(wanted):
        for item in schedule.items:
            for swapped in (False, True):
                if ((a, b), item, swapped) not in seen:
                    pro, con = (b, a) if swapped else (a, b)
                    results.append(
                        DebateResult(
                            (a, b),
                            item,
                            swapped,
                            pro,
                            con,
                            "missing",
                            reason="in no log: not run yet, or lost with its log",
                        )
                    )
    logs.sort(key=lambda log: log.location)
    return TournamentLogs(manifest, results, logs, skipped, duplicates, list(folders))


def _read_log(
    info: EvalLogInfo,
    schedule: Schedule,
    wanted: set[tuple[str, str]],
    found: dict[tuple[Any, ...], list[tuple[float, DebateResult]]],
    skipped: list[dict[str, str]],
) -> UsedLog | None:
    try:
        header = read_eval_log(info, header_only=True)
    except Exception as exc:  # a log being written, or damaged: say so, go on
        skipped.append({"log": info.name, "why": f"unreadable ({type(exc).__name__}: {exc})"})
        return None
    meta = header.eval.metadata or {}
    if LEADERBOARD_KEY in meta:  # the rating written by `rate`, not debates
        return None
    if meta.get("tournament") != schedule.identity_hash:
        why = "another tournament" if "tournament" in meta else "not a tournament log"
        skipped.append({"log": info.name, "why": why})
        return None
    pair = (str(meta["pair"][0]), str(meta["pair"][1]))
    if pair not in wanted:
        return None
    read_sample = oversight_result if schedule.settings.task == OVERSIGHT else debate_result
    count = 0
    try:
        for sample in read_eval_log_samples(
            info, all_samples_required=False, exclude_fields=_EXCLUDED_FIELDS
        ):
            result = read_sample(sample, pair, info.name)
            found.setdefault(result.key, []).append((_created(header, info), result))
            count += 1
    except Exception as exc:
        skipped.append({"log": info.name, "why": f"samples unreadable after {count} "
                        f"({type(exc).__name__}: {exc})"})  # fmt: skip
    return UsedLog(info.name, header.eval.task, header.eval.task_id, header.status,
                   header.eval.eval_id, pair, count, _versions(header),
                   header.eval.task_version)  # fmt: skip


def _created(header: EvalLog, info: EvalLogInfo) -> float:
    """When the log's run started (a copied file's mtime may not say)."""
    try:
        return datetime.fromisoformat(header.eval.created).timestamp()
    except ValueError:
        return (info.mtime or 0.0) / 1000


def _versions(header: EvalLog) -> dict[str, str]:
    packages = header.eval.packages or {}
    return {name: packages[name] for name in ("inspect_ai", "debatebench_eval") if name in packages}


def _choose(
    found: dict[tuple[Any, ...], list[tuple[float, DebateResult]]],
) -> tuple[list[DebateResult], list[dict[str, object]]]:
    results, duplicates = [], []
    for copies in found.values():
        ranked = sorted(copies, key=lambda c: (c[1].status == "error", -c[0], c[1].uuid or ""))
        kept = ranked[0][1]
        results.append(kept)
        # The same sample (same uuid) in an older log is a copy Inspect reused, and
        # a failed attempt was superseded: only a debate that ran twice is a duplicate.
        duplicates += [
            {**copy.listing(), "kept": kept.log}
            for _, copy in ranked[1:]
            if copy.uuid != kept.uuid and copy.status != "error"
        ]
    return results, duplicates


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
        return DebateResult(**common, status="error", reason=_first(sample.error.message))
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
        return DebateResult(**common, **judged, status="unscored", reason=_first(why))
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


def oversight_result(sample: EvalSample, pair: tuple[str, str], log: str) -> DebateResult:
    """One sample of an oversight pair's log as a result: scored when the judge picked
    an answer (whom it sided with and whether it was right), unscored when no judge's
    reply could be used."""
    meta = sample.metadata or {}
    swapped = bool(meta.get("swapped"))
    pro, con = (pair[1], pair[0]) if swapped else pair
    common: dict[str, Any] = {
        "pair": pair, "motion": str(meta.get("question_id", sample.id)), "swapped": swapped,
        "pro": pro, "con": con, "log": log, "sample_id": str(sample.id), "uuid": sample.uuid,
        "spend": debate_spend(sample.role_usage, sample.model_usage, pair),
    }  # fmt: skip
    if sample.error is not None:
        return DebateResult(**common, status="error", reason=_first(sample.error.message))
    score = judge_score(sample.scores or {})
    pick = None if score is None else (score.metadata or {}).get("pick")
    if pick is None:
        why = (
            "no judge_accuracy score in the log"
            if score is None
            else str(score.explanation or "no judge's reply could be used")
        )
        return DebateResult(**common, status="unscored", reason=_first(why))
    record = sample.store_as(OversightRecord)
    return DebateResult(**common, status="scored", sided_with=_side_of(pick, record),
                        correct=pick == record.correct_label)  # fmt: skip


def _side_of(pick: str, record: OversightRecord) -> str | None:
    sides = [side for side, label in record.assignment.items() if label == pick]
    return sides[0] if sides else None


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


def _first(message: str) -> str:
    """The message's first line, shortened from its middle: the clause that says what
    to change (`lower -T judge_budget`) comes last and is kept."""
    line = message.strip().splitlines()[0] if message.strip() else "no message"
    return shorten(line, _REASON_CHARS)
