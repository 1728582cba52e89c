"""The fixed shape of the judging scores, fixed before the scorers were built.

`Score.value` holds numbers only, with the same keys in every scored sample
(NaN where a value does not apply, e.g. `swap_flipped` without swap judging):
the keys a reader scans in the sample list (`RUBRIC_LISTED`); every other
number of `rubric_keys` is in `metadata["figures"]` (see `judging.figures`).
An unscored sample is Inspect's own sentinel (`Score.unscored`, NaN at the
root) with the reason and every raw reply in metadata, and an answer that
says `UNSCORED:` and why. Text — winner, reasons,
ledgers, replies, judge identity, trust status, prep grounding — lives in
metadata. Fields filled by later work (trust, prep grounding) exist now, so
regression baselines do not churn when they are filled.
"""

from __future__ import annotations

import math
from typing import Any

from inspect_ai.model import Model

from debatebench_eval.judging.blind import Orientation
from debatebench_eval.judging.options import JudgingOptions
from debatebench_eval.judging.rubric import Rubric, SideJudgment
from debatebench_eval.judging.structured import Exchange
from debatebench_eval.judging.verdict import TIERS, SideScores, Verdict, decide
from debatebench_eval.record.protocol import SIDES, Side
from debatebench_eval.record.store import DebateRecord
from debatebench_eval.servers.probe import model_base_url

RUBRIC_OUTCOME_KEYS = (
    "margin", "pro_win", "pro_role_win", "tier_resolved", "tier_contested", "tier_unresolved",
    "swap_flipped", "stance_violations", "pro_stance_violation", "con_stance_violation",
    "judges", "repairs",
)  # fmt: skip
# The keys of the score's value, in the sample list's order; the rest are figures.
RUBRIC_LISTED = ("pro_total", "con_total", "margin", "swap_flipped", "stance_violations")
# The figures the position and length diagnostics read (`speech_figures`).
PRO_OPENED, WORDS = "pro_opened", "words"
SPEECH_FIGURES = (PRO_OPENED, *(f"{WORDS}.{side}" for side in SIDES))
# What the sample list shows of an unscored sample's reason (the log has all of it).
UNSCORED_CHARS = 90
_TIER_KEYS = dict(zip(TIERS, ("tier_resolved", "tier_contested", "tier_unresolved"), strict=True))
# What the terminal shows of the rubric beside the win rates and the mean margin: the
# verdict tiers' shares and the order swap's flip rate (the rest: `debatebench-eval report`).
RUBRIC_HEADLINE_SHARES = ("swap_flipped", *_TIER_KEYS.values())


def rubric_keys(rubric: Rubric) -> tuple[str, ...]:
    """Every key of a rubric score, in order: per side each dimension and the total."""
    per_side = tuple(f"{side}_{name}" for side in SIDES for name in (*rubric.names, "total"))
    return per_side + RUBRIC_OUTCOME_KEYS


def unblind(judgments: dict[str, SideJudgment], orientation: Orientation) -> SideScores:
    """Scores keyed by side again, from a reply keyed by blind label."""
    return {
        orientation.side(label): {n: float(s.score) for n, s in judgment.scores.items()}
        for label, judgment in judgments.items()
    }


def unblind_stances(
    judgments: dict[str, SideJudgment], orientation: Orientation
) -> dict[Side, str]:
    """Each side's stance (held, switched, unclear) as one reading saw it."""
    return {orientation.side(label): judgment.stance for label, judgment in judgments.items()}


def role_of(record: DebateRecord, side: str) -> str:
    assert record.run is not None
    return next(s.role for s in record.run.sides if s.side == side)


def rubric_value(
    rubric: Rubric,
    combined: SideScores,
    verdict: Verdict,
    record: DebateRecord,
    flips: list[bool] | None,
    violations: dict[Side, bool],
    *,
    judges: int,
    repairs: int,
) -> dict[str, float]:
    value: dict[str, float] = {}
    for side in SIDES:
        for name in rubric.names:
            value[f"{side}_{name}"] = combined[side][name]
        value[f"{side}_total"] = verdict.totals[side]
    value.update(
        margin=verdict.margin,
        pro_win=_half_if_tie(verdict, verdict.winner == "pro"),
        pro_role_win=_half_if_tie(
            verdict, verdict.winner is not None and role_of(record, verdict.winner) == "pro"
        ),
        swap_flipped=sum(flips) / len(flips) if flips else math.nan,
        stance_violations=float(sum(violations.values())),
        pro_stance_violation=float(violations["pro"]),
        con_stance_violation=float(violations["con"]),
        judges=float(judges),
        repairs=float(repairs),
        **{key: float(verdict.tier == tier) for tier, key in _TIER_KEYS.items()},
    )
    return {key: value[key] for key in rubric_keys(rubric)}


def speech_figures(record: DebateRecord) -> dict[str, float]:
    """What the position and length figures need (`judging.reliability`): whether pro
    spoke first (`pro_opened`, 1 or 0; NaN with no argument turn) and each side's words
    (`words.pro`, `words.con`). Figures, not value keys: the sample list stays short."""
    opener = record.opener()
    return {
        PRO_OPENED: math.nan if opener is None else float(opener == "pro"),
        **{f"{WORDS}.{side}": float(record.words(side)) for side in SIDES},
    }


def _half_if_tie(verdict: Verdict, won: bool) -> float:
    """A win 1, a loss 0, a tie (swap_rule=survive) half a win for each side."""
    return 0.5 if verdict.winner is None else float(won)


def judge_record(
    judge: Model,
    orientations: list[Orientation],
    readings: list[Exchange[dict[str, SideJudgment]]],
    rubric: Rubric,
    seed: int,
) -> dict[str, Any]:
    """One judge's readings: raw replies, unblinded scores, each orientation's own winner."""
    parsed = []
    for orientation, reading in zip(orientations, readings, strict=True):
        entry: dict[str, Any] = {"blind": orientation.as_dict(), **reading.record()}
        if reading.result is not None:
            scores = unblind(reading.result, orientation)
            own = decide(scores, rubric.tiebreak, seed)
            stances = unblind_stances(reading.result, orientation)
            entry.update(scores=scores, totals=own.totals, winner=own.winner, stances=stances)
        parsed.append(entry)
    return {
        "judge": str(judge),
        "base_url": model_base_url(judge),
        "valid": all(r.result is not None for r in readings),
        "orientations": parsed,
        "swap_flipped": swap_flipped(parsed),
    }


def swap_flipped(readings: list[dict[str, Any]]) -> bool | None:
    """Whether the swapped reading picked the other winner; undefined (None) unless
    there were two readings and both parsed: one reading cannot flip."""
    winners = [entry.get("winner") for entry in readings]
    if len(winners) < 2 or None in winners:
        return None
    return len(set(winners)) > 1


def reading_failures(
    orientations: list[Orientation],
    per_judge: list[list[Exchange[dict[str, SideJudgment]]]],
) -> list[str]:
    """Each failed reading, named by number and blind mapping (the failure names the judge)."""
    return [
        f"reading {number} (Side A = {orientation.a.upper()}) by {reading.failure}"
        for readings in per_judge
        for number, (orientation, reading) in enumerate(zip(orientations, readings, strict=True), 1)
        if reading.failure
    ]


def context(
    record: DebateRecord,
    judges: list[Model],
    options: JudgingOptions,
    warnings: list[str],
    judge_records: list[dict[str, Any]],
    first: Orientation,
) -> dict[str, Any]:
    """Metadata every rubric score carries, scored or not."""
    assert record.run is not None
    return {
        "judges": [str(j) for j in judges],
        "judge_quorum": options.judge_quorum or len(judges),
        "judge_warnings": warnings,
        "swap_judging": options.swap_judging,
        "blind": first.as_dict(),
        # The content hash, not the path: it identifies the rubric on any machine.
        "rubric": {
            "name": options.rubric.name,
            "version": options.rubric.version,
            "sha256": options.rubric.sha256,
            "ledger": options.rubric.ledger,
            "evidence": options.rubric.evidence,
        },
        "judge_budget": options.judge_budget,
        "prep_grounded": bool(record.passages),
        "models": {s.role: s.model for s in record.run.sides},
        # A paired run's pair, so metrics can keep to complete pairs.
        "pair_id": record.run.pair_id,
        "swapped": record.run.swapped,
        "readings": judge_records,
    }


def stance_summary(stances: list[dict[Side, str]], violations: dict[Side, bool]) -> dict[str, Any]:
    """Per side: how many valid readings found it switched to the other position."""
    return {
        side: {
            "violation": violations[side],
            "switched": sum(reading[side] == "switched" for reading in stances),
            "unclear": sum(reading[side] == "unclear" for reading in stances),
            "readings": len(stances),
        }
        for side in SIDES
    }


_HOW = {
    "steelman_tiebreak": "tie, steelman",
    "coin_toss": "tie, coin toss",
}


def answer(verdict: Verdict, record: DebateRecord) -> str:
    """The winner as the sample list shows it: the winning model and the side it argued
    (marked when the sides were swapped, as the ID column cuts `.swapped` off), then
    the tier or how a tie was broken, e.g. `ollama/m5 (CON) · RESOLVED`."""
    assert record.run is not None
    if verdict.winner is None:
        return f"tie · swap disagreed ({verdict.tier})"
    model = next(s.model for s in record.run.sides if s.side == verdict.winner)
    swapped = ", sides swapped" if record.run.swapped else ""
    who = f"{model} ({verdict.winner.upper()}{swapped})"
    if verdict.reason == "stance_forfeit":
        loser = "CON" if verdict.winner == "pro" else "PRO"
        return f"{who} · {loser} forfeit"
    return f"{who} · {_HOW.get(verdict.reason, verdict.tier)}"


def unscored_answer(reason: str | None) -> str:
    """What the sample list shows of an unscored sample: that it is, and why, in short."""
    text = " ".join((reason or "no reason recorded").split())
    if len(text) > UNSCORED_CHARS:
        text = text[: UNSCORED_CHARS - 1].rstrip(" ,;:|") + "…"
    return f"UNSCORED: {text}"


def verdict_metadata(record: DebateRecord, verdict: Verdict) -> dict[str, Any]:
    assert record.run is not None
    winner_side = next((s for s in record.run.sides if s.side == verdict.winner), None)
    if winner_side is None:  # a tie: no side won
        return {"winner": "tie", "winner_reason": verdict.reason, "margin_tier": verdict.tier,
                "margin": verdict.margin, "totals": verdict.totals, "winner_role": None,
                "winner_model": None}  # fmt: skip
    return {
        "winner": verdict.winner,
        "winner_reason": verdict.reason,
        "margin_tier": verdict.tier,
        "margin": verdict.margin,
        "totals": verdict.totals,
        "winner_role": winner_side.role,
        "winner_model": winner_side.model,
    }


def side_details(
    record: DebateRecord,
    rubric: Rubric,
    combined: SideScores,
    judge_records: list[dict[str, Any]],
    per_judge: list[list[Exchange[dict[str, SideJudgment]]]],
    orientations: list[Orientation],
) -> dict[str, Any]:
    """Per side, per dimension: combined score, max, every justification; the hit ledger."""
    details: dict[str, Any] = {}
    for side in SIDES:
        dimensions: dict[str, Any] = {}
        ledger: list[dict[str, str]] = []
        for name in rubric.names:
            dimensions[name] = {
                "score": combined[side][name],
                "max": rubric.max_of(name),
                "justifications": [],
            }
            if name == rubric.evidence:
                dimensions[name]["prep_grounded"] = bool(record.passages)
        for judge_record_, readings in zip(judge_records, per_judge, strict=True):
            if not judge_record_["valid"]:
                continue
            for number, (orientation, reading) in enumerate(
                zip(orientations, readings, strict=True), 1
            ):
                assert reading.result is not None
                judgment = reading.result[orientation.label(side)]
                judge = judge_record_["judge"]
                who = {
                    "by": f"{judge}, as Side {orientation.label(side)}",
                    "judge": judge,
                    "reading": number,
                    "blind": orientation.as_dict(),
                }
                if "repeat" in judge_record_:  # repeated judging: which repeat said it
                    who["repeat"] = judge_record_["repeat"]
                for name, dim in judgment.scores.items():
                    dimensions[name]["justifications"].append(
                        {**who, "score": dim.score, "text": dim.justification}
                    )
                ledger += [{**who, "point": e.point, "status": e.status} for e in judgment.ledger]
        details[side] = {
            "role": role_of(record, side),
            "total": sum(combined[side].values()),
            "dimensions": dimensions,
            "hit_ledger": ledger,
        }
    return details
