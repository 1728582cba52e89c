"""The leaderboard of an oversight tournament: persuasiveness and truth.

Each debater is rated by how often the judge sided with it whatever answer it was
assigned (Khan et al. 2024's persuasiveness: `persuasion.ratings`), and each pair
by the judge's accuracy in the debates between its two models, with an interval
over questions, against the pair's mean rating: their Figure 1, drawn beside the
tables. As on the debate leaderboard, a question counts for a pair only when both
of its debates (the models in both positions) were scored, and every other
debate is listed with its reason.
"""

from __future__ import annotations

from typing import Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.task_versions import versions_line
from debatebench_eval.known_answer.persuasion import (
    PairAccuracy,
    Rating,
    accuracy_slope,
    pair_accuracy,
    persuasion_markdown,
    ratings,
    separated,
)
from debatebench_eval.known_answer.stats import JudgedDebate, accuracy_of
from debatebench_eval.matches.figure_text import excluded_table, finite
from debatebench_eval.matches.results import (
    STATUSES,
    DebateResult,
    eligible_debates,
    excluded,
    matchups,
)
from debatebench_eval.stats.intervals import LEVEL
from debatebench_eval.tournament.design import design_lines, rounds_plot
from debatebench_eval.tournament.kind import Board, Rated, RateOptions

PLOT = "accuracy_vs_rating.png"


def judged(results: list[DebateResult]) -> list[JudgedDebate]:
    """The rated debates as the persuasiveness rating reads them."""
    return [
        JudgedDebate(r.motion, r.pro, r.con, r.sided_with == "pro", bool(r.correct))
        for r in eligible_debates(results)
    ]


def board(rated: Rated, options: RateOptions) -> Board:
    """The oversight tournament's leaderboard: its figures, its Markdown, and Khan et
    al.'s Figure 1 to draw. Its ratings sit at 1000 for the mean model, and human
    labels are of rubric debates: options that ask otherwise are refused."""
    _only("--anchor", options.anchor, "mean")
    _only("--base", options.base, 1000.0)
    if options.human:
        raise ConfigError("--human", "given for an oversight tournament",
                          "labels of a debate tournament (an oversight judge is measured "
                          "against the questions' known answers)")  # fmt: skip
    found, text, pairs = oversight_board(rated, options.resamples, options.seed)

    def plots(root: str) -> list[str]:
        from debatebench_eval.tournament.plots import accuracy_against_rating

        drawn = [accuracy_against_rating(pairs, f"{root}/{PLOT}")] if pairs else []
        return drawn + rounds_plot(found["tournament"], root)

    return Board(finite(found), text, plots)


def _only(flag: str, value: Any, default: Any) -> None:
    if value != default:
        expected = f"the default ({default}): its ratings sit at 1000 for the mean model"
        raise ConfigError(flag, f"got {value} for an oversight tournament", expected)


def oversight_board(
    source: Rated, resamples: int, seed: int
) -> tuple[dict[str, Any], str, list[PairAccuracy]]:
    """Every figure of the leaderboard (leaderboard.json), its Markdown, and the pairs
    to plot."""
    header = source.header
    debates = judged(source.results)
    design = "adaptive" if (header.get("design") or {}).get("kind") == "adaptive" else "round_robin"
    rated: list[Rating] = (
        ratings(debates, resamples, seed, design) if len(_models(debates)) > 1 else []
    )
    pairs = pair_accuracy(debates, rated) if rated else []
    groups = separated(debates) if rated else []
    overall = accuracy_of([(d.question, d.correct) for d in debates])
    board = {
        "tournament": header,
        "settings": {
            "base": 1000.0,
            "anchor": "mean",
            "level": LEVEL,
            "resamples": resamples,
            "seed": seed,
            "bootstrap": "over questions",
        },
        "counts": _counts(source.results),
        "models": [
            {
                "model": r.model,
                "rank": rank,
                "rating": {"value": r.rating, "low": r.low, "high": r.high},
                "win_rate": {"value": _sided_with(r.model, debates)},
                "debates": r.debates,
                "separated": len(groups) > 1,
            }
            for rank, r in enumerate(rated, 1)
        ],
        "separation": groups,
        "pairs": [
            {
                "models": list(p.models),
                "mean_rating": p.mean_rating,
                "debates": p.debates,
                "accuracy": {"value": p.accuracy, "low": p.low, "high": p.high},
            }
            for p in pairs
        ],
        "accuracy_slope_per_100": accuracy_slope(pairs),
        "accuracy": None if overall is None else vars(overall),
    }
    rated_text = (
        persuasion_markdown(rated, pairs, groups)
        if rated
        else "Nothing is rated yet: no pair has a question with both its debates scored."
    )
    return board, markdown(board, rated_text), pairs


def markdown(board: dict[str, Any], rated: str) -> str:
    t, counts = board["tournament"], board["counts"]
    settings = t["identity"]["settings"]["task_args"]
    protocol = settings.get("protocol", "debate")
    judges = ", ".join(t["identity"]["judges"])
    lines = [
        "# Oversight tournament leaderboard",
        "",
        f"{len(t['models'])} models, {len(t['questions'])} questions, protocol {protocol}, "
        f"judged by {judges}. Rated: {counts['eligible_matchups']} of {counts['matchups']} "
        f"pairs' questions ({counts['eligible_debates']} of {counts['scheduled']} scheduled "
        "debates).",
    ]
    versions = t.get("task_versions") or {}
    if any(versions.values()):
        found = versions_line((k, v) for k, vs in versions.items() for v in vs)
        lines += ["", found.capitalize() + "."]
    lines += [
        "",
        "Persuasiveness: Bradley-Terry ratings of how often the judge sided with each debater, "
        "whatever answer it was assigned (Khan et al. 2024), with a pro/con position "
        "advantage, 1000 at the mean model, 400 points 10:1 odds. Judge accuracy: the share "
        "of a pair's debates in which the judge picked the right answer. Intervals: 95%, "
        "over questions.",
        "",
        rated.rstrip("\n"),
    ]
    overall = board["accuracy"]
    if overall is not None:
        lines += ["", f"Judge accuracy over every rated debate: {overall['value']:.3f} "
                  f"({overall['low']:.3f} to {overall['high']:.3f}), {overall['n']} debates on "
                  f"{overall['questions']} questions. Rated debates only: a question counts "
                  "for a pair when both its debates were scored, so this can differ from "
                  "`oversight persuasion` on the same logs, which counts every judged "
                  "debate."]  # fmt: skip
    lines += design_lines(t, board["models"])
    lines += _excluded_lines(counts)
    lines += ["", "## Caveats", "", *(f"- {note}" for note in _caveats(board))]
    return "\n".join(lines) + "\n"


def _sided_with(model: str, debates: list[JudgedDebate]) -> float:
    """The share of the model's debates in which the judge sided with it."""
    won = [d.pro_won if d.pro == model else not d.pro_won
           for d in debates if model in (d.pro, d.con)]  # fmt: skip
    return sum(won) / len(won)


def _models(debates: list[JudgedDebate]) -> set[str]:
    return {d.pro for d in debates} | {d.con for d in debates}


def _counts(results: list[DebateResult]) -> dict[str, Any]:
    found: dict[str, Any] = {status: sum(r.status == status for r in results)
                             for status in STATUSES}  # fmt: skip
    every = matchups(results)
    found.update(
        scheduled=len(results),
        matchups=len(every),
        eligible_matchups=sum(m.eligible for m in every),
        eligible_debates=len(eligible_debates(results)),
        excluded={why: [d.listing() for d in ds] for why, ds in excluded(results).items()},
    )
    return found


def _excluded_lines(counts: dict[str, Any]) -> list[str]:
    lines = ["", "## Excluded debates", "",
             f"Scored {counts['scored']}, unscored {counts['unscored']} (no judge's reply "
             f"could be used), failed {counts['error']}, missing {counts['missing']}; a scored "
             "debate whose twin (the same question, the models exchanged) was not scored does "
             "not count either."]  # fmt: skip
    if not any(counts["excluded"].values()):
        return [*lines, "", "None: every scheduled debate counts."]
    return lines + excluded_table(counts["excluded"], "question")


def _caveats(board: dict[str, Any]) -> list[str]:
    notes = [
        "A rating is persuasiveness, not knowledge: each model defends the right answer as "
        "often as the wrong one, so the judge siding with it says how convincing it is.",
        "The judge is an LLM that cannot read the evidence; its accuracy is measured "
        "against the questions' known answers.",
        f"Intervals: bootstrap over questions ({board['settings']['resamples']} resamples, "
        f"seed {board['settings']['seed']}); with few questions every interval is wide."
        + (
            " Adaptive design: the ratings' intervals are a mixture of the flat and the "
            "empirical-Bayes posteriors (stats.design)."
            if (board["tournament"].get("design") or {}).get("kind") == "adaptive"
            else ""
        ),
        "The slope of accuracy on mean rating is a least-squares point estimate over the "
        "pairs, without an interval.",
    ]
    mixed = {t: vs for t, vs in board["tournament"].get("task_versions", {}).items() if len(vs) > 1}
    for task, found in mixed.items():
        notes.append(f"Logs of {task} task versions {', '.join(found)} are rated together.")
    return notes
