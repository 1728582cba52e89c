"""`debatebench-eval crucible report LOG`: final_report.md and conflicts.md per topic.

The report always ends with a Limitations section: fixed text on what the
verdict can and cannot mean, then the facts of this run that limit it
(unverified claims, judges that are also debaters or share one model,
untrusted judges, an early stop, a rescore, neutralisation off, calls
replayed from the cache).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from debatebench_eval.truth_crucible.display import cell
from debatebench_eval.truth_crucible.log_reader import CrucibleSample, read_samples
from debatebench_eval.truth_crucible.record import SIDES, Claim, CrucibleRecord
from debatebench_eval.truth_crucible.report_text import claims_table, conflicts_reached, progress

LIMITS = (
    "Scores are relative: they compare the claims made here, within this corpus and this "
    "rubric. They are not a finding that either position is true.",
    "The judges are language models. Their scores are medians of model readings, not "
    "expert assessment; the judges' agreement (alpha) is reported, their accuracy is not known.",
    "Blinding hides side labels, model names, claim ids, file names and order, not stance: "
    "a judge told which position each side argues can still favour one.",
    "Cite-or-lose checks that each excerpt is in the lines it cites, not that the excerpt "
    "supports the claim: that is the judges' factuality score.",
    "The sides argue only from the passages the harness's search showed them; evidence it "
    "did not retrieve took no part, and no new claims are filed during the rounds.",
)


def write_reports(log: str | Path, out: Path) -> list[Path]:
    written = []
    for sample in read_samples(log):
        folder = out / sample.id
        folder.mkdir(parents=True, exist_ok=True)
        report, conflicts = folder / "final_report.md", folder / "conflicts.md"
        report.write_text(final_report(sample), encoding="utf-8")
        conflicts.write_text(conflicts_report(sample), encoding="utf-8")
        written += [report, conflicts]
    return written


def final_report(sample: CrucibleSample) -> str:
    record = sample.record
    meta = sample.score.metadata or {} if sample.score else {}
    if not record.complete:
        return _unfinished(sample, meta)
    parts = [
        _heading(sample),
        _verdict(sample, meta),
        _claims(record, meta),
        _evidence(record),
        _unverified(record),
        "## Conflicts\n\n" + _conflict_list(record),
        _rounds(record),
        _neutralisation(record),
        _judges(record, meta),
        _limitations(sample, meta),
    ]
    return "\n\n".join(p for p in parts if p) + "\n"


def _unfinished(sample: CrucibleSample, meta: dict[str, Any]) -> str:
    """A debate that failed: where it stopped, what it had recorded, and its limits."""
    record = sample.record
    parts = [
        _heading(sample),
        f"## Where it stopped\n\n{progress(record)}\n\nNothing was scored: a partial debate "
        f"never is. {_resume_hint(record)}",
    ]
    if record.claims:
        parts += [_evidence(record), _unverified(record)]
    return "\n\n".join([*parts, _limitations(sample, meta)]) + "\n"


def _resume_hint(record: CrucibleRecord) -> str:
    cached = record.run is None or record.run.options.get("resume_cache", True)
    if not cached:
        return "`inspect eval-retry LOG` runs it again from the start (`resume_cache` was off)."
    return (
        "`inspect eval-retry LOG` resumes it, replaying the finished calls from the cache "
        "and asking the failed one again."
    )


def _heading(sample: CrucibleSample) -> str:
    run = sample.record.run
    if run is None:
        return (
            f"# Crucible report: {sample.id}\n\nThe sample failed before it started: {sample.error}"
        )
    lines = [f"# Crucible report: {sample.id}", "", f"**Question:** {run.question}"]
    if run.question != run.question_original:
        lines.append(
            f"\n**Original wording** (debated in its neutral form): {run.question_original}"
        )
    lines += [
        "",
        f"- PRO: {run.pro_position}",
        f"- CON: {run.con_position}",
        f"- Context: {run.context or '(none)'}",
        f"- Topic file: `{Path(run.topic_file).name}` (sha256 {run.topic_sha256[:12]}), corpus "
        f"sha256 {run.corpus_sha256[:12]}",
        f"- Seed {run.seed} ({run.seed_source})",
    ]
    if sample.error:
        lines.append(f"\n**The debate did not finish:** {sample.error}")
    return "\n".join(lines)


def _verdict(sample: CrucibleSample, meta: dict[str, Any]) -> str:
    score = sample.score
    if score is None:
        return "## Verdict\n\nNot scored."
    if not isinstance(score.value, dict):
        reason = score.reason if isinstance(score.reason, str) else str(score.reason or "")
        return f"## Verdict\n\nUnscored: {reason or score.explanation}"
    value = score.value
    lines = ["## Verdict", "", f"**{meta.get('verdict', score.answer)}**", ""]
    lines.append(
        "RESOLVED needs a gap of side means of at least "
        f"{meta['options']['resolved_margin']:g}, CONTESTED_BUT_LEANING at least "
        f"{meta['options']['leaning_margin']:g} (claims scored 1-5 on six dimensions, "
        "each claim's weighted total is their weighted mean)."
    )
    lines.append(
        f"\nScored claims: PRO {int(value['pro_verified'])}, CON {int(value['con_verified'])}; "
        f"{_number(value['judges'])} valid readings, alpha {_number(value['judge_alpha'])}."
    )
    return "\n".join(lines)


def _number(value: Any) -> str:
    return "n/a" if isinstance(value, float) and math.isnan(value) else f"{value:g}"


def _claims(record: CrucibleRecord, meta: dict[str, Any]) -> str:
    table = claims_table(record, meta.get("claims", {}))
    return "## Claims (medians across judges)\n\n" + "\n".join(table)


def _evidence(record: CrucibleRecord) -> str:
    blocks = ["## Evidence and its verification"]
    for claim in record.claims:
        lines = [
            f"**{claim.id}** ({claim.side.upper()}, confidence {claim.confidence:g}): "
            f"{claim.claim}",
            "",
        ]
        lines += [
            f"- logic: {' -> '.join(claim.logic_chain)}",
            f"- stated vulnerability: {claim.vulnerability}",
        ]
        for item in claim.evidence:
            mark = "verified" if item.verified else f"NOT verified: {item.problem}"
            lines.append(
                f"- `{item.file}` lines {item.line_start}-{item.line_end}: "
                f'"{item.excerpt}" ({mark})'
            )
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _unverified(record: CrucibleRecord) -> str:
    lost = [c for c in record.claims if not c.verified]
    if not lost:
        return "## Unverified claims\n\nNone: every claim kept at least one verified excerpt."
    rows = ["| claim | side | why | text |", "|---|---|---|---|"]
    rows += [
        f"| {c.id} | {c.side.upper()} | {cell(c.failure or '')} | {cell(c.claim)} |" for c in lost
    ]
    intro = (
        "These claims lost every citation (cite-or-lose). They are kept in the record "
        "and took no part in the conflicts, the rounds or the scoring."
    )
    return "## Unverified claims\n\n" + intro + "\n\n" + "\n".join(rows)


def _conflict_list(record: CrucibleRecord) -> str:
    if record.skipped:
        return record.skipped
    if not conflicts_reached(record):
        last = f"after '{record.stage}'" if record.stage else "during its first stage"
        return f"Not reached: the debate stopped {last}, before the conflicts were sought."
    if not record.conflicts:
        return f"None identified: {record.conflicts_note or 'no reason recorded'}"
    return "\n".join(
        f"- **{c.id}** ({c.nature}) {', '.join(c.claims)}: {c.question} *Crux:* {c.crux}"
        for c in record.conflicts
    )


def _rounds(record: CrucibleRecord) -> str:
    if not record.reviews:
        return "## Rounds\n\nNo rounds were run."
    rows = [
        "| round | convergence | lexical similarity | steelman fidelity | conceded |",
        "|---|---|---|---|---|",
    ]
    for review in record.reviews:
        name = "swap" if review.kind == "swap" else str(review.round)
        grades = ", ".join(f"{g.turn}: {g.fidelity}/5" for g in review.steelman) or "-"
        rows.append(
            f"| {name} | {review.convergence:.2f} | {review.lexical:.2f} | {grades} | "
            f"{', '.join(review.conceded) or '-'} |"
        )
    stop = (
        f"\n\nThe judge found the sides converged after round {record.stop_round}: the "
        "debate stopped early."
        if record.stopped_early
        else ""
    )
    turns = "\n".join(
        f"- {t.id} {t.side.upper()} {t.kind}: {len(t.attacks)} attack(s), "
        f"{len(t.defends)} defence(s). {cell(t.speech, 300)}"
        for t in record.turns
    )
    return "## Rounds\n\n" + "\n".join(rows) + stop + "\n\n" + turns


def _neutralisation(record: CrucibleRecord) -> str:
    diagnosis = record.neutralization
    if diagnosis is None:
        return "## Topic neutralisation\n\nOff: the question was debated as written."
    rows = ["| dimension | score (0-3) | phrase | note |", "|---|---|---|---|"]
    rows += [
        f"| {name} | {d.score} | {cell(d.phrase)} | {cell(d.note)} |"
        for name, d in diagnosis.dimensions.items()
    ]
    return (
        f"## Topic neutralisation ({diagnosis.mode})\n\n"
        + "\n".join(rows)
        + f"\n\nNeutral wording: {diagnosis.neutral_question}\n\n{diagnosis.note}."
    )


def _judges(record: CrucibleRecord, meta: dict[str, Any]) -> str:
    run = record.run
    if run is None:
        return ""
    lines = ["## Judges", ""]
    for reading in meta.get("readings", []):
        state = "valid" if reading["valid"] else f"invalid ({reading.get('failure')})"
        rescore = reading.get("rescore")
        extra = ""
        if rescore:
            done = "replaced" if rescore["replaced"] else f"failed: {rescore['failure']}"
            extra = f"; rescored {', '.join(rescore['claims'])} ({done})"
        lines.append(f"- reading {reading['reading']}: {reading['model']}, {state}{extra}")
    trust = meta.get("trust") or {}
    lines.append(f"- trust: {trust.get('status', 'not recorded')}")
    audit = meta.get("audit") or {}
    if audit.get("ran"):
        lines.append(
            f"- meta-judge {audit.get('model')}: "
            f"{'consistent' if audit.get('consistent') else 'inconsistent'}; "
            f"{audit.get('reason') or audit.get('failure')}"
        )
    elif audit:
        lines.append(f"- meta-judge audit not run: {audit.get('why_not')}")
    lines += [f"- warning: {w}" for w in meta.get("warnings", [])]
    return "\n".join(lines)


def _limitations(sample: CrucibleSample, meta: dict[str, Any]) -> str:
    lines = ["## Limitations", "", *[f"- {text}" for text in LIMITS]]
    lines += [f"- {fact}" for fact in run_facts(sample, meta)]
    return "\n".join(lines)


def run_facts(sample: CrucibleSample, meta: dict[str, Any]) -> list[str]:
    """The facts of this run that limit what its verdict means."""
    record, facts = sample.record, []
    run = record.run
    if run is not None:
        files = sum(row["files"] for row in run.corpus.values())
        lines = sum(row["lines"] for row in run.corpus.values())
        facts.append(f"The corpus held {files} files, {lines} lines; nothing outside it was used.")
        facts += _model_facts(run.models)
    claims = record.claims
    lost = [c for c in claims if not c.verified]
    if claims:
        facts.append(
            f"{len(lost)} of {len(claims)} claims lost all their evidence and were not scored."
        )
    status = (meta.get("trust") or {}).get("status")
    if status and status != "trusted":
        facts.append(f"The judges are {status}: no validation record vouches for them.")
    facts += [f"Judge warning: {w}" for w in meta.get("warnings", [])]
    if record.stopped_early:
        facts.append(
            f"The debate stopped early after round {record.stop_round} (judged "
            "convergence); later rounds were not argued."
        )
    if (meta.get("audit") or {}).get("rescored"):
        facts.append("One judge reading was rescored on the meta-judge's request.")
    if record.neutralization is None:
        facts.append(
            "Topic neutralisation was off: the question's wording was not checked for bias."
        )
    if sample.replayed:
        facts.append(
            f"{sample.replayed} of {sample.calls} model calls were replayed from "
            "Inspect's cache (a resumed run), not generated again."
        )
    return facts


def _model_facts(models: dict[str, Any]) -> list[str]:
    facts = []
    debaters = {str(models[s]["model"]) for s in SIDES}
    judges = [str(j["model"]) for j in models.get("judges", [])]
    if len(debaters) == 1:
        facts.append(f"Both sides were argued by one model ({next(iter(debaters))}).")
    shared = sorted(set(judges) & debaters)
    if shared:
        facts.append(f"A judge is also a debater's model ({', '.join(shared)}).")
    if len(judges) == 1:
        facts.append(
            f"Every reading came from one judge model ({judges[0]}): the panel's "
            "readings differ by seed and anonymisation, not by model."
        )
    return facts


def conflicts_report(sample: CrucibleSample) -> str:
    record = sample.record
    meta = sample.score.metadata or {} if sample.score else {}
    scored = meta.get("claims", {})
    lines = [f"# Conflicts: {sample.id}", ""]
    if record.run is not None:
        lines += [f"**Question:** {record.run.question}", ""]
    if not record.conflicts:
        lines.append(_conflict_list(record))
        return "\n".join(lines) + "\n"
    for conflict in record.conflicts:
        lines += [
            f"## {conflict.id}: {conflict.question}",
            "",
            f"Nature: {conflict.nature}. Crux: {conflict.crux}",
            "",
            "| claim | side | weighted total | claim text |",
            "|---|---|---|---|",
        ]
        for claim_id in conflict.claims:
            claim = record.claim(claim_id)
            lines.append(_conflict_row(claim_id, claim, scored.get(claim_id)))
        lines.append("")
    return "\n".join(lines)


def _conflict_row(claim_id: str, claim: Claim | None, scored: dict[str, Any] | None) -> str:
    total = f"{scored['weighted_total']:.2f}" if scored else "-"
    side = claim.side.upper() if claim else "?"
    return f"| {claim_id} | {side} | {total} | {cell(claim.claim if claim else '')} |"
