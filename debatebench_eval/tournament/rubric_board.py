"""The leaderboard of rubric debates (the debate kind's, and that of debates judged
elsewhere): every figure (leaderboard.json), the Markdown a person reads with its
caveats, the plots, and, with human labels, the prediction-powered figures beside
the judge's."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from debatebench_eval.annotation.human_ratings import human_lines, human_ratings
from debatebench_eval.annotation.human_results import human_results
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.task_versions import versions_line
from debatebench_eval.judging.reliability import BIASES, PANEL
from debatebench_eval.matches.figure_text import excluded_table, finite
from debatebench_eval.matches.figure_text import interval_text as _ci
from debatebench_eval.matches.figure_text import number_text as _number
from debatebench_eval.matches.results import eligible_debates
from debatebench_eval.matches.spend import spend_table
from debatebench_eval.stats.bradley_terry import ELO_PER_LOGIT
from debatebench_eval.stats.intervals import LEVEL
from debatebench_eval.tournament.design import design_lines, rounds_plot
from debatebench_eval.tournament.diagnostics import diagnostics
from debatebench_eval.tournament.kind import Board, Rated, RateOptions
from debatebench_eval.tournament.robustness import interval_first
from debatebench_eval.tournament.robustness_text import robustness_lines
from debatebench_eval.tournament.standings import TIE_CAVEAT_SHARE, Options, standings


def board(rated: Rated, options: RateOptions) -> Board:
    """The leaderboard: its figures, its Markdown, and how to draw its plots."""
    if options.anchor != "mean" and options.anchor not in rated.models:
        where = "this tournament" if rated.from_tournament else "these debates"
        raise ConfigError("--anchor", f"{options.anchor!r} is not in {where}",
                          f"'mean' or one of {', '.join(rated.models)}")  # fmt: skip
    anchor = None if options.anchor == "mean" else options.anchor
    design = "adaptive" if (rated.header.get("design") or {}).get("kind") == "adaptive" else (
        "round_robin")  # fmt: skip
    if design == "adaptive" and anchor is not None:
        raise ConfigError(
            "--anchor", f"{anchor} for an adaptive tournament",
            "'mean': its ratings' intervals are relative to the mean model",
        )  # fmt: skip
    settings = Options(anchor, options.base, options.resamples, options.seed, design)
    found = figures(rated, settings, options.prices)
    if options.human:
        found["human"] = _human(options.human, rated, found, options.base)

    def plots(root: str) -> list[str]:
        from debatebench_eval.tournament.plots import draw_plots

        return draw_plots(found, root) + rounds_plot(found["tournament"], root)

    return Board(found, markdown(found), plots)


def figures(rated: Rated, options: Options, prices: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every figure of the leaderboard (leaderboard.json), JSON-safe."""
    found = standings(rated.results, rated.models, rated.judges, options)
    found["counts"]["duplicates"] = rated.duplicates
    found["counts"]["fact_check_unscored"] = sum(r.fact_check_failed for r in rated.results)
    board = {
        "tournament": rated.header,
        "settings": {
            "anchor": options.anchor or "mean",
            "base": options.base,
            "level": LEVEL,
            "resamples": options.resamples,
            "seed": options.seed,
            "ties": "half a win for each side",
            # How the order swap's two readings became one verdict (judging's swap_rule).
            "swap_rule": found["reliability"]["swap_rule"],
            "scale": "400/ln(10) = 173.7 rating points per logit; 400 points are 10:1 odds",
            "points_per_logit": ELO_PER_LOGIT,
        },
        **found,
        # What the debates that ran spent (none for debates judged elsewhere).
        "spend": spend_table([r.spend for r in rated.results if r.spend], prices),
    }
    board["diagnostics"] = diagnostics(board)
    board["caveats"] = caveats(board, set(rated.versions))
    finite_board: dict[str, Any] = finite(board)
    return finite_board


def _human(
    labels: Sequence[str], rated: Rated, board: dict[str, Any], base: float
) -> dict[str, Any]:
    """The PPI++ figures of the labelled debates (a tournament's logs only)."""
    if not rated.from_tournament:
        raise ConfigError("--human", "labels for debates judged elsewhere",
                          "a tournament's LOG_DIR: the labels name its logs' debates")  # fmt: skip
    results, notes = human_results(rated.folders, labels)
    models = [row["model"] for row in board["models"] if row.get("rating") is not None]
    found: dict[str, Any] = finite(
        human_ratings(eligible_debates(rated.results), results, sorted(models), base)
    )
    # The prediction-powered rank set: which models the PPI++ ratings allow at #1.
    if found.get("ratings"):
        found["possible_first"] = interval_first(found["ratings"]["models"])
    return {**found, "labels": list(labels), "not_used": notes}


def caveats(board: dict[str, Any], versions: set[str]) -> list[str]:
    counts, judges = board["counts"], board["judges"]
    boot = board.get("bootstrap") or {}
    trust = judges["trust"]
    notes = [
        "The judges are LLMs: a rating measures what this panel rewards, not debating "
        "skill as people would judge it. Judge trust when the debates were judged: "
        + (", ".join(f"{status} ({n} debates)" for status, n in trust.items()) or "none recorded")
        + ("." if set(trust) == {"trusted"} else "; no rating here rests on a validated judge."),
        f"{counts['eligible_matchups']} of {counts['matchups']} matchups are eligible (both "
        "debates, sides exchanged, scored); the excluded debates are listed with their reasons.",
    ]
    if boot and boot["motions"] < 2:
        notes.append(
            "No intervals: they come from a bootstrap over motions, which needs two motions "
            f"or more (this tournament has {boot['motions']}); run more motions for them."
        )
    elif boot:
        notes.append(
            f"95% intervals: cluster bootstrap over {boot['motions']} motions "
            f"({boot['resamples']} resamples, seed {boot['seed']}), percentile intervals "
            f"widened by {boot['factor']:.3f} "
            "for few motions; with few motions every interval is wide and approximate."
            + (f" Adaptive design: {boot['ratings']}." if boot.get("ratings") else "")
        )
    mixed = {t: vs for t, vs in board["tournament"].get("task_versions", {}).items() if len(vs) > 1}
    for task, found in mixed.items():
        notes.append(
            f"Logs of {task} task versions {', '.join(found)} are rated together: a version "
            "is raised when the meaning or keys of its scores change (docs/changelog.md)."
        )
    share = counts["tie_share"] or 0.0
    notes.append(
        f"Ties (equal totals before the tiebreaks): {counts['ties']} ({share:.1%}), each counted "
        "as half a win for both sides."
        + (
            f" Above {TIE_CAVEAT_SHARE:.0%}: a model with a tie parameter (Davidson) would "
            "describe them better."
            if share > TIE_CAVEAT_SHARE
            else ""
        )
    )
    if counts.get("forfeits"):
        notes.append(
            f"{counts['forfeits']} eligible debates were decided by a forfeit (a side that "
            "argued the other position loses, whatever its scores): counted as losses."
        )
    groups = board.get("separation") or []
    if groups:
        shown = " > ".join("{" + ", ".join(g) + "}" for g in groups)
        notes.append(
            f"Separated results: {shown}; each group beat every model of the groups after "
            "it in every eligible debate, so no finite rating fits the data. The gaps between "
            "groups are held by a small ridge (a wide prior): read them as 'at least this "
            "far apart', not as measured distances."
        )
    anchor = board["settings"]["anchor"]
    notes.append(
        "Ratings are relative to this tournament's models and cannot be compared across "
        "tournaments; "
        + (
            "the mean model sits at the base."
            if anchor == "mean"
            else f"{anchor} sits at the base with a "
            "zero-width interval: intervals are relative to it."
        )
    )
    if counts["self_judged_debates"]:
        notes.append(
            f"{counts['self_judged_debates']} eligible debates were judged by a panel that "
            "includes one of their debaters (--allow-self-judging)."
        )
    if len(versions) > 1:
        notes.append(f"The logs come from {len(versions)} different package versions.")
    if counts["duplicates"]:
        notes.append(f"{len(counts['duplicates'])} debates were found in more than one log; "
                     "one copy of each was kept (listed under duplicates).")  # fmt: skip
    notes += _reliability_caveats(board.get("reliability") or {})
    if board.get("length_control"):
        unit = board["length_control"].get("unit", "words")
        notes.append(f"Length control uses {unit} spoken as the length; it is approximate, "
                     "like any covariate adjustment.")  # fmt: skip
    return notes


def _reliability_caveats(found: dict[str, Any]) -> list[str]:
    """A note for each judge whose figures show a habit that could explain some order."""
    notes = []
    for judge, figures in (found.get("by_judge") or {}).items():
        shown = [name.replace("_", "-") for name in (*BIASES, "repeats")
                 if (figures.get(name) or {}).get("flagged")]  # fmt: skip
        if shown:
            who = "The panel's verdicts show" if judge == PANEL else f"Judge {judge} shows"
            notes.append(f"{who} a {', '.join(shown)} effect whose 95% interval excludes "
                         "none (see Judge reliability).")  # fmt: skip
    if found.get("swap_rule", "mean") != "mean":
        notes.append(f"Verdicts were reached under swap_rule={found['swap_rule']}: a verdict "
                     "the order swap did not confirm is a tie (half a win each).")  # fmt: skip
    return notes


def _maybe(value: float | None, spec: str) -> str:
    """The value formatted, or n/a where the source did not give it."""
    return "n/a" if value is None else format(value, spec)


def _judged_by(header: dict[str, Any]) -> str:
    judges = ", ".join(header["identity"]["judges"])
    source = header.get("source", "tournament")
    if source == "tournament":
        return f"judged by {judges} (median of the panel)"
    where = "an outcomes file" if source == "outcomes" else "debatebench score files"
    return f"from {where}, judged by {judges or 'judges not named'}"


def markdown(board: dict[str, Any]) -> str:
    t, counts, judges = board["tournament"], board["counts"], board["judges"]
    settings = board["settings"]
    anchor = "the mean" if settings["anchor"] == "mean" else settings["anchor"]
    lines = [
        "# Tournament leaderboard",
        "",
        f"{len(t['models'])} models, {len(t['motions'])} motions, {_judged_by(t)}. "
        f"Eligible: {counts['eligible_matchups']} of {counts['matchups']} matchups "
        f"({counts['eligible_debates']} of {counts['scheduled']} "
        f"{'scheduled ' if t.get('source', 'tournament') == 'tournament' else ''}debates).",
        *_version_lines(t),
        "",
        f"Bradley-Terry ratings with a pro/con side advantage, {settings['base']:g} at {anchor}; "
        f"{ELO_PER_LOGIT:.1f} points per logit (400 points are 10:1 odds). Brackets: 95% "
        "intervals; rank: the rank and its 95% range.",
        "",
        "| rank | model | rating | length-controlled | win rate | debates | mean margin "
        "| tokens/debate | budget hits |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in board["models"]:
        if row.get("rating") is None:
            lines.append(f"| - | {row['model']} | {row['note']} | | | 0 | | | |")
            continue
        low, high = row["rank_range"] or (row["rank"], row["rank"])
        rank = f"{row['rank']}" + (f" ({low}-{high})" if (low, high) != (row["rank"],) * 2 else "")
        hits = row["budget_hit_rate"]
        lines.append(
            f"| {rank} | {row['model']} | {_ci(row['rating'])} | {_ci(row['length_controlled'])} "
            f"| {_ci(row['win_rate'], 2)} | {row['debates']} "
            f"| {_maybe(row['mean_margin'], '+.1f')} "
            f"| {_maybe(row['tokens_per_debate'], '.0f')} | {_maybe(hits, '.1%')} |"
        )
    lines += design_lines(t, board["models"]) + robustness_lines(board)
    lines += _side_lines(board) + _fit_lines(board.get("fit"))
    lines += _judge_lines(judges) + _reliability_lines(board["reliability"])
    lines += _dimension_lines(board)
    lines += _head_to_head_lines(board) + _spend_lines(board.get("spend"))
    if board.get("human"):
        lines += human_lines(board["human"], board["models"])
    lines += _excluded_lines(counts)
    lines += ["", "## Caveats", "", *(f"- {note}" for note in board["caveats"])]
    return "\n".join(lines) + "\n"


def _version_lines(header: dict[str, Any]) -> list[str]:
    """The task versions the debates were made by (none for debates judged elsewhere)."""
    found = header.get("task_versions") or {}
    if not any(found.values()):
        return []
    return ["", versions_line((t, v) for t, vs in found.items() for v in vs).capitalize() + "."]


def _spend_lines(spend: dict[str, Any] | None) -> list[str]:
    """Tokens and cost by model and role (nothing for debates judged elsewhere)."""
    if not spend or not spend["models"]:
        return []
    cost = spend["cost"]
    total = (
        f"${cost:,.2f} in all, ${spend['cost_per_debate']:,.4f} a debate"
        if cost is not None
        else "cost unknown" + (" (some models unpriced)" if spend["priced_in_part"] else "")
    )
    lines = [
        "",
        "## Tokens and cost",
        "",
        f"{spend['debates']} debates ran: {spend['tokens']:,} tokens, "
        f"{spend['tokens_per_debate']:,.0f} a debate; {total}. Prices: Inspect's where it "
        "priced the calls, else `rate --model-cost-config`.",
        "",
        "| model | role | debates | input tokens | output tokens | tokens/debate | cost "
        "| cost/debate |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in spend["models"]:
        lines.append(
            f"| {row['model']} | {row['role']} | {row['debates']} | {row['input_tokens']:,} "
            f"| {row['output_tokens']:,} | {row['tokens_per_debate']:,.0f} "
            f"| {_maybe(row['cost'], ',.2f')} | {_maybe(row['cost_per_debate'], ',.4f')} |"
        )
    return lines


def _side_lines(board: dict[str, Any]) -> list[str]:
    side, length = board.get("side_advantage"), board.get("length_control")
    if not side:
        return ["", "No eligible matchup yet: nothing is rated."]
    lines = [
        "", "## Side advantage", "",
        f"Arguing pro is worth {_ci(side['logit'], 3)} logits = {_ci(side['elo'], 0)} rating "
        f"points: at equal strength pro wins with probability "
        f"{_ci(side['p_pro_wins_at_equal_strength'], 3)}. Pro won "
        f"{_ci(side['pro_win_share'], 3)} of the eligible debates.",
    ]  # fmt: skip
    if length:
        lines += [
            "", "## Length control", "",
            f"Covariate: {length['covariate']}. Its coefficient: "
            f"{_ci(length['gamma_logit_per_sd'], 3)} logits = "
            f"{_ci(length['gamma_elo_per_sd'], 0)} rating points per standard deviation. A "
            "model whose length-controlled rating is well below its rating wins partly by "
            "speaking longer." + _length_slope_text(board.get("reliability") or {}),
        ]  # fmt: skip
    return lines


def _length_slope_text(found: dict[str, Any]) -> str:
    """The verdicts' margin against the length share, beside the rating's coefficient."""
    slope = ((found.get("by_judge") or {}).get(PANEL) or {}).get("length")
    if not slope:
        return ""
    return (f" The verdicts' margin moves {_ci(slope, 2)} rubric points per standard "
            "deviation of the length share (least squares, t interval).")  # fmt: skip


def _fit_lines(fit: dict[str, Any] | None) -> list[str]:
    """What the scale means: the odds a gap implies, and how well they match outcomes."""
    if not fit:
        return []
    scale = fit["points_per_logit"]

    def scores(found: dict[str, Any] | None) -> str:
        if not found:
            return "n/a"
        return f"log-loss {_number(found['log_loss'], 3)}, Brier {_number(found['brier'], 3)}"

    lines = [
        "", "## What the scale means", "",
        f"{scale:.1f} rating points per logit: a 100-point gap means the higher model wins "
        f"{1 / (1 + math.exp(-100 / scale)):.0%} of debates, before the side advantage (odds "
        f"{math.exp(100 / scale):.2f}:1), 200 points "
        f"{1 / (1 + math.exp(-200 / scale)):.0%}. How well the fitted win probabilities "
        "match the outcomes (mean per debate, lower is better; a tie is half a win):",
        "", "| fit | in sample | held out |", "|---|---|---|",
    ]  # fmt: skip
    held, held_lc = fit.get("cross_validated"), fit.get("cross_validated_length_controlled")
    lines.append(f"| ratings | {scores(fit['in_sample'])} | {scores(held)} |")
    if fit.get("in_sample_length_controlled"):
        lines.append(f"| length-controlled | {scores(fit['in_sample_length_controlled'])} "
                     f"| {scores(held_lc)} |")  # fmt: skip
    if not held:
        return [*lines, "", "Held out: n/a (fewer than two motions)."]
    base = held["baselines"]
    lines += [
        "", f"Held out: {held['folds']}-fold cross-validation over motions (a motion's "
        "debates leave together). Baselines: a coin, "
        f"{scores(base['coin'])}; the training folds' pro win share, "
        f"{scores(base['pro_win_share'])}.",
        "", "Held-out ratings' predictions by probability:",
        "", "| predicted pro win | debates | mean predicted | pro won |", "|---|---|---|---|",
    ]  # fmt: skip
    for row in held["table"]:
        low, high = row["predicted"]
        mean, won = row["mean_predicted"], row["observed"]
        lines.append(f"| {low:.1f}-{high:.1f} | {row['debates']} "
                     f"| {'-' if mean is None else f'{mean:.3f}'} "
                     f"| {'-' if won is None else f'{won:.3f}'} |")  # fmt: skip
    return lines


def _judge_lines(judges: dict[str, Any]) -> list[str]:
    def num(value: float | None, places: int = 3) -> str:
        return "n/a" if value is None else f"{value:.{places}f}"

    lines = [
        "", "## Judges", "",
        f"Krippendorff's alpha (interval, every dimension): {num(judges['alpha'])}; by "
        "dimension: " + ", ".join(f"{k} {num(v)}" for k, v in judges["alpha_by_dimension"].items())
        + f". Swap-flip rate over all readings: {num(judges['swap_flip_rate'])}."
        + _effective_text(judges.get("effective_judges") or {}),
        "", "| judge | readings | valid | swap-flip rate | picks pro |", "|---|---|---|---|---|",
    ]  # fmt: skip
    for j in judges["judges"]:
        lines.append(f"| {j['judge']} | {j['readings']} | {num(j['valid_rate'])} "
                     f"| {num(j['swap_flip_rate'])} | {num(j['pro_pick_rate'])} |")  # fmt: skip
    if judges["pairwise"]:
        lines += ["", "| judges | debates | same winner | Cohen's kappa |", "|---|---|---|---|"]
        for p in judges["pairwise"]:
            lines.append(f"| {' / '.join(p['judges'])} | {p['n']} | {num(p['agreement'])} "
                         f"| {num(p['kappa'])} |")  # fmt: skip
    return lines


def _effective_text(found: dict[str, Any]) -> str:
    """The effective number of judges, all verdicts and decisive ones (None: one judge)."""
    parts = [
        f"{label} {n['n_eff']:.2f} of {n['judges']} (mean verdict correlation "
        f"{n['mean_correlation']:.3f})"
        for label, key in (("all verdicts", "all"), ("decisive verdicts", "decisive"))
        if (n := found.get(key)) and n.get("n_eff") is not None
    ]
    if not parts:
        return ""
    return (" Effective number of judges (Kish, n / (1 + (n - 1) x mean pairwise verdict "
            "correlation)): " + "; ".join(parts) + ".")  # fmt: skip


_BIAS_COLUMNS = (("position", "opener wins", 3), ("side", "pro wins", 3),
                 ("length", "margin per sd of length share", 2),
                 ("self_preference", "own-family pick rate over others'", 3))  # fmt: skip


def _reliability_lines(found: dict[str, Any]) -> list[str]:
    """Each judge's (and the panel's) bias figures and repeat consistency, flagged (⚑)
    where the interval excludes no bias."""

    def cell(figure: dict[str, Any] | None, places: int) -> str:
        if not figure:
            return "n/a"
        return _ci(figure, places) + (" ⚑" if figure["flagged"] else "")

    def repeats(figure: dict[str, Any] | None) -> str:
        if not figure:
            return "n/a"
        flag = " ⚑" if figure["flagged"] else ""
        return f"{figure['flip_rate']:.3f}{flag} / {figure['stable_share']:.3f} (k={figure['k']})"

    lines = [
        "", "## Judge reliability", "",
        f"Swap rule: {found['swap_rule']}. Brackets: 95% intervals (Wilson for shares, t for "
        "the length slope, a bootstrap over debates for self-preference); ⚑: the interval "
        "excludes no bias (1/2, or 0).", "",
        "| judge | " + " | ".join(f"{name} ({what})" for name, what, _ in _BIAS_COLUMNS)
        + " | repeat flips / stable |",
        "|---|" + "---|" * (len(_BIAS_COLUMNS) + 1),
    ]  # fmt: skip
    for judge, figures in found["by_judge"].items():
        cells = [cell(figures[name], places) for name, _, places in _BIAS_COLUMNS]
        lines.append(f"| {judge} | " + " | ".join(cells) + f" | {repeats(figures['repeats'])} |")
    return lines


def _dimension_lines(board: dict[str, Any]) -> list[str]:
    rows = [r for r in board["models"] if r.get("dimensions")]
    if not rows:
        return []
    names = list(rows[0]["dimensions"])
    lines = [
        "", "## Rubric dimensions (never blended into the rating)", "",
        "Mean score per debate, both sides pooled (as pro / as con).", "",
        "| model | " + " | ".join(names) + " |", "|---|" + "---|" * len(names),
    ]  # fmt: skip
    for row in rows:
        cells = []
        for name in names:
            d = row["dimensions"][name]
            cells.append(
                f"{d['all']:.1f} ({d.get('pro', math.nan):.1f} / {d.get('con', math.nan):.1f})"
            )
        lines.append(f"| {row['model']} | " + " | ".join(cells) + " |")
    return lines


def _head_to_head_lines(board: dict[str, Any]) -> list[str]:
    cells = {(h["model"], h["opponent"]): h for h in board["head_to_head"]}
    models = [r["model"] for r in board["models"] if r.get("rating") is not None]
    if not cells:
        return []
    lines = ["", "## Head to head", "", "Row model's share of the debates against the "
             "column model (ties as halves), and how many.", "",
             "| | " + " | ".join(models) + " |", "|---|" + "---|" * len(models)]  # fmt: skip
    for a in models:
        row = [f"{cells[(a, b)]['share']:.2f} ({cells[(a, b)]['n']})" if (a, b) in cells else "-"
               for b in models]  # fmt: skip
        lines.append(f"| {a} | " + " | ".join(row) + " |")
    return lines


def _excluded_lines(counts: dict[str, Any]) -> list[str]:
    lines = ["", "## Excluded debates", "",
             f"Scored {counts['scored']}, unscored {counts['unscored']} (fact-checks unscored "
             f"{counts.get('fact_check_unscored', 0)}), failed {counts['error']}, "
             f"missing {counts['missing']}; a scored debate whose twin (same matchup, sides "
             "exchanged) was not scored does not count either."]  # fmt: skip
    if not any(counts["excluded"].values()):
        return [*lines, "", "None: every scheduled matchup counts."]
    return lines + excluded_table(counts["excluded"], "motion")
