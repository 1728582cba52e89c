"""Every figure of the leaderboard, from the tournament's debate results.

Only eligible matchups (both debates scored) enter the statistics; debates are
read in a fixed order (motion, pro, con, side), so the order of logs and rows
never changes a figure. One bootstrap draw over motions weights every interval.
Ratings are Bradley-Terry with a side advantage (`stats.bradley_terry`); the
length-controlled rating adds each debate's speech-length difference as a
covariate (Arena-Hard's style control), so a model that wins by talking longer
drops there. The five rubric dimensions are reported beside the rating, never
blended into it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import expit  # type: ignore[import-untyped]

from debatebench_eval.judging.panel_agreement import judge_agreement
from debatebench_eval.judging.panel_reliability import reliability
from debatebench_eval.matches.results import (
    STATUSES,
    DebateResult,
    SideStats,
    eligible_debates,
    excluded,
    matchups,
    ordered,
)
from debatebench_eval.record.protocol import SIDES
from debatebench_eval.stats import bootstrap as bs
from debatebench_eval.stats.bradley_terry import (
    ELO_PER_LOGIT,
    RIDGE,
    Fit,
    Games,
    elo,
    fit,
    separation,
)
from debatebench_eval.stats.design import posterior_draws, rating_intervals
from debatebench_eval.stats.intervals import percentile, share, widened, widening
from debatebench_eval.tournament.calibration import calibration
from debatebench_eval.tournament.robustness import (
    judge_aware,
    one_motion_wins,
    order_cycles,
    order_robustness,
    possible_first,
    readings_of,
)

Array = np.ndarray
TIE_CAVEAT_SHARE = 0.10  # above this, half wins are a real modelling choice


@dataclass(frozen=True)
class Options:
    anchor: str | None = None  # a model at `base`; None: the mean
    base: float = 1000.0
    resamples: int = bs.RESAMPLES
    seed: int = 0
    # How the debates were chosen: an adaptive design's rating intervals are a mixture
    # of the flat and the empirical-Bayes posteriors (`stats.design`), which cover
    # where the motion bootstrap does not.
    design: str = "round_robin"


def standings(
    results: Sequence[DebateResult], models: Sequence[str], judges: Sequence[str], options: Options
) -> dict[str, Any]:
    """The leaderboard's figures: counts, models, side advantage, length control,
    head-to-head, judges. JSON-ready (NaN where a figure is undefined)."""
    debates = eligible_debates(results)
    scored = ordered(d for d in results if d.status == "scored")
    counts = _counts(results, debates)
    figures: dict[str, Any] = {"counts": counts, "judges": judge_agreement(scored, judges)}
    figures["reliability"] = reliability(scored)
    # Beside alpha: how many independent judges the panel's verdicts are worth.
    figures["judges"]["effective_judges"] = figures["reliability"]["effective_judges"]
    rated = sorted({m for d in debates for m in (d.pro, d.con)})
    if len(rated) < 2:
        figures.update(models=[_unrated(m) for m in models], side_advantage=None,
                       length_control=None, head_to_head=[], bootstrap=None,
                       fit=None, robustness=None, cycles=[], cycle_edges=[],
                       possible_first=None, one_motion_wins=[], judge_aware=None)  # fmt: skip
        return figures
    games = games_of(debates, rated)
    weights = bs.cluster_weights(len(games.motions), options.resamples, options.seed)
    factor = widening(len(games.motions))
    raw, raw_draws = _fit_all(games, weights, covariate=False)
    anchor = rated.index(options.anchor) if options.anchor in rated else None
    ratings = _intervals(elo(raw.strengths, anchor, options.base)[0],
                         elo(raw_draws.strengths, anchor, options.base), factor)  # fmt: skip
    if options.design == "adaptive":
        ratings = _adaptive_intervals(games, options)
    length, length_fit = _length_control(debates, games, weights, factor, anchor, options)
    groups = separation(games)
    ranked = _rank_draws(games, raw_draws, options)
    rows = _model_rows(debates, rated, games, weights, factor, ratings, ranked, length, anchor)
    for row in rows:
        row["separated"] = len(groups) > 1
    figures.update(_order_figures(debates, games, raw, rows, (weights, factor, anchor), options))
    figures.update(
        models=rows + [_unrated(m) for m in models if m not in rated],
        separation=groups,
        side_advantage=_side(raw, raw_draws, games, weights, factor),
        fit=calibration(games, raw, length_fit),
        length_control=length and {k: v for k, v in length.items() if k != "ratings"},
        head_to_head=_head_to_head(debates, rated),
        bootstrap={
            "resamples": options.resamples,
            "seed": options.seed,
            "motions": len(games.motions),
            "factor": factor,
            "method": "cluster bootstrap over motions, percentile interval widened "
            "about the estimate by t(.975, K-1)/z(.975)*sqrt(K/(K-1))",
            "ridge": RIDGE,
            **({"ratings": ADAPTIVE_RATINGS} if options.design == "adaptive" else {}),
        },
    )
    return figures


def _order_figures(
    debates: Sequence[DebateResult],
    games: Games,
    raw: Fit,
    rows: list[dict[str, Any]],
    resampling: tuple[Array, float, int | None],
    options: Options,
) -> dict[str, Any]:
    """How far to trust the order (`tournament.robustness`): what would flip it, its
    cycles, who could be #1, one-motion wins, and the judge-aware rating."""
    weights, factor, anchor = resampling
    edges = order_cycles(games)
    readings = readings_of(debates, games)
    return {
        "robustness": order_robustness(debates, games, raw, [row["model"] for row in rows]),
        "cycles": [[edge["winner"] for edge in cycle] for cycle in edges],
        "cycle_edges": edges,
        "possible_first": possible_first(rows),
        "one_motion_wins": one_motion_wins(games),
        "judge_aware": readings and judge_aware(readings, weights, factor, anchor, options.base),
    }


ADAPTIVE_RATINGS = (
    "the ratings' intervals are an equal mixture of the flat and the empirical-Bayes "
    "posteriors (the design chose pairs from the outcomes, which the motion bootstrap "
    "does not allow for); the rank ranges and the other intervals are the bootstrap's, "
    "and approximate"
)


def _adaptive_intervals(games: Games, options: Options) -> dict[str, Array]:
    """The ratings and their intervals under an adaptive design (anchored at the mean:
    `tournament rate` refuses another anchor for one)."""
    point, low, high = rating_intervals(games, "adaptive", options.resamples, options.seed)
    shift = options.base - 1000.0
    return {"value": point + shift, "low": low + shift, "high": high + shift}


def _counts(results: Sequence[DebateResult], debates: Sequence[DebateResult]) -> dict[str, Any]:
    by_status = {s: sum(d.status == s for d in results) for s in STATUSES}
    ties = sum(d.result == 0.5 for d in debates)
    out = excluded(results)
    return {
        "scheduled": len(results),
        **by_status,
        "matchups": len(matchups(results)),
        "eligible_matchups": len(debates) // 2,
        "eligible_debates": len(debates),
        "ties": ties,
        "forfeits": sum(d.forfeited is not None for d in debates),
        "tie_share": ties / len(debates) if debates else math.nan,
        "self_judged_debates": sum(d.self_judged for d in debates),
        "excluded": {why: [d.listing() for d in found] for why, found in out.items()},
    }


def games_of(debates: Sequence[DebateResult], models: list[str]) -> Games:
    """The eligible debates as Bradley-Terry games (ties as half wins), with the length
    covariate."""
    motions = sorted({d.motion for d in debates})
    index, where = {m: i for i, m in enumerate(models)}, {m: i for i, m in enumerate(motions)}
    unit = length_unit(debates)
    lengths = np.array([[_length(d.sides[s], unit) for s in SIDES] for d in debates],
                       dtype=np.float64)  # fmt: skip
    total = lengths.sum(axis=1)
    share = np.divide(lengths[:, 0] - lengths[:, 1], total, out=np.zeros(len(debates)),
                      where=total > 0)  # fmt: skip
    spread = share.std()
    z = (share - share.mean()) / spread if spread > 0 else None
    return Games(
        tuple(models), tuple(motions),
        np.array([index[d.pro] for d in debates]), np.array([index[d.con] for d in debates]),
        np.array([where[d.motion] for d in debates]),
        np.array([d.result for d in debates], dtype=np.float64), z,
    )  # fmt: skip


def length_unit(debates: Sequence[DebateResult]) -> str:
    """What the length control measures: words spoken, or output tokens when the
    source gave no words (an imported outcome)."""
    return "words" if any(d.sides[s].words for d in debates for s in d.sides) else "tokens"


def _length(stats: SideStats, unit: str) -> int:
    return stats.words if unit == "words" else stats.output_tokens


def _fit_all(games: Games, weights: Array, *, covariate: bool) -> tuple[Fit, Fit]:
    """The full data's fit and every resample's, started from it, in blocks whose
    (resamples x debates, or x cells) arrays stay small."""
    full = fit(games, covariate=covariate)
    cells = len(np.unique(games.pro * len(games.models) + games.con))
    columns = len(games.y) if covariate else cells
    draws = fit(games, weights, covariate=covariate, start=full, block=bs.block_rows(columns))
    return full, draws


def _intervals(estimate: Array, draws: Array, factor: float) -> dict[str, Array]:
    low, high = widened(estimate, draws, factor)
    return {"value": np.asarray(estimate), "low": low, "high": high}


def _shares(found: dict[str, Array]) -> dict[str, Array]:
    """Intervals of shares, each inside [0, 1] and holding its value: widening about
    the estimate can carry a bound past 0 or 1 (few motions, one side winning most)."""
    value, low, high = share(found["value"], found["low"], found["high"])
    return {"value": value, "low": low, "high": high}


def _length_control(
    debates: Sequence[DebateResult],
    games: Games,
    weights: Array,
    factor: float,
    anchor: int | None,
    options: Options,
) -> tuple[dict[str, Any] | None, Fit | None]:
    """The length-controlled figures, and the full data's fit they come from."""
    if games.z is None:
        return None, None
    unit = length_unit(debates)
    full, draws = _fit_all(games, weights, covariate=True)
    assert full.covariate is not None and draws.covariate is not None
    gamma = _intervals(full.covariate, draws.covariate, factor)
    figures = {
        "covariate": f"({unit} pro - {unit} con) / ({unit} pro + {unit} con), standardised",
        "unit": unit,
        "gamma_logit_per_sd": _figure(gamma, 0),
        "gamma_elo_per_sd": _figure(gamma, 0, ELO_PER_LOGIT),
        "side_advantage_logit": float(full.side[0]),
        "ratings": _intervals(
            elo(full.strengths, anchor, options.base)[0],
            elo(draws.strengths, anchor, options.base),
            factor,
        ),
    }
    return figures, full


def _figure(found: dict[str, Array], i: int, scale: float = 1.0) -> dict[str, float]:
    return {k: float(np.asarray(v).reshape(-1)[i]) * scale for k, v in found.items()}


def _model_rows(
    debates: Sequence[DebateResult],
    models: list[str],
    games: Games,
    weights: Array,
    factor: float,
    ratings: dict[str, Array],
    rank_draws: Array | None,
    length: dict[str, Any] | None,
    anchor: int | None,
) -> list[dict[str, Any]]:
    shares, counts = _per_motion_scores(games)
    # A resample that draws none of a model's motions (an adaptive schedule's sparse
    # rows) has no win rate for it: NaN, which the percentile passes over.
    with np.errstate(invalid="ignore", divide="ignore"):
        drawn = (weights @ shares) / (weights @ counts)
    wins = _shares(_intervals(shares.sum(0) / counts.sum(0), drawn, factor))
    ranks = _rank_ranges(rank_draws) if rank_draws is not None else [None] * len(models)
    order = np.argsort(-ratings["value"], kind="stable")
    rows = []
    for rank, i in enumerate(order, start=1):
        model = models[i]
        own = [d for d in debates if model in (d.pro, d.con)]
        rows.append({
            "model": model, "rank": rank, "rank_range": ranks[i],
            "rating": _figure(ratings, i), "anchor": bool(i == anchor),
            "length_controlled": _figure(length["ratings"], i) if length else None,
            "win_rate": _figure(wins, i),
            "debates": len(own),
            **_model_extras(own, model),
        })  # fmt: skip
    return rows


def _rank_draws(games: Games, draws: Fit, options: Options) -> Array | None:
    """The strengths the rank ranges are read from: the design's own (the posterior
    mixture the adaptive intervals come from, else the motion bootstrap's), none
    from one motion's bootstrap, whose every resample is the same debates and
    would claim certainty."""
    if options.design == "adaptive":
        return posterior_draws(games, options.resamples, options.seed)
    return draws.strengths if len(games.motions) > 1 else None


def _per_motion_scores(games: Games) -> tuple[Array, Array]:
    """Each model's score (wins, ties as halves) and debates, per motion."""
    k, m = len(games.motions), len(games.models)
    shares, counts = np.zeros((k, m)), np.zeros((k, m))
    np.add.at(shares, (games.motion, games.pro), games.y)
    np.add.at(shares, (games.motion, games.con), 1 - games.y)
    np.add.at(counts, (games.motion, games.pro), 1.0)
    np.add.at(counts, (games.motion, games.con), 1.0)
    return shares, counts


def _rank_ranges(strengths: Array) -> list[list[int] | None]:
    """Each model's central 95% range of ranks over the resamples (1 = best)."""
    ranks = (-strengths).argsort(axis=1).argsort(axis=1) + 1
    low, high = percentile(ranks, method="nearest")
    return [[int(a), int(b)] for a, b in zip(low, high, strict=True)]


def _model_extras(own: Sequence[DebateResult], model: str) -> dict[str, Any]:
    margins, tokens, words, hits, turns = [], [], [], 0, 0
    dims: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for d in own:
        side = d.side_of(model)
        other = "con" if side == "pro" else "pro"
        assert d.totals is not None and d.dimensions is not None
        if d.margin_known:
            margins.append(d.totals[side] - d.totals[other])
        stats = d.sides[side]
        tokens.append(stats.output_tokens)
        words.append(stats.words)
        hits, turns = hits + stats.budget_hits, turns + stats.turns
        for name, value in d.dimensions[side].items():
            dims[name][side].append(value)
            dims[name]["all"].append(value)
    return {
        "mean_margin": float(np.mean(margins)) if margins else math.nan,
        # Zero for every debate: the source did not say (an imported outcome).
        "tokens_per_debate": float(np.mean(tokens)) if any(tokens) else math.nan,
        "words_per_debate": float(np.mean(words)) if any(words) else math.nan,
        "budget_hit_rate": hits / turns if turns else math.nan,
        "dimensions": {
            name: {k: float(np.mean(v)) for k, v in by.items()} for name, by in sorted(dims.items())
        },
    }


def _side(raw: Fit, draws: Fit, games: Games, weights: Array, factor: float) -> dict[str, Any]:
    h = _intervals(raw.side, draws.side, factor)
    per_motion_wins = np.bincount(games.motion, weights=games.y, minlength=len(games.motions))
    per_motion_n = np.bincount(games.motion, minlength=len(games.motions)).astype(float)
    pro = _shares(_intervals(per_motion_wins.sum() / per_motion_n.sum(),
                             (weights @ per_motion_wins) / (weights @ per_motion_n),
                             factor))  # fmt: skip
    at_equal = _shares({k: expit(v) for k, v in h.items()})
    return {
        "logit": _figure(h, 0),
        "elo": _figure(h, 0, ELO_PER_LOGIT),
        "p_pro_wins_at_equal_strength": _figure(at_equal, 0),
        "pro_win_share": _figure(pro, 0),
    }


def _head_to_head(debates: Sequence[DebateResult], models: list[str]) -> list[dict[str, Any]]:
    score: dict[tuple[str, str], float] = defaultdict(float)
    played: dict[tuple[str, str], int] = defaultdict(int)
    for d in debates:
        assert d.result is not None
        score[(d.pro, d.con)] += d.result
        score[(d.con, d.pro)] += 1 - d.result
        played[(d.pro, d.con)] += 1
        played[(d.con, d.pro)] += 1
    return [
        {"model": a, "opponent": b, "share": score[(a, b)] / played[(a, b)], "n": played[(a, b)]}
        for a in models for b in models if played.get((a, b))
    ]  # fmt: skip


def _unrated(model: str) -> dict[str, Any]:
    return {"model": model, "rank": None, "rating": None, "debates": 0,
            "note": "no eligible matchup: not rated"}  # fmt: skip
