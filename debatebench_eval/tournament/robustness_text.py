"""The leaderboard's robustness in words: the alarms, what would flip the order,
where it is not an order, and the judge-aware rating beside the equal-weight one
(leaderboard.md and .html), and each model's line in the viewer."""

from __future__ import annotations

from collections import defaultdict
from pathlib import PurePosixPath
from typing import Any

from debatebench_eval.matches.figure_text import interval_text

NO_ALARM = ("No alarm: no fragile #1, no cycle of clear wins, no weak judge, no strong side "
            "advantage, no one-motion wins.")  # fmt: skip
MOST_SHOWN = 10  # debates listed per set; the rest are counted (leaderboard.json has all)


def robustness_lines(board: dict[str, Any]) -> list[str]:
    """`## How firm the order is`, `## Where the order is not an order` and, with more
    than one judge a debate, `## Judges weighed by how well they judge`."""
    found = board.get("robustness")
    if not found:
        return []
    return [*_firm_lines(board, found), *_cycle_lines(board), *_judge_lines(board)]


def _firm_lines(board: dict[str, Any], found: dict[str, Any]) -> list[str]:
    alarms = board.get("diagnostics") or []
    lines = ["", "## How firm the order is", ""]
    lines += [f"- ⚑ {a['text']}" for a in alarms] or [NO_ALARM]
    first = board.get("possible_first")
    could = "not known (no rank ranges)" if first is None else ", ".join(first) or "none"
    lines += ["", f"Could be #1 (95% rank range includes 1): {could}."
              + _human_first(board.get("human") or {}), "",
              top_text(found) + " Sets are found by each debate's one-step influence on the "
              "gap and confirmed by refitting without them; a count is an upper bound on the "
              "smallest set.", "", "| ranks | order | debates that reverse it | share |",
              "|---|---|---|---|"]  # fmt: skip
    for pair in found["pairs"]:
        count = {None: "none within 10%", 0: "0 (level)"}.get(pair["count"], str(pair["count"]))
        share = "-" if pair["share"] is None else f"{pair['share']:.1%}"
        lines.append(f"| {pair['rank']}-{pair['rank'] + 1} | {pair['ahead']} > {pair['behind']} "
                     f"| {count} | {share} |")  # fmt: skip
    listed = [(f"#{p['rank']} {p['ahead']} over {p['behind']}", p["debates"])
              for p in found["pairs"] if p["debates"]]  # fmt: skip
    if listed:
        lines += ["", "The debates (pair log: sample ids):", ""]
        lines += [f"- {label}: {debates_text(debates)}" for label, debates in listed]
    return lines


def _human_first(human: dict[str, Any]) -> str:
    found = human.get("possible_first")
    if not found:
        return ""
    return (f" By the human labels' PPI++ ratings (no model's interval wholly above its): "
            f"{', '.join(found)}.")  # fmt: skip


def top_text(found: dict[str, Any]) -> str:
    top = found.get("top")
    if found.get("top_flip") is None or not top:
        most = found.get("most_debates", 0)
        searched = f"{most} debates" if most else "less than one debate: none is searched"
        return (f"No removal of up to {found['most_share']:.0%} of the {found['debates']} "
                f"debates ({searched}) changes the #1.")  # fmt: skip
    if top["count"] == 0:
        return f"#1 is level with {top['overtaken_by']}: the order between them is a tie-break."
    return (f"#1 holds unless these {top['count']} of {found['debates']} debates "
            f"({top['share']:.1%}) are dropped: then {top['overtaken_by']} leads "
            f"({debates_text(top['debates'])}).")  # fmt: skip


def debates_text(debates: list[dict[str, Any]]) -> str:
    """Debates as their pair logs' file names with the sample ids in each."""
    by_log: dict[str, list[str]] = defaultdict(list)
    for ref in debates[:MOST_SHOWN]:
        name, sample = (
            PurePosixPath(str(ref.get("log") or "no log")).name,
            str(ref.get("sample_id")),
        )
        # An outcomes file's debate is FILE:LINE, its sample id the line: say it once.
        by_log[name.removesuffix(f":{sample}")].append(sample)
    text = "; ".join(f"{log}: {', '.join(ids)}" for log, ids in by_log.items())
    more = len(debates) - MOST_SHOWN
    return text + (f"; and {more} more" if more > 0 else "")


def _cycle_lines(board: dict[str, Any]) -> list[str]:
    lines = ["", "## Where the order is not an order", "",
             "Cycles of clear head-to-head wins (each step a share of the pair's debates whose "
             "Wilson interval lies above 1/2 at a level that holds for every pair at once, "
             "Bonferroni; shown with its 95% interval): a ranking of these models is not an "
             "order of their results.", ""]  # fmt: skip
    edges = board.get("cycle_edges") or []
    if not edges:
        return [*lines, "None."]
    for cycle in edges:
        steps = [f"{e['winner']} beat {e['loser']} {interval_text(e['share'], 2)}" for e in cycle]
        lines.append("- " + "; ".join(steps))
    return lines


def _judge_lines(board: dict[str, Any]) -> list[str]:
    aware = board.get("judge_aware")
    if not aware:
        return []
    rows = [r for r in board["models"] if r.get("rating") is not None]
    lines = ["", "## Judges weighed by how well they judge", "",
             f"Judge-aware Bradley-Terry: {aware['model']}; intervals from "
             f"{aware['resamples']} of the bootstrap's resamples. {aware['why']}", "",
             "| model | rating, equal weights | rating, judge-aware |",
             "|---|---|---|"]  # fmt: skip
    for row in rows:
        theirs = aware["ratings"].get(row["model"])
        lines.append(f"| {row['model']} | {interval_text(row['rating'])} "
                     f"| {interval_text(theirs)} |")  # fmt: skip
    equal = 1 / len(aware["judges"])
    lines += ["", f"| judge | readings | weight (equal judges: {equal:.2f} each; a coin: 0) |",
              "|---|---|---|"]  # fmt: skip
    for judge in aware["judges"]:
        lines.append(f"| {judge['judge']} | {judge['readings']} "
                     f"| {interval_text(judge['weight'], 2)} |")  # fmt: skip
    return lines


def holds_text(found: dict[str, Any] | None, model: str) -> str:
    """A model's line in the viewer: what would drop it below the next model (the
    #1: what would change the #1)."""
    if not found:
        return ""
    first = found["top"]["model"] if found.get("top") else None
    if first is None and found["pairs"]:
        first = found["pairs"][0]["ahead"]
    if model == first:
        return top_text(found)
    pair = next((p for p in found["pairs"] if p["ahead"] == model), None)
    if pair is None:
        return ""
    if pair["count"] is None:
        return (f"Its place above {pair['behind']} holds whatever up to "
                f"{found['most_share']:.0%} of the debates are dropped.")  # fmt: skip
    return (f"Its place above {pair['behind']} holds unless these {pair['count']} debates "
            f"are dropped ({debates_text(pair['debates'])}).")  # fmt: skip
