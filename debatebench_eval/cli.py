"""The `debatebench-eval` command: the project's own commands beside Inspect's.

`inspect list tasks` reads files, not installed registries, so this command
lists what the package registers and how to call it.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ._registry import ALIAS_PREFIX, SCORERS, TASKS
from ._inspect import registry_info


def _listing() -> str:
    def rows(objs: Sequence[Callable[..., Any]]) -> list[str]:
        lines = []
        for obj in objs:
            short = registry_info(obj).name.split("/", 1)[-1]
            summary = (inspect.getdoc(obj) or "").splitlines()[0]
            lines.append(f"  {ALIAS_PREFIX}/{short:<18} {summary}")
        return lines

    return "\n".join(
        ["tasks (inspect eval NAME; options with -T key=value):", *rows(TASKS), "",
         "scorers (inspect score LOG --scorer NAME):", *rows(SCORERS), "",
         f"Each is also registered as debatebench_eval/NAME. Task options: inspect eval {ALIAS_PREFIX}/debate --help is not"
         " available in Inspect, so see README or: debatebench-eval list"]
    )  # fmt: skip


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="debatebench-eval",
        description="Structured adversarial debates as an Inspect AI evaluation.",
        epilog=_listing(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    listing = commands.add_parser("list", help="list tasks and scorers with their options")
    listing.set_defaults(run=_run_list)
    export = commands.add_parser("export", help="write each debate of a log as a debatebench transcript")
    export.add_argument("log", help="an Inspect log file (.eval or .json)")
    export.add_argument("-o", "--out", default="transcripts", help="output folder (default ./transcripts)")
    export.set_defaults(run=_run_export)
    return parser


def _run_list(args: argparse.Namespace) -> int:
    print(_listing().rsplit("\n\n", 1)[0])
    for obj in (*TASKS, *SCORERS):
        doc = inspect.getdoc(obj) or ""
        if "Args:" in doc:
            print(f"\n{ALIAS_PREFIX}/{registry_info(obj).name.split('/', 1)[-1]} options:")
            print(doc.split("Args:", 1)[1].rstrip())
    return 0


def _run_export(args: argparse.Namespace) -> int:
    from .export import export_log

    log = Path(args.log)
    if not log.is_file():
        print(f"debatebench-eval export: log file not found: {log}", file=sys.stderr)
        return 2
    written, skipped = export_log(log, Path(args.out))
    for path in written:
        print(path)
    for reason in skipped:
        print(f"skipped {reason}", file=sys.stderr)
    return 0 if written or not skipped else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help()
        return 0
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
