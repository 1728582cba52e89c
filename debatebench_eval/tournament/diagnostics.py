"""The leaderboard's alarms: each defect of a debate board its figures can show,
found and named, in the manner of arenakit's audits but debate-aware (motions,
sides and judges are factors here). A board with none raises no alarm.

- `fragile_top`: the #1 changes when at most 2 debates, or 1% of them, are
  removed (`robustness.top_flip`);
- `cycle`: a cycle of clear head-to-head wins (`cycles`);
- `weak_judge`: a judge whose judge-aware weight (its share of the panel's
  discrimination) is, with 95% confidence, under half an equal share: its
  verdicts follow the models' strengths little (a judge answering at random
  weighs about 0);
- `side_advantage`: at equal strength one side wins at least 65% of debates,
  its interval excluding 1/2;
- `one_motion`: a model whose wins all came on one motion, which chance alone
  would do less than 1% of the time.
"""

from __future__ import annotations

import math
from typing import Any

FRAGILE_COUNT = 2
FRAGILE_SHARE = 0.01
WEAK_SHARE = 0.5  # of an equal share, 1/J
STRONG_SIDE = 0.65


def diagnostics(board: dict[str, Any]) -> list[dict[str, str]]:
    """Every alarm the board's figures raise, each with its defect's key and a line."""
    found = [
        *_fragile_top(board.get("robustness") or {}),
        *_cycles(board.get("cycles") or []),
        *_weak_judges(board.get("judge_aware") or {}),
        *_side(board.get("side_advantage") or {}),
        *_one_motion(board.get("one_motion_wins") or []),
    ]
    return found


def _alarm(defect: str, text: str) -> dict[str, str]:
    return {"defect": defect, "text": text}


def _fragile_top(robustness: dict[str, Any]) -> list[dict[str, str]]:
    count, top = robustness.get("top_flip"), robustness.get("top")
    if count is None or top is None:
        return []
    if count > max(FRAGILE_COUNT, math.floor(FRAGILE_SHARE * robustness["debates"])):
        return []
    if count == 0:
        level = f"{top['model']} is level with {top['overtaken_by']}"
        return [_alarm("fragile_top", f"Fragile #1: {level}; their order is a tie-break.")]
    return [_alarm("fragile_top", f"Fragile #1: {top['model']} is #1 unless {count} of "
                   f"{robustness['debates']} debates are dropped ({top['overtaken_by']} then "
                   "leads).")]  # fmt: skip


def _cycles(found: list[list[str]]) -> list[dict[str, str]]:
    return [_alarm("cycle", "Cycle of clear head-to-head wins: "
                   + " > ".join([*cycle, cycle[0]]) + "; no order of these models is an order "
                   "of their results.") for cycle in found]  # fmt: skip


def _weak_judges(aware: dict[str, Any]) -> list[dict[str, str]]:
    judges = aware.get("judges") or []
    return [
        _alarm("weak_judge", f"Weak judge: {j['judge']}'s verdicts follow the models' strengths "
               f"little (weight {j['weight']['value']:.2f} [{j['weight']['low']:.2f}, "
               f"{j['weight']['high']:.2f}], an equal share {1 / len(judges):.2f}); a judge "
               "answering at random weighs 0. The judge-aware rating discounts it.")
        for j in judges
        if j["weight"]["high"] < WEAK_SHARE / len(judges)
    ]  # fmt: skip


def _side(side: dict[str, Any]) -> list[dict[str, str]]:
    p = side.get("p_pro_wins_at_equal_strength")
    if not p or not (p["low"] > 0.5 or p["high"] < 0.5):
        return []
    if max(p["value"], 1 - p["value"]) < STRONG_SIDE:
        return []
    favoured = "pro" if p["value"] > 0.5 else "con"
    return [_alarm("side_advantage", f"Strong side advantage: at equal strength pro wins "
                   f"{p['value']:.2f} [{p['low']:.2f}, {p['high']:.2f}] of debates; a model "
                   f"that argued {favoured} more often would be flattered (each matchup here "
                   "has both sides).")]  # fmt: skip


def _one_motion(found: list[dict[str, Any]]) -> list[dict[str, str]]:
    return [_alarm("one_motion", f"One-motion wins: all {f['wins']} of {f['model']}'s wins came "
                   f"on {f['motion']} (of its {f['debates']} debates; chance alone: "
                   f"{f['chance']:.2g}).") for f in found]  # fmt: skip
