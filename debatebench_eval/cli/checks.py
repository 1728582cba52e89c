"""`debatebench-eval trust` and `report` for the debate checks' logs.

`main` hands a log here when its task is `fact_check_validation` or
`judge_sensitivity`; a `judge_validation` log keeps its own path.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from debatebench_eval.core.errors import print_error
from debatebench_eval.validation.check_reader import check_of


def is_check_log(log: str) -> bool:
    return check_of(log) is not None


def run_trust(args: argparse.Namespace) -> int:
    from debatebench_eval.trust.check_records import HEADLINE, save_check_record
    from debatebench_eval.trust.records import user_trust_dir
    from debatebench_eval.validation.check_reader import check_record
    from debatebench_eval.validation.log_reader import NotAValidationLog

    try:
        record = check_record(args.log)
    except NotAValidationLog as exc:
        print_error("trust", exc)
        return 2
    path = save_check_record(record, Path(args.out) if args.out else user_trust_dir())
    judge, figures = record.judge, record.figures
    headline = HEADLINE[record.check]
    where = judge.base_url or judge.provider
    print(f"{record.check}: judge {judge.provider}/{judge.model} at {where}")
    print(f"fingerprint: {judge.fingerprint or 'none reported by the server'}")
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
    if not any(p.suffix == ".png" for p in written):
        print("no plot: install the 'plots' extra (pip install 'debatebench-eval[plots]')")
    return 0
