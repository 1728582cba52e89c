"""What a reader sees of a judgment in `inspect view`: the scores' explanations.

The judge works blind, so its own words speak of "Side A" and "Side B", and
the mapping differs between the two readings: every text shown here has the
labels put back (`relabel`). The rubric's explanation leads with the
winner, the judges' trust and JSON mode, and each reading's own result
(saying plainly when they disagree), then the dimension table and each
reading's justifications. The fact-check's is a list, one claim per item,
naming turns the way the transcript heads them ("1. Opening — PRO").
"""

from __future__ import annotations

import re
from typing import Any

from debatebench_eval.judging.ledger import Ledger
from debatebench_eval.judging.repeats import judge_groups
from debatebench_eval.judging.rubric import Rubric
from debatebench_eval.judging.verdict import Verdict
from debatebench_eval.record.protocol import SIDES
from debatebench_eval.record.store import DebateRecord

_LABEL = re.compile(r"\b(?:[Ss]ide|SIDE) ([AB])\b")
# The viewer renders Markdown with HTML and entities escaped, packs table cells
# tight and trims their whitespace: en spaces held in by a zero-width space
# (which trimming keeps) are the padding.
_PAD = "\u200b\u2002\u2002"


def relabel(text: str, blind: dict[str, str]) -> str:
    """The judge's words with its blind labels put back: "Side A" becomes "PRO"."""
    return _LABEL.sub(lambda m: blind[m.group(1)].upper(), text)


def rubric_explanation(metadata: dict[str, Any], rubric: Rubric, verdict: Verdict) -> str:
    """The rubric score's explanation, as Markdown."""
    blocks = [
        _headline(verdict),
        *(_judge_line(judge, metadata) for judge in metadata["readings"]),
        _readings(metadata["readings"], verdict),
        _table(metadata, rubric),
        *(_justifications(side, metadata, rubric) for side in SIDES),
        *_flags(metadata),
    ]
    return "\n\n".join(block for block in blocks if block)


def _headline(verdict: Verdict) -> str:
    how = {
        "total": "on total",
        "steelman_tiebreak": "on the steelman tiebreak (equal totals)",
        "coin_toss": "by the coin toss from the seed (equal totals and steelman scores)",
        "stance_forfeit": "by forfeit: the other side argued the opposite position",
        "swap_disagreed": "— none: a tie, as the swapped readings named different winners "
        "(swap_rule=survive)",
    }[verdict.reason]
    winner = verdict.winner.upper() if verdict.winner else "TIE"
    return (
        f"**Winner: {winner}** {how} — PRO {verdict.totals['pro']:g}, "
        f"CON {verdict.totals['con']:g}, margin {verdict.margin:g} ({verdict.tier})"
    )


def _judge_line(judge: dict[str, Any], metadata: dict[str, Any]) -> str:
    modes = sorted({o.get("json_mode") or "?" for o in judge["orientations"]})
    trust = metadata.get("trust") or {}
    status = trust.get("status", "unknown")
    valid = "" if judge["valid"] else " · **not used: a reading failed**"
    return f"Judge `{_name(judge)}` · trust: {status} · JSON mode: {', '.join(modes)}{valid}"


def _name(judge: dict[str, Any]) -> str:
    """A judge record's name, with its repeat when judging was repeated."""
    repeat = judge.get("repeat")
    return f"{judge['judge']} (repeat {repeat}, seed {judge['seed']})" if repeat else judge["judge"]


def _readings(judges: list[dict[str, Any]], verdict: Verdict) -> str:
    lines = []
    for judge in judges:
        prefix = f"{_name(judge)}, " if len(judges) > 1 else ""
        for number, reading in enumerate(judge["orientations"], 1):
            mapping = f"Side A = {reading['blind']['A'].upper()}"
            if reading.get("winner") is None:
                lines.append(f"- {prefix}reading {number} ({mapping}): no usable reply")
                continue
            totals = reading["totals"]
            lines.append(
                f"- {prefix}reading {number} ({mapping}): PRO {totals['pro']:g}, CON "
                f"{totals['con']:g} → {reading['winner'].upper()}"
            )
        if judge.get("swap_flipped"):
            decides = (
                f"their mean decides: {verdict.winner.upper()}"
                if verdict.winner
                else "under swap_rule=survive that is a tie"
            )
            lines.append(f"- **the readings disagree** (the swap flipped the winner); {decides}")
    return "\n".join(lines)


def _table(metadata: dict[str, Any], rubric: Rubric) -> str:
    """Each dimension's score per side: every reading's, then the combined one in bold."""
    columns = _reading_columns(metadata["readings"])
    head = ["dimension"]
    for side in SIDES:
        head += [f"{side.upper()} {name}" for name, _ in columns] + [f"**{side.upper()}**"]
    rows = [head]
    sides = metadata["sides"]
    for name in rubric.names:
        row = [f"{name} /{rubric.max_of(name)}"]
        for side in SIDES:
            row += [f"{scores[side][name]:g}" for _, scores in columns]
            row.append(f"**{sides[side]['dimensions'][name]['score']:g}**")
        rows.append(row)
    totals = ["total"]
    for side in SIDES:
        totals += [f"{sum(scores[side].values()):g}" for _, scores in columns]
        totals.append(f"**{sides[side]['total']:g}**")
    rows.append(totals)
    return _markdown_table(rows)


def _reading_columns(judges: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """One judge: each reading (r1, r2). A panel: each judge's mean of its readings."""
    valid = [judge for judge in judges if judge["valid"]]
    if len(valid) == 1:
        readings = valid[0]["orientations"]
        return [(f"r{n}", reading["scores"]) for n, reading in enumerate(readings, 1)]
    if any("repeat" in judge for judge in valid):
        # Repeated judging: a column per judge's repeat (j1 k2: judge 1, repeat 2).
        groups = judge_groups(valid)
        return [
            (f"j{n} k{judge['repeat']}" if len(groups) > 1 else f"k{judge['repeat']}",
             _mean(judge["orientations"]))
            for n, group in enumerate(groups, 1)
            for judge in group
        ]  # fmt: skip
    return [(f"j{n}", _mean(judge["orientations"])) for n, judge in enumerate(valid, 1)]


def _mean(readings: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    return {
        side: {
            name: sum(r["scores"][side][name] for r in readings) / len(readings)
            for name in readings[0]["scores"][side]
        }
        for side in SIDES
    }


def _markdown_table(rows: list[list[str]]) -> str:
    def line(row: list[str]) -> str:
        return "|" + "|".join(f"{_PAD}{cell}{_PAD[::-1]}" for cell in row) + "|"

    rule = "|" + "|".join(["---", *[":---:"] * (len(rows[0]) - 1)]) + "|"
    return "\n".join([line(rows[0]), rule, *(line(row) for row in rows[1:])])


def _justifications(side: str, metadata: dict[str, Any], rubric: Rubric) -> str:
    details = metadata["sides"][side]
    stance = metadata["stance"][side]
    lines = [f"**{side.upper()}** ({details['role']} role) · stance: {_stance(stance)}"]
    for name in rubric.names:
        lines.append(f"- *{name}*")
        for entry in details["dimensions"][name]["justifications"]:
            lines.append(f"  - {_who(entry, metadata)}: {relabel(entry['text'], entry['blind'])}")
    ledger = details["hit_ledger"]
    if ledger:
        lines.append(f"- *{rubric.ledger} ledger*")
        for entry in ledger:
            point = relabel(entry["point"], entry["blind"])
            lines.append(f"  - {_who(entry, metadata)}: {point} — {entry['status']}")
    return "\n".join(lines)


def _who(entry: dict[str, Any], metadata: dict[str, Any]) -> str:
    judge = f"{entry['judge']}, " if len(metadata["readings"]) > 1 else ""
    repeat = f"repeat {entry['repeat']}, " if "repeat" in entry else ""
    return f"{judge}{repeat}reading {entry['reading']}"


def _stance(stance: dict[str, Any]) -> str:
    if stance["violation"]:
        return (
            f"⚠ argued the other position ({stance['switched']} of {stance['readings']} readings)"
        )
    unclear = f", unclear in {stance['unclear']}" if stance["unclear"] else ""
    return f"held ({stance['readings'] - stance['switched'] - stance['unclear']} of " \
           f"{stance['readings']} readings{unclear})"  # fmt: skip


def _flags(metadata: dict[str, Any]) -> list[str]:
    found = [*metadata["judge_warnings"], *metadata.get("judge_family_warnings", [])]
    return [f"⚠ {warning}" for warning in found]


def turn_labels(record: DebateRecord) -> dict[str, str]:
    """Each turn id as the transcript heads the turn: "1. Opening — PRO"."""
    return {
        turn.id: f"{turn.phase_index + 1}. {turn.phase.capitalize()} — {turn.side.upper()}"
        for turn in record.turns
    }


def ledger_explanation(ledger: Ledger, record: DebateRecord) -> str:
    """The fact-check as a list: each claim under its turn, with verdict, reason, citations."""
    labels = turn_labels(record)
    lines = []
    for claim in ledger.claims:
        cites = "; ".join(
            f"{labels.get(c.id, c.id)} ✓"
            if c.verified
            else f"{labels.get(c.id, c.id)} ✗ {c.problem}"
            for c in claim.citations
        )
        lines.append(
            f"- **{labels.get(claim.turn, claim.turn)}** — {claim.claim} → **{claim.verdict}**. "
            f"{claim.reason}" + (f" *Cites:* {cites}" if cites else "")
        )
    lines += [
        f"- **{side.upper()}** made no factual claim: {why}"
        for side, why in ledger.no_claims.items()
    ]
    return "\n".join(lines)
