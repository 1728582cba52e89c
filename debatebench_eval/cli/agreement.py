"""`debatebench-eval agreement LOG_DIR LABELS...`: how far the judge agrees with people.

Reads the folder's debates as items (`annotation.items`) and the labels files the
labelling page exported (`annotation.labels`), each row's opaque id looked up in
the page's key (`annotation.page_key`: named with --key, or else every key file
beside the labels files), matches them, prints every figure
with its interval (`annotation.agreement`), lists each label that could not be used
by file and line, and writes the judge's human-agreement trust record (the check
the gate's `require_human_kappa` reads).

Exit codes: 0 figures printed (whatever they say); 1 no label could be used (each
listed, and why); 2 bad input (a malformed row, an id on no page whose key was read,
a folder that is not one): nothing written.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from debatebench_eval.core.errors import ConfigError, print_error

_LISTED = 20  # unused labels printed; the rest counted (all are in --json)


def add_commands(commands: Any) -> None:
    parser = commands.add_parser(
        "agreement",
        help="how far a folder's judge agrees with people's labels of its debates (kappa, "
        "biases, tau-c), written into the judge's trust record",
        description="Match the labels (JSONL files the labelling page exported) to LOG_DIR's "
        "debates and print the judge-human figures with 95% intervals: raw agreement and "
        "Cohen's kappa on the winner, the judge's side and position bias against the "
        "humans, Kendall's tau-c on the dimension scores where labelled, Krippendorff's "
        "alpha between annotators, and on known-answer debates the humans' accuracy "
        "beside the judge's. Each label's debate is looked up by its id on the page in the "
        "page's key (PAGE.key.json, written by annotate beside the page). A label whose "
        "debate changed, or is not in the folder, is listed by file and line and not used.",
    )
    parser.add_argument("log_dir", metavar="LOG_DIR", help="the folder of the labelled debates")
    parser.add_argument("labels", nargs="+", metavar="LABELS", help="labels files (JSONL)")
    parser.add_argument("--key", action="append", metavar="KEY",
                        help="a page's key file (PAGE.key.json), repeatable (default: every "
                        "*.key.json beside the labels files)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--out", help="folder for the trust record (default: the user trust "
                        "folder, where the gate reads it)")  # fmt: skip
    parser.add_argument("--no-record", action="store_true", help="write no trust record")
    from debatebench_eval.cli.checks import add_fingerprint_option

    add_fingerprint_option(parser)
    parser.add_argument("--resamples", type=int, default=2000,
                        help="bootstrap resamples of each interval (2000)")  # fmt: skip
    parser.set_defaults(run=run_agreement)


def run_agreement(args: argparse.Namespace) -> int:
    from debatebench_eval.annotation.agreement import agreement_figures
    from debatebench_eval.annotation.items import read_folder
    from debatebench_eval.annotation.judge_readings import judge_readings
    from debatebench_eval.annotation.labels import match_labels, read_labels

    try:
        if args.resamples < 100:
            raise ConfigError("--resamples", f"got {args.resamples}", "at least 100")
        folder = read_folder(args.log_dir)
        labels = read_labels(args.labels, args.key)
        matched = match_labels(labels, folder.items)
    except ConfigError as exc:
        print_error("agreement", exc)
        return 2
    used = [item for _, item in matched.matched]
    figures = agreement_figures(
        matched, judge_readings(args.log_dir, used), resamples=args.resamples
    )
    figures["folder_notes"] = folder.notes
    if not matched.matched:
        return _nothing(args, figures, len(folder.items))
    try:
        record = None if args.no_record else _record(args, figures, matched)
    except ConfigError as exc:  # a --judge-fingerprint the judge cannot take
        print_error("agreement", exc)
        return 2
    if args.json:
        print(json.dumps({**figures, "record": record}, indent=2))
    else:
        print("\n".join(summary_lines(args, figures, record)))
    return 0


def _nothing(args: argparse.Namespace, figures: dict[str, Any], items: int) -> int:
    counts = figures["counts"]
    why = (
        f"none of the {counts['labels']} label(s) can be used: {counts['changed']} are for "
        f"debates that changed since, {counts['unknown']} for debates not in {args.log_dir} "
        f"({items} labellable debates there); the labels are for other debates, or the "
        "debates were re-run: label this folder's (`debatebench-eval annotate "
        f"{args.log_dir}`)"
    )
    if args.json:
        print(json.dumps({**figures, "record": None, "error": why}, indent=2))
    else:
        for line in figures["not_used"][:_LISTED]:
            print(line, file=sys.stderr)
    print(f"debatebench-eval agreement: {why}", file=sys.stderr)
    return 1


def _record(args: argparse.Namespace, figures: dict[str, Any], matched: Any) -> dict[str, Any]:
    """Write the judge's human-agreement record (one judge only: a record describes one)."""
    from debatebench_eval.trust.check_records import HUMAN, save_check_record

    judges = figures["judges"]
    if len(judges) != 1 or figures["winner"] is None:
        why = (
            f"judged by {len(judges)} judges ({', '.join(judges)}); a record describes one"
            if len(judges) > 1
            else "no rubric debate with a judge's verdict was labelled"
            if figures["winner"] is None
            else "the logs name no judge model for the labelled debates"
        )
        return {"written": None, "why": why}  # fmt: skip
    from debatebench_eval.cli.checks import with_given_fingerprint

    record = with_given_fingerprint(human_record(judges[0], figures, matched, args.log_dir), args)
    path = save_check_record(record, Path(args.out) if args.out else None)
    assert record.check == HUMAN
    return {"written": str(path), "passed": record.passed, "reasons": record.reasons,
            "judge": record.judge.__dict__}  # fmt: skip


def human_record(judge: str, figures: dict[str, Any], matched: Any, log_dir: str) -> Any:
    """The trust record of this judge's agreement with these labels."""
    from debatebench_eval.trust.check_records import (
        DEFAULT_LIMITS,
        HUMAN,
        CheckRecord,
        check_verdict,
    )
    from debatebench_eval.trust.records import now

    winner = figures["winner"]
    flat: dict[str, float | None] = {}
    for name in ("kappa", "agreement", "side_bias", "position_bias"):
        found = winner.get(name) or {}
        flat[name] = found.get("value")
        flat[f"{name}_low"], flat[f"{name}_high"] = found.get("low"), found.get("high")
    counts = figures["counts"]
    passed, reasons = check_verdict(HUMAN, flat, complete=True)
    return CheckRecord(
        check=HUMAN,
        judge=asyncio.run(_identity(judge)),
        data_sha256=_labels_digest(matched),
        complete=True,
        n=counts["matched"],
        n_scored=counts["rubric_pairs"],
        figures=flat,
        generate_config={},
        log=Path(log_dir).name,
        date=now(),
        passed=passed,
        reasons=reasons,
        thresholds=dict(DEFAULT_LIMITS[HUMAN]),
    )


async def _identity(judge: str) -> Any:
    """The judge as the gate will know it: asked of its server now (a local server that
    reports no fingerprint gives a record no run can match, as for every check)."""
    from inspect_ai.model import get_model

    from debatebench_eval.trust.records import judge_identity

    return await judge_identity(get_model(judge, memoize=False))


def _labels_digest(matched: Any) -> str:
    """sha256 over the labels used (debate, digest, annotator, answer), sorted."""
    rows = sorted(
        json.dumps([lb.debate.name, lb.debate.digest, lb.annotator, lb.winner, lb.answer])
        for lb, _ in matched.matched
    )
    return hashlib.sha256("\n".join(rows).encode("utf-8")).hexdigest()


def _show(found: dict[str, Any] | None, signed: bool = False) -> str:
    if found is None:
        return "undefined"
    spec = "+.3f" if signed else ".3f"
    value = format(found["value"], spec)
    if found.get("low") is None or found.get("high") is None:
        return f"{value} (no interval: too few debates), n {found['n']}"
    return f"{value} (95% CI {found['low']:{spec}} to {found['high']:{spec}}), n {found['n']}"


def summary_lines(
    args: argparse.Namespace, figures: dict[str, Any], record: dict[str, Any] | None
) -> list[str]:
    """What the command prints: every figure with its interval and n, then what was
    not used, then the record."""
    c = figures["counts"]
    lines = [
        f"{c['labels']} label(s) from {len(args.labels)} file(s): {c['matched']} matched "
        f"({c['debates']} debates, {c['annotators']} annotator(s)), {c['changed']} for "
        f"changed debates, {c['unknown']} for debates not in {args.log_dir}",
        f"judge: {', '.join(figures['judges']) or 'none recorded'}",
    ]
    lines += _winner_lines(figures["winner"])
    if figures["dimensions"]:
        dims = figures["dimensions"]
        lines.append("dimension scores, Kendall's tau-c (judge's share of the maximum against "
                     "the human's 1-10):")  # fmt: skip
        lines += [f"  {name}: {_show(found, True)}" for name, found in dims.items()]
    lines += _human_lines(figures["humans"], figures["known_answer"])
    unused = figures["not_used"] + [f"{item}: the judge gave no verdict; not used"
                                    for item in figures["no_judge_verdict"]]  # fmt: skip
    if unused:
        lines.append(f"not used ({len(unused)}):")
        lines += [f"  {line}" for line in unused[:_LISTED]]
        if len(unused) > _LISTED:
            lines.append(f"  ... and {len(unused) - _LISTED} more (--json lists all)")
    lines += [f"note: {note}" for note in figures["folder_notes"]]
    lines += _record_lines(record)
    return lines


def _winner_lines(winner: dict[str, Any] | None) -> list[str]:
    if winner is None:
        return ["winner: no labelled rubric debate has a judge's verdict"]
    return [
        "winner (judge against each human label; intervals over debates):",
        f"  raw agreement {_show(winner['agreement'])}",
        f"  Cohen's kappa {_show(winner['kappa'], True)}",
        f"  side bias, judge's pro rate minus the humans' {_show(winner['side_bias'], True)}",
        "  position bias, judge's rate for the side that spoke first minus the humans' "
        f"{_show(winner['position_bias'], True)}",
        "  humans' share of picks for the side shown as A "
        f"{_show(winner['humans_pick_shown_first'])}",
    ]


def _human_lines(humans: dict[str, Any] | None, known: dict[str, Any] | None) -> list[str]:
    lines = []
    if humans:
        for key, what in (("winner_alpha", "winner"), ("answer_alpha", "answer")):
            if humans.get(key):
                lines.append(f"between annotators, Krippendorff's alpha on the {what}: "
                             f"{_show(humans[key], True)} debates")  # fmt: skip
    else:
        lines.append("between annotators: no debate was labelled by two or more")
    if known:
        lines += [
            "known-answer debates:",
            f"  humans right {_show(known['humans_accuracy'])}",
            f"  judge right on the same debates {_show(known['judge_accuracy'])}",
            f"  humans minus judge {_show(known['humans_minus_judge'], True)}",
        ]
    return lines


def _record_lines(record: dict[str, Any] | None) -> list[str]:
    if record is None:
        return ["trust record: not written (--no-record)"]
    if record["written"] is None:
        return [f"trust record: not written: {record['why']}"]
    verdict = "PASSED" if record["passed"] else "NOT PASSED: " + "; ".join(record["reasons"])
    judge = record["judge"]
    lines = [f"human agreement {verdict}", f"record: {record['written']}"]
    if judge.get("base_url") and not judge.get("fingerprint"):
        lines.append(
            f"note: the judge's server ({judge['base_url']}) reports no model fingerprint, so "
            "no run can match this record (require_human_kappa will refuse the judge): give "
            "it one with --judge-fingerprint, and DEBATEBENCH_JUDGE_FINGERPRINT for the runs"
        )
    return lines
