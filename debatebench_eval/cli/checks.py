"""`debatebench-eval trust` and `report` for the debate checks' logs, and the option
every command that records a judge takes: `--judge-fingerprint`.

`main` hands a log here when its task is `fact_check_validation` or
`judge_sensitivity`; a `judge_validation` log keeps its own path.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from debatebench_eval.core.errors import ConfigError, print_error
from debatebench_eval.trust.check_records import CheckRecord
from debatebench_eval.trust.records import NO_FINGERPRINT, TrustRecord, with_fingerprint

Record = TypeVar("Record", TrustRecord, CheckRecord)
FINGERPRINT_HELP = (
    "the judge model's fingerprint where its server reports none (llama-cpp-python's): "
    "its model file's sha256 (`sha256sum FILE`), so its record can be matched; runs get "
    "it from DEBATEBENCH_JUDGE_FINGERPRINT"
)


def add_fingerprint_option(parser: argparse.ArgumentParser) -> None:
    """`--judge-fingerprint`, on each command that writes a judge's record."""
    parser.add_argument("--judge-fingerprint", metavar="FINGERPRINT", help=FINGERPRINT_HELP)


def with_given_fingerprint(record: Record, args: argparse.Namespace) -> Record:
    """The record, its judge given the command's `--judge-fingerprint` (ConfigError when
    it cannot take it)."""
    given = getattr(args, "judge_fingerprint", None)
    return replace(record, judge=with_fingerprint(record.judge, given))


def run_trust(args: argparse.Namespace) -> int:
    from debatebench_eval.trust.check_records import HEADLINE, save_check_record
    from debatebench_eval.trust.records import user_trust_dir
    from debatebench_eval.validation.check_reader import check_record
    from debatebench_eval.validation.log_reader import NotAValidationLog

    try:
        record = with_given_fingerprint(check_record(args.log), args)
    except (NotAValidationLog, ConfigError) as exc:
        print_error("trust", exc)
        return 2
    path = save_check_record(record, Path(args.out) if args.out else user_trust_dir())
    judge, figures = record.judge, record.figures
    headline = HEADLINE[record.check]
    where = judge.base_url or judge.provider
    print(f"{record.check}: judge {judge.provider}/{judge.model} at {where}")
    print(f"fingerprint: {judge.fingerprint or NO_FINGERPRINT}")
    low, high = figures.get(f"{headline}_low"), figures.get(f"{headline}_high")
    shown = ", ".join(f"{k} {_show(v)}" for k, v in figures.items() if not k.startswith(headline))
    print(
        f"{headline} {_show(figures.get(headline))} (95% CI {_show(low)} to {_show(high)}); {shown}"
    )
    print(f"{record.n_scored} of {record.n} judged")
    print("PASSED" if record.passed else "NOT PASSED: " + "; ".join(record.reasons))
    print(f"record: {path}")
    return 0 if record.passed else 1


def _show(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.3f}"


def run_report(args: argparse.Namespace) -> int:
    from debatebench_eval.core.log_files import log_file
    from debatebench_eval.validation.check_report import write_check_report
    from debatebench_eval.validation.log_reader import NotAValidationLog

    try:
        written = write_check_report(log_file(args.log), Path(args.out))
    except NotAValidationLog as exc:
        print_error("report", exc)
        return 2
    for path in written:
        print(path)
    return 0
