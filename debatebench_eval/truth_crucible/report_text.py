"""Markdown views of a crucible: the score's explanation and the report's sections.

Shared by the scorer (the explanation the viewer shows) and the report
command (final_report.md, conflicts.md), so both describe a run the same way,
a partial one included (what ran, where it stopped).
"""

from __future__ import annotations

from typing import Any

from debatebench_eval.truth_crucible.display import cell
from debatebench_eval.truth_crucible.prompts import judge_prompts
from debatebench_eval.truth_crucible.record import SIDES, Claim, CrucibleRecord

# The record's stage markers (set by the solver as each stage ends) before the
# conflicts were found: a record still at one of them never reached that stage.
BEFORE_CONFLICTS = ("", "neutralized", "proposed")

SHORT = {
    "factuality": "fact",
    "validity": "valid",
    "evidence": "evid",
    "responsiveness": "resp",
    "novelty": "novel",
    "robustness": "robust",
}


def explanation(record: CrucibleRecord, metadata: dict[str, Any]) -> str:
    """The verdict line and the per-claim table (medians over the panel)."""
    lines = [f"**{metadata['verdict']}**", ""]
    if record.run is not None and record.run.question != record.run.question_original:
        lines += [f"Debated the neutral wording: {record.run.question}", ""]
    lines += claims_table(record, metadata.get("claims", {}), padded=True)
    audit = metadata.get("audit", {})
    if audit.get("ran"):
        verdict = "consistent" if audit.get("consistent") else "inconsistent"
        rescored = ", one reading rescored" if audit.get("rescored") else ""
        lines += ["", f"Meta-judge: {verdict}{rescored}. {audit.get('reason', '')}"]
    return "\n".join(lines)


def claims_table(
    record: CrucibleRecord, scored: dict[str, Any], *, padded: bool = False
) -> list[str]:
    """A narrow table of every claim's scores (so ids never wrap), then the claims' text.

    `padded` writes the table as aligned text in a code block: Inspect's viewer
    draws Markdown tables with no cell padding (and shows `&nbsp;` as written), so
    neighbouring headers and numbers read as one ("factvalidevid"). The Markdown
    report keeps a Markdown table."""
    dims = list(judge_prompts().dimensions)
    header = ["claim", "total", *(SHORT.get(d, d) for d in dims), "ok"]
    claims = [c for side in SIDES for c in record.claims if c.side == side]
    body = [_cells(claim, scored.get(claim.id), dims) for claim in claims]
    rows = _aligned([header, *body]) if padded else _markdown(header, body)
    rows += [""] + [f"- **{c.id}**: {cell(c.claim, 300)}" for c in claims]
    return rows


# A failed claim in red: a plain ✗ reads like ✓ at a glance.
_NOT_VERIFIED = "❌ not verified"


def _markdown(header: list[str], body: list[list[str]]) -> list[str]:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    return [line(header), "|" + "---|" * len(header), *map(line, body)]


def _aligned(rows: list[list[str]]) -> list[str]:
    # The mark is last: an emoji is two columns wide in a monospace font.
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    text = [
        "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    return ["```text", *text, "```"]


def _cells(claim: Claim, scored: dict[str, Any] | None, dims: list[str]) -> list[str]:
    mark = "✓" if claim.verified else _NOT_VERIFIED
    if scored is None:
        values = ["-"] * (len(dims) + 1)
    else:
        values = [f"{scored['weighted_total']:.2f}"] + [f"{scored['medians'][d]:g}" for d in dims]
    return [claim.id, *values, mark]


def progress(record: CrucibleRecord) -> str:
    """Where a partial debate stopped: its last completed stage, the calls that
    finished (by stage, with who made them) and the call that failed."""
    done: dict[str, list[str]] = {}
    failed = []
    for call in record.calls:
        if call.failure is None:
            actors = done.setdefault(call.stage, [])
            actors += [] if call.actor in actors else [call.actor]
        else:
            failed.append(f"{call.stage}, {call.actor}")
    stage = (
        f"The last stage completed was '{record.stage}'."
        if record.stage
        else "It stopped during its first stage."
    )
    ran = (
        "Calls that finished: "
        + "; ".join(f"{name} ({', '.join(actors)})" for name, actors in done.items())
        + "."
        if done
        else "No call finished."
    )
    stopped = f" The call that failed: {'; '.join(failed)}." if failed else ""
    return f"{stage} {ran}{stopped}"


def conflicts_reached(record: CrucibleRecord) -> bool:
    return record.complete or record.stage not in BEFORE_CONFLICTS
