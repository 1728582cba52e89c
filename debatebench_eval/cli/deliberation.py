"""The workspace commands (`init`, `new`) and the deliberation exports of
`export --format heurema|ar-debate`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from debatebench_eval.core.errors import ConfigError, print_error

EXPORT_FORMATS = ("debatebench", "heurema", "ar-debate")
# Where each format goes when -o is not given: ar-debate's skill writes
# analysis/debate_logs/ inside its workspace, here the current folder.
DEFAULT_OUT = {"debatebench": "transcripts", "heurema": "heurema", "ar-debate": "."}


def add_commands(commands: Any) -> None:
    """Add `init` and `new` to the command's subparsers."""
    init = commands.add_parser(
        "init",
        help="make a workspace here: personas/, tables/, teams/, motions/ (keeps existing files)",
    )
    init.set_defaults(run=run_init)
    new = commands.add_parser("new", help="add a persona skeleton to the workspace")
    new.add_argument("name", help="name or namespace/name, e.g. reviewers/security")
    new.add_argument("--role", default="debater", help="debater (default) or synthesizer")
    new.set_defaults(run=run_new)


def run_init(args: argparse.Namespace) -> int:
    from debatebench_eval.protocols.scaffold import init_workspace

    written = init_workspace(Path.cwd())
    for entry in written:
        print(entry.line())
    kept = sum(not entry.created for entry in written)
    print(f"{len(written) - kept} created, {kept} kept: the workspace is {Path.cwd()}")
    return 0


def run_new(args: argparse.Namespace) -> int:
    from debatebench_eval.protocols.scaffold import new_persona

    try:
        path = new_persona(Path.cwd(), args.name, args.role)
    except ConfigError as exc:
        print_error("new", exc)
        return 2
    print(f"created {path}")
    return 0


def run_export(args: argparse.Namespace, log: Path) -> int:
    """heurema's or ar-debate's result files for each deliberation in the log."""
    from debatebench_eval.protocols.export import export_deliberations

    written, skipped = export_deliberations(
        log, Path(args.out or DEFAULT_OUT[args.format]), args.format
    )
    for path in written:
        print(path)
    for reason in skipped:
        print(f"skipped {reason}", file=sys.stderr)
    return 0 if written or not skipped else 1
