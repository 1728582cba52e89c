"""`debatebench-eval tournament rate`: leaderboard.json (every figure), leaderboard.md
(the table a person reads, with its caveats), the plots, leaderboard.html (all of
it on one page) and leaderboard.eval (the ranking in `inspect view`).

Written through Inspect's file access, so `--out` may be any location Inspect
takes for logs.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from debatebench_eval.core._inspect import file
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.task_versions import versions_line
from debatebench_eval.judging.reliability import BIASES, PANEL
from debatebench_eval.tournament.bootstrap import LEVEL
from debatebench_eval.tournament.bradley_terry import ELO_PER_LOGIT
from debatebench_eval.tournament.figure_text import excluded_table
from debatebench_eval.tournament.figure_text import interval_text as _ci
from debatebench_eval.tournament.figure_text import number_text as _number
from debatebench_eval.tournament.human_labels import human_results
from debatebench_eval.tournament.human_ratings import human_lines, human_ratings
from debatebench_eval.tournament.judged_elsewhere import (
    Imported,
    is_debatebench_folder,
    read_debatebench,
    read_outcomes,
)
from debatebench_eval.tournament.leaderboard_log import write_leaderboard_log
from debatebench_eval.tournament.leaderboard_page import leaderboard_page
from debatebench_eval.tournament.outcomes import TournamentLogs, read_tournament
from debatebench_eval.tournament.oversight_board import PLOT, oversight_board
from debatebench_eval.tournament.results import eligible_debates
from debatebench_eval.tournament.schedule import OVERSIGHT, motion_record
from debatebench_eval.tournament.spend import spend_table
from debatebench_eval.tournament.standings import TIE_CAVEAT_SHARE, Options, standings


def write_leaderboard(
    folders: Sequence[str],
    *,
    out: str,
    anchor: str = "mean",
    base: float = 1000.0,
    resamples: int = 1000,
    seed: int = 0,
    plots: bool = True,
    outcomes: str | None = None,
    prices: dict[str, Any] | None = None,
    human: Sequence[str] = (),
) -> list[str]:
    """Rate the debates of `folders` (a tournament's logs, or folders of debatebench
    score files) or of an `outcomes` file, and write the leaderboard to `out`; with
    `human` labels files, the prediction-powered figures beside the judge's."""
    if resamples < 100:
        raise ConfigError("--resamples", f"got {resamples}", "at least 100 (1000 is the default)")
    source = read_source(folders, outcomes)
    if isinstance(source, TournamentLogs) and source.schedule.settings.task == OVERSIGHT:
        _only_mean("--anchor", anchor, "mean")
        _only_mean("--base", base, 1000.0)
        return _write_oversight(source, out.rstrip("/"), resamples, seed, plots)
    models = source.schedule.models if isinstance(source, TournamentLogs) else source.models
    if anchor != "mean" and anchor not in models:
        where = "this tournament" if isinstance(source, TournamentLogs) else "these debates"
        raise ConfigError("--anchor", f"{anchor!r} is not in {where}",
                          f"'mean' or one of {', '.join(models)}")  # fmt: skip
    options = Options(None if anchor == "mean" else anchor, base, resamples, seed)
    board = leaderboard(source, options, prices)
    if human:
        board["human"] = _human(folders, human, source, board, options.base)
    root = out.rstrip("/")
    text = markdown(board)
    written = [_write(f"{root}/leaderboard.json", json.dumps(board, indent=2) + "\n"),
               _write(f"{root}/leaderboard.md", text)]  # fmt: skip
    drawn: list[str] = []
    if plots:
        from debatebench_eval.tournament.plots import draw_plots

        drawn = draw_plots(board, root)
    page = leaderboard_page(board, text, {_name(p): _read_bytes(p) for p in drawn}, root)
    written += [*drawn, _write(f"{root}/leaderboard.html", page)]
    written.append(write_leaderboard_log(board, root))
    return written


def _only_mean(flag: str, value: Any, default: Any) -> None:
    if value != default:
        expected = f"the default ({default}): its ratings sit at 1000 for the mean model"
        raise ConfigError(flag, f"got {value} for an oversight tournament", expected)


def _write_oversight(
    logs: TournamentLogs, root: str, resamples: int, seed: int, plots: bool
) -> list[str]:
    """An oversight tournament's leaderboard: persuasiveness ratings, the judge's
    accuracy per pair and Khan et al.'s Figure 1 (tournament.oversight_board), and
    the ranking as a log for the viewer."""
    found, text, pairs = oversight_board(logs, _tournament_header(logs), resamples, seed)
    board = _finite(found)
    written = [_write(f"{root}/leaderboard.json", json.dumps(board, indent=2) + "\n"),
               _write(f"{root}/leaderboard.md", text)]  # fmt: skip
    drawn: list[str] = []
    if plots and pairs:
        from debatebench_eval.tournament.plots import accuracy_against_rating

        drawn.append(accuracy_against_rating(pairs, f"{root}/{PLOT}"))
    page = leaderboard_page(board, text, {_name(p): _read_bytes(p) for p in drawn}, root)
    return [*written, *drawn, _write(f"{root}/leaderboard.html", page),
            write_leaderboard_log(board, root)]  # fmt: skip


def _human(
    folders: Sequence[str],
    labels: Sequence[str],
    source: TournamentLogs | Imported,
    board: dict[str, Any],
    base: float,
) -> dict[str, Any]:
    """The PPI++ figures of the labelled debates (a tournament's logs only)."""
    if not isinstance(source, TournamentLogs):
        raise ConfigError("--human", "labels for debates judged elsewhere",
                          "a tournament's LOG_DIR: the labels name its logs' debates")  # fmt: skip
    results, notes = human_results(folders, labels)
    rated = [row["model"] for row in board["models"] if row.get("rating") is not None]
    found: dict[str, Any] = _finite(
        human_ratings(eligible_debates(source.results), results, sorted(rated), base)
    )
    return {**found, "labels": list(labels), "not_used": notes}


def read_source(folders: Sequence[str], outcomes: str | None) -> TournamentLogs | Imported:
    """A tournament's logs, debatebench folders, or an outcomes file: exactly one."""
    if outcomes is not None:
        if folders:
            raise ConfigError("tournament rate", f"both LOG_DIR ({folders[0]}) and --outcomes",
                              "one source: folders, or --outcomes FILE")  # fmt: skip
        return read_outcomes(outcomes)
    if not folders:
        raise ConfigError("tournament rate", "no source given",
                          "LOG_DIR (a tournament's, or debatebench score files), or "
                          "--outcomes FILE")  # fmt: skip
    theirs = [is_debatebench_folder(f) for f in folders]
    if all(theirs):
        return read_debatebench(list(folders))
    if any(theirs):
        mixed = folders[theirs.index(True)]
        raise ConfigError(mixed, "debatebench score files, among tournament folders",
                          "folders of one kind: tournament logs, or debatebench files")  # fmt: skip
    return read_tournament(folders)


def leaderboard(
    source: TournamentLogs | Imported, options: Options, prices: dict[str, Any] | None = None
) -> dict[str, Any]:
    if isinstance(source, Imported):
        header = _imported_header(source)
        figures = standings(source.results, source.models, source.judges, options)
        versions: set[str] = set()
    else:
        header = _tournament_header(source)
        figures = standings(source.results, source.schedule.models, source.schedule.judges,
                            options)  # fmt: skip
        versions = {json.dumps(log.versions, sort_keys=True) for log in source.logs if log.versions}
    figures["counts"]["duplicates"] = source.duplicates
    figures["counts"]["fact_check_unscored"] = sum(r.fact_check_failed for r in source.results)
    board = {
        "tournament": header,
        "settings": {
            "anchor": options.anchor or "mean",
            "base": options.base,
            "level": LEVEL,
            "resamples": options.resamples,
            "seed": options.seed,
            "ties": "half a win for each side",
            # How the order swap's two readings became one verdict (judging's swap_rule).
            "swap_rule": figures["reliability"]["swap_rule"],
            "scale": "400/ln(10) = 173.7 rating points per logit; 400 points are 10:1 odds",
            "points_per_logit": ELO_PER_LOGIT,
        },
        **figures,
        # What the debates that ran spent (none for debates judged elsewhere).
        "spend": spend_table([r.spend for r in source.results if r.spend], prices),
    }
    board["caveats"] = caveats(board, versions)
    finite: dict[str, Any] = _finite(board)
    return finite


def _tournament_header(logs: TournamentLogs) -> dict[str, Any]:
    schedule = logs.schedule
    task = schedule.settings.task
    # An oversight tournament's questions by id (their text and evidence are in its folder).
    items = (
        {"questions": [q.id for q in schedule.questions]}
        if task == OVERSIGHT
        else {"motions": [motion_record(m) for m in schedule.motions]}
    )
    return {
        "source": "tournament",
        "id": schedule.identity_hash,
        "eval_set_id": schedule.eval_set_id,
        "identity": schedule.identity(),
        "task": task,
        "models": list(schedule.models),
        **items,
        "pairs": [list(p) for p in schedule.pairs],
        "schedule_hash": schedule.schedule_hash,
        "runs": list(logs.manifest.runs),
        "folders": logs.folders,
        "logs": [log.as_dict() for log in logs.logs],
        "skipped_logs": logs.skipped,
        # Each pair is one task of the tournament's kind: the versions its logs were made by.
        "task_versions": {task: sorted({str(log.task_version) for log in logs.logs})},
    }


def _imported_header(source: Imported) -> dict[str, Any]:
    """The same keys a tournament's header has where they mean something here."""
    pairs = sorted({d.pair for d in source.results})
    return {
        "source": source.kind,
        "identity": {"judges": list(source.judges), "models": list(source.models)},
        "models": list(source.models),
        "motions": [{"id": m} for m in source.motions],
        "pairs": [list(p) for p in pairs],
        "folders": source.locations,
        "logs": [],
        "skipped_logs": source.skipped,
    }


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
    if boot:
        notes.append(
            f"95% intervals: cluster bootstrap over {boot['motions']} motions "
            f"({boot['resamples']} resamples, seed {boot['seed']}), percentile intervals "
            f"widened by {boot['factor']:.3f} "
            "for few motions; with few motions every interval is wide and approximate."
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


def _finite(value: Any) -> Any:
    """NaN and infinities become null: JSON has no NaN."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    if hasattr(value, "tolist"):
        return _finite(value.tolist())
    return value


def _read_bytes(path: str) -> bytes:
    with file(path, "rb") as handle:
        data: bytes = handle.read()
    return data


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _write(path: str, text: str) -> str:
    with file(path, "w") as handle:
        handle.write(text)
    return path


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
        low, high = row["rank_range"]
        rank = f"{row['rank']}" + (f" ({low}-{high})" if (low, high) != (row["rank"],) * 2 else "")
        hits = row["budget_hit_rate"]
        lines.append(
            f"| {rank} | {row['model']} | {_ci(row['rating'])} | {_ci(row['length_controlled'])} "
            f"| {_ci(row['win_rate'], 2)} | {row['debates']} "
            f"| {_maybe(row['mean_margin'], '+.1f')} "
            f"| {_maybe(row['tokens_per_debate'], '.0f')} | {_maybe(hits, '.1%')} |"
        )
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
