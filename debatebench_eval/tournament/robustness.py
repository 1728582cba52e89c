"""How far to trust the leaderboard's order: which debates would flip it, where the
head-to-head results are not an order, which judges to believe.

- `robustness`: for the #1 model and each adjacent pair of the ranking, the
  smallest confirmed set of debates whose removal reverses the order
  (`stats.flip_set`), as a count, a share of the rated debates and the debates
  themselves (their pair log and sample id); `top_flip` is None when no removal
  of up to 10% of the debates changes the #1 model.
- `cycles`: cycles of clear head-to-head wins (`stats.cycles`), each edge's
  share with its Wilson interval; `possible_first`: the models whose 95% rank
  range includes 1.
- `judge_aware`: with more than one judge per debate, the judge-aware
  Bradley-Terry (`stats.judge_aware`) beside the equal-weight rating, each
  judge's weight with its interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np

from debatebench_eval.matches.results import DebateResult
from debatebench_eval.stats.bradley_terry import Fit, Games, elo
from debatebench_eval.stats.cycles import cycles
from debatebench_eval.stats.flip_set import MOST_SHARE, FlipSet, flip_set, top_flip
from debatebench_eval.stats.intervals import share, widened
from debatebench_eval.stats.judge_aware import Readings, fit_judges

Array = np.ndarray
# The judge-aware fit is an optimiser run per resample (the equal-weight fit is
# batched Newton steps): its intervals use at most this many of the resamples.
JUDGE_RESAMPLES = 200
# A model's wins all on one motion are named when chance would do that less often.
ONE_MOTION_CHANCE = 0.01
PRO_RESULT = {"pro": 1.0, "con": 0.0, "tie": 0.5}
FLIP_METHOD = (
    "one-step influence of each debate on the gap (Huang et al. 2025), debates removed "
    "in that order, each candidate set confirmed by refitting without it; the count is "
    "the smallest confirmed set in that order (an upper bound on the smallest of all)"
)
LEADS = (
    "The equal-weight rating leads the page: its intervals are the ones shown to cover in "
    "simulation, and it asks nothing of how judges differ. The judge-aware rating weighs "
    "each judge by how sharply its verdicts follow the models' strengths; where a judge's "
    "weight is well below 1, read the judge-aware rating first."
)


def order_robustness(
    debates: Sequence[DebateResult], games: Games, full: Fit, ranked: Sequence[str]
) -> dict[str, Any]:
    """`robustness` of leaderboard.json: the #1's flip set and each adjacent pair's."""
    index = {m: i for i, m in enumerate(games.models)}
    n = len(games.y)
    known: dict[tuple[int, int], FlipSet | None] = {}
    pairs = []
    for rank, (a, b) in enumerate(pairwise(ranked), start=1):
        found = known[(index[a], index[b])] = flip_set(games, index[a], index[b], result=full)
        pairs.append({"rank": rank, "ahead": a, "behind": b, **_flip_figures(found, debates, n)})
    top = top_flip(games, full, known=known)
    return {
        "method": FLIP_METHOD,
        "most_share": MOST_SHARE,
        "most_debates": math.floor(MOST_SHARE * n),
        "debates": n,
        "top_flip": None if top is None else top.count,
        "top": None if top is None else {
            "model": games.models[top.ahead], "overtaken_by": games.models[top.behind],
            **_flip_figures(top, debates, n),
        },
        "pairs": pairs,
    }  # fmt: skip


def _flip_figures(found: FlipSet | None, debates: Sequence[DebateResult], n: int) -> dict[str, Any]:
    if found is None:
        return {"count": None, "share": None, "debates": []}
    return {
        "count": found.count,
        "share": found.count / n,
        "gap_logit": found.gap,
        "gap_after_logit": found.gap_after,
        "debates": [_debate_ref(debates[i]) for i in found.debates],
    }


def _debate_ref(debate: DebateResult) -> dict[str, Any]:
    return {"log": debate.log, "sample_id": debate.sample_id, "motion": debate.motion,
            "pro": debate.pro, "con": debate.con, "result": debate.result}  # fmt: skip


def order_cycles(games: Games) -> list[list[dict[str, Any]]]:
    """Each cycle of clear head-to-head wins as its edges (winner, loser, share)."""
    m = len(games.models)
    score, played = np.zeros((m, m)), np.zeros((m, m))
    np.add.at(score, (games.pro, games.con), games.y)
    np.add.at(score, (games.con, games.pro), 1 - games.y)
    np.add.at(played, (games.pro, games.con), 1.0)
    np.add.at(played, (games.con, games.pro), 1.0)
    return [
        [{"winner": games.models[e.winner], "loser": games.models[e.loser],
          "share": e.share.as_dict()} for e in cycle]
        for cycle in cycles(score, played)
    ]  # fmt: skip


def possible_first(rows: Sequence[dict[str, Any]]) -> list[str] | None:
    """The models whose 95% rank range includes 1; None when the board has no rank
    ranges (one motion), which is not the same as no model."""
    if not any(row.get("rank_range") for row in rows):
        return None
    return [row["model"] for row in rows if row.get("rank_range") and row["rank_range"][0] == 1]


def interval_first(ratings: dict[str, dict[str, Any]]) -> list[str]:
    """The models no other model is clearly above (no other's interval lies wholly
    above theirs): the set that could be #1 by intervals alone, where no rank range
    is resampled (the prediction-powered ratings). It is wider than a set from
    each pair's difference would be, never narrower."""
    floor = max(r["low"] for r in ratings.values())
    return [m for m, r in ratings.items() if r["high"] >= floor]


def readings_of(debates: Sequence[DebateResult], games: Games) -> Readings | None:
    """Every valid judge's verdict of every rated debate; None unless some debate
    was read by more than one judge."""
    judges = sorted({v.judge for d in debates for v in d.judges if _counted(v.winner, v.valid)})
    where = {j: i for i, j in enumerate(judges)}
    found: list[tuple[int, int, float]] = []
    several = False
    for d, debate in enumerate(debates):
        views = [v for v in debate.judges if _counted(v.winner, v.valid)]
        several = several or len(views) > 1
        found += [(d, where[v.judge], PRO_RESULT[str(v.winner)]) for v in views]
    if not several or len(judges) < 2:
        return None
    rows = np.array([d for d, _, _ in found])
    return Readings(
        games.models, tuple(judges), len(games.motions), games.pro[rows], games.con[rows],
        games.motion[rows], np.array([j for _, j, _ in found]),
        np.array([y for _, _, y in found], dtype=np.float64),
    )  # fmt: skip


def _counted(winner: str | None, valid: bool) -> bool:
    return valid and winner in PRO_RESULT


def judge_aware(
    readings: Readings, weights: Array, factor: float, anchor: int | None, base: float
) -> dict[str, Any]:
    """The judge-aware ratings and each judge's weight, with their intervals."""
    full = fit_judges(readings)
    draws = fit_judges(readings, weights[:JUDGE_RESAMPLES])
    ratings = elo(full.strengths, anchor, base)[0]
    low, high = widened(ratings, elo(draws.strengths, anchor, base), factor)
    w_low, w_high = widened(full.weight[0], draws.weight, factor)
    weight, w_low, w_high = share(full.weight[0], w_low, w_high)
    counts = np.bincount(readings.judge, minlength=len(readings.judges))
    return {
        "leads": "equal_weight",
        "why": LEADS,
        "resamples": len(draws.strengths),
        "model": "P(judge j gives pro the debate) = sigma(a_j (s_pro - s_con + h)), a_j the "
        "judge's discrimination, fitted by maximum likelihood with the strengths (on the "
        "sharpest judge's scale); a judge's weight is its share of the panel's, a_j / sum(a)",
        "ratings": {m: {"value": float(ratings[i]), "low": float(low[i]), "high": float(high[i])}
                    for i, m in enumerate(readings.models)},
        "judges": [{"judge": j, "readings": int(counts[i]),
                    "discrimination": float(full.discrimination[0, i]),
                    "weight": {"value": float(weight[i]), "low": float(w_low[i]),
                               "high": float(w_high[i])}}
                   for i, j in enumerate(readings.judges)],
    }  # fmt: skip


def one_motion_wins(games: Games, most_chance: float = ONE_MOTION_CHANCE) -> list[dict[str, Any]]:
    """Each model whose outright wins (at least two) all came on one motion, when chance
    alone would put them there with probability below `most_chance`."""
    found = []
    won_by = np.where(games.y == 1.0, games.pro, np.where(games.y == 0.0, games.con, -1))
    for i, model in enumerate(games.models):
        played = np.bincount(games.motion[(games.pro == i) | (games.con == i)],
                             minlength=len(games.motions))  # fmt: skip
        wins = np.bincount(games.motion[won_by == i], minlength=len(games.motions))
        total = int(wins.sum())
        if total < 2 or int(wins.max()) < total or int((played > 0).sum()) < 2:
            continue
        chance = chance_all_in_one(total, [int(k) for k in played])
        if chance < most_chance:
            motion = games.motions[int(wins.argmax())]
            found.append({"model": model, "motion": motion, "wins": total,
                          "debates": int(played.sum()), "chance": chance})  # fmt: skip
    return found


def chance_all_in_one(wins: int, per_motion: Sequence[int]) -> float:
    """The chance that `wins` wins spread at random over a model's debates (so many
    on each motion) all fall on one motion (hypergeometric)."""
    total = sum(per_motion)
    if wins < 1 or total < wins:
        return math.nan
    return sum(math.comb(k, wins) for k in per_motion) / math.comb(total, wins)
