"""Persuasiveness and truth (Khan et al. 2024): debaters rated by how often the judge
sides with them whatever answer they were assigned, and the judge's accuracy in
the debates between each pair against the pair's mean rating.

Each known-answer debate is a game between its two debaters' models: the one
whose answer the judge picked wins, right or wrong (assignment is random, so a
rating is persuasiveness, not knowledge). The ratings are the tournament's
Bradley-Terry fit (`stats.bradley_terry.fit`, with the side advantage of arguing
as `pro`), on its Elo-like scale, with the tournament's bootstrap over questions
(each question a cluster, as motions are in a tournament) and its widened
percentile interval. Khan et al.'s Figure 1 is the judge's accuracy per pair
of debaters against the pair's mean rating: if more persuasive debaters make
the judge more accurate, the points rise to the right.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from debatebench_eval.known_answer.stats import JudgedDebate, accuracy_of
from debatebench_eval.stats.bootstrap import RESAMPLES, cluster_weights
from debatebench_eval.stats.bradley_terry import Games, elo, fit, separation
from debatebench_eval.stats.design import rating_intervals
from debatebench_eval.stats.intervals import widened, widening


@dataclass(frozen=True)
class Rating:
    model: str
    rating: float
    low: float
    high: float
    debates: int


@dataclass(frozen=True)
class PairAccuracy:
    models: tuple[str, str]
    mean_rating: float
    accuracy: float
    debates: int
    # The accuracy's 95% interval over the pair's questions (known_answer.stats).
    low: float = math.nan
    high: float = math.nan


def ratings(
    debates: Sequence[JudgedDebate],
    resamples: int = RESAMPLES,
    seed: int = 0,
    design: str = "round_robin",
) -> list[Rating]:
    """Each model's persuasiveness rating with its 95% interval (the bootstrap drawn
    from `seed`; for an adaptive design, the posteriors': `stats.design`), best first."""
    games = _games(debates)
    models, questions = games.models, games.motions
    if design == "adaptive":
        point, low, high = rating_intervals(games, design, resamples, seed)
    else:
        point = elo(fit(games).strengths)[0]
        draws = elo(fit(games, cluster_weights(len(questions), resamples, seed)).strengths)
        factor = widening(len(questions))
        low, high = widened(point, draws, factor) if not math.isnan(factor) else (point, point)
    played: dict[str, int] = defaultdict(int)
    for d in debates:
        played[d.pro] += 1
        played[d.con] += 1
    found = [
        Rating(m, float(point[i]), float(low[i]), float(high[i]), played[m])
        for i, m in enumerate(models)
    ]
    return sorted(found, key=lambda r: -r.rating)


def separated(debates: Sequence[JudgedDebate]) -> list[list[str]]:
    """Groups of models the judge sided with over every model of the groups below in
    every debate, best first ([] when the results connect everyone both ways): then
    no finite rating fits, and the gaps between groups are the ridge's
    (`stats.bradley_terry.separation`)."""
    return separation(_games(debates))


def _games(debates: Sequence[JudgedDebate]) -> Games:
    """Each debate a game between its debaters' models, won by the side the judge chose."""
    models = tuple(sorted({d.pro for d in debates} | {d.con for d in debates}))
    questions = tuple(sorted({d.question for d in debates}))
    index, where = {m: i for i, m in enumerate(models)}, {q: i for i, q in enumerate(questions)}
    return Games(
        models=models,
        motions=questions,
        pro=np.array([index[d.pro] for d in debates], dtype=np.int64),
        con=np.array([index[d.con] for d in debates], dtype=np.int64),
        motion=np.array([where[d.question] for d in debates], dtype=np.int64),
        y=np.array([1.0 if d.pro_won else 0.0 for d in debates]),
    )


def pair_accuracy(debates: Sequence[JudgedDebate], rated: Sequence[Rating]
                  ) -> list[PairAccuracy]:  # fmt: skip
    """The judge's accuracy in the debates between each pair of models (either side),
    with the pair's mean rating: Khan et al.'s Figure 1."""
    by_model = {r.model: r.rating for r in rated}
    pairs: dict[tuple[str, str], list[tuple[str, bool]]] = defaultdict(list)
    for d in debates:
        key = (d.pro, d.con) if d.pro <= d.con else (d.con, d.pro)
        pairs[key].append((d.question, d.correct))
    found = []
    for key, picks in sorted(pairs.items()):
        share = accuracy_of(picks)
        assert share is not None
        mean = (by_model[key[0]] + by_model[key[1]]) / 2
        found.append(PairAccuracy(key, mean, share.value, len(picks), share.low, share.high))
    return found


def accuracy_slope(pairs: Sequence[PairAccuracy]) -> float | None:
    """Least-squares slope of accuracy on mean rating, per 100 rating points (None
    with fewer than two distinct mean ratings)."""
    x = np.array([p.mean_rating for p in pairs])
    if len(pairs) < 2 or np.ptp(x) == 0:
        return None
    y = np.array([p.accuracy for p in pairs])
    return float(np.polyfit(x, y, 1)[0] * 100)


def persuasion_markdown(
    rated: Sequence[Rating], pairs: Sequence[PairAccuracy], groups: Sequence[Sequence[str]] = ()
) -> str:
    """The ratings, each pair's judge accuracy with its interval against the pair's mean
    rating, and the slope, as Markdown tables; a caveat when the results are separated
    (`groups`, from `separated`)."""
    lines = ["| model | rating | 95% interval | debates |", "|---|---|---|---|"]
    lines += [f"| {r.model} | {r.rating:.0f} | {r.low:.0f} to {r.high:.0f} | {r.debates} |"
              for r in rated]  # fmt: skip
    lines += ["", "| pair | mean rating | judge accuracy | 95% interval | debates |",
              "|---|---|---|---|---|"]  # fmt: skip
    lines += [f"| {a} vs {b} | {p.mean_rating:.0f} | {p.accuracy:.3f} | "
              f"{p.low:.3f} to {p.high:.3f} | {p.debates} |"
              for p in pairs for a, b in [p.models]]  # fmt: skip
    slope = accuracy_slope(pairs)
    if slope is not None:
        lines.append(f"\naccuracy per 100 rating points (least squares): {slope:+.3f}")
    if groups:
        lines.append(f"\n{separation_note(groups)}")
    return "\n".join(lines) + "\n"


def separation_note(groups: Sequence[Sequence[str]]) -> str:
    shown = " > ".join("{" + ", ".join(g) + "}" for g in groups)
    return (
        f"Separated results: {shown}; the judge sided with each group over every model of "
        "the groups after it in every debate, so no finite rating fits the data. The gaps "
        "between groups, and the mean ratings of pairs across them, are held by a small "
        "ridge (a wide prior): read them as 'at least this far apart', not as measured "
        "distances."
    )
