"""`debatebench-eval crucible report|graph LOG`: the crucible's own commands."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from debatebench_eval.core.errors import print_error

DEFAULT_OUT = "crucible"


def add_commands(commands: Any) -> None:
    """Add `crucible report` and `crucible graph` to the command line's subcommands."""
    crucible = commands.add_parser(
        "crucible", help="a crucible log's report (Markdown) or argument graph (GraphML, JSON)"
    )
    actions = crucible.add_subparsers(dest="action", metavar="ACTION", required=True)
    report = actions.add_parser(
        "report", help="final_report.md (with its limitations) and conflicts.md per topic"
    )
    graph = actions.add_parser(
        "graph", help="argument_graph.graphml and argument_graph.json per topic"
    )
    for parser, run in ((report, _run_report), (graph, _run_graph)):
        parser.add_argument("log", help="a crucible log (.eval or .json)")
        parser.add_argument(
            "-o",
            "--out",
            default=DEFAULT_OUT,
            help=f"output folder, one subfolder per topic (default ./{DEFAULT_OUT})",
        )
        parser.set_defaults(run=run)


def _run_report(args: argparse.Namespace) -> int:
    from debatebench_eval.truth_crucible.report import write_reports

    return _write("report", lambda: write_reports(args.log, Path(args.out)))


def _run_graph(args: argparse.Namespace) -> int:
    from debatebench_eval.truth_crucible.graph import write_graphs

    return _write("graph", lambda: write_graphs(args.log, Path(args.out)))


def _write(action: str, write: Any) -> int:
    from debatebench_eval.truth_crucible.log_reader import NotACrucibleLog

    try:
        written = write()
    except NotACrucibleLog as exc:
        print_error(f"crucible {action}", exc)
        return 2
    for path in written:
        print(path)
    return 0
