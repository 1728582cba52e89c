"""The `debatebench-eval` command: the project's own commands beside Inspect's.

`inspect list tasks` reads files, not installed registries, so this command
lists what the package registers and how to call it.
"""

from __future__ import annotations

import argparse
import inspect
import shlex
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from debatebench_eval._registry import ALIAS_PREFIX, SCORERS, SOLVERS, TASKS
from debatebench_eval.cli import deliberation, surface
from debatebench_eval.cli.tournament import add_tournament_parser
from debatebench_eval.core._inspect import registry_info
from debatebench_eval.core.errors import print_error


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
         "solvers (inspect eval TASK --solver NAME; options with -S key=value):",
         *rows(SOLVERS), "",
         "Each is also registered as debatebench_eval/NAME.",
         "Task options (-T) and scorer options: debatebench-eval list"]
    )  # fmt: skip


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="debatebench-eval",
        description="Structured adversarial debates as an Inspect AI evaluation.",
        epilog=_listing(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    listing = commands.add_parser("list", help="list tasks, scorers and solvers with their options")
    listing.set_defaults(run=_run_list)
    export = commands.add_parser(
        "export",
        help="write a log's debates as debatebench transcripts (or, with --format, its "
        "deliberations as heurema or ar-debate results)",
    )
    export.add_argument("log", help="an Inspect log file (.eval or .json)")
    export.add_argument(
        "-o",
        "--out",
        help="output folder (default ./transcripts; heurema: ./heurema; ar-debate: .)",
    )
    export.add_argument(
        "--format", choices=deliberation.EXPORT_FORMATS, default="debatebench",
        help="debatebench transcripts (default), or a deliberation's heurema / ar-debate result",
    )  # fmt: skip
    export.set_defaults(run=_run_export)
    trust = commands.add_parser(
        "trust", help="record a judge's validation or check result from its log"
    )
    trust.add_argument(
        "log",
        help="a debate, judge, crucible, oversight, judge_validation, fact_check_validation or "
        "judge_sensitivity log",
    )
    trust.add_argument("--out", help="folder for the record (default: the user trust folder)")
    from debatebench_eval.trust.records import MIN_PARSE_RATE, MIN_SCORED, MIN_TAU_C

    trust.add_argument("--min-tau-c", type=float, default=MIN_TAU_C, help=f"default {MIN_TAU_C}")
    trust.add_argument(
        "--min-parse-rate", type=float, default=MIN_PARSE_RATE, help=f"default {MIN_PARSE_RATE}"
    )
    trust.add_argument("--min-scored", type=int, default=MIN_SCORED, help=f"default {MIN_SCORED}")
    trust.set_defaults(run=_run_trust)
    report = commands.add_parser(
        "report",
        help="every figure of a debate, judge, crucible or oversight log (Markdown), or a judge "
        "validation's or check's tables (Markdown) and plot (PNG)",
    )
    report.add_argument(
        "log",
        help="a debate, judge, crucible, oversight, judge_validation, fact_check_validation or "
        "judge_sensitivity log",
    )
    report.add_argument("-o", "--out", default="report", help="output folder (default ./report)")
    report.set_defaults(run=_run_report)
    index = commands.add_parser(
        "index", help="build (or check) the retrieval index of an evidence pool ahead of a run"
    )
    index.add_argument("pool", help="a JSONL pool file")
    index.add_argument("--corpus", action="store_true", help="a team corpus (rows without 'side')")
    index.set_defaults(run=_run_index)
    quick = commands.add_parser(
        "quickstart",
        help="run one real debate on the embedded SmolLM2 model (needs the 'embedded' extra)",
    )
    quick.add_argument(
        "--log-dir", default="logs", help="where Inspect writes the log (default ./logs)"
    )
    quick.set_defaults(run=_run_quickstart)
    add_tournament_parser(commands)
    from debatebench_eval.truth_crucible.commands import add_commands as add_crucible_commands

    add_crucible_commands(commands)
    from debatebench_eval.cli.oversight import add_commands as add_oversight_commands

    add_oversight_commands(commands)
    from debatebench_eval.cli.agreement import add_commands as add_agreement_commands

    add_agreement_commands(commands)
    deliberation.register(commands)
    from debatebench_eval.cli.annotate import add_commands as add_annotate_command

    add_annotate_command(commands)
    return parser


def command_parser() -> argparse.ArgumentParser:
    """The command's parser, for the generated reference and the docs' command check."""
    return _parser()


def _print_flat(item: surface.Registered) -> None:
    """The flat groups' keys it reads, each documented once on its group."""
    for option in item.run_options():
        line = f"{option.name}: {option.doc}"
        print(textwrap.fill(line, 88, initial_indent="        ", subsequent_indent="            "))


def _run_list(args: argparse.Namespace) -> int:
    print(_listing().rsplit("\n\n", 1)[0])
    for item in surface.registered():
        options = surface.args_section(item.doc)
        if options or item.run_options():
            print(f"\n{item.name} options:")
            print(options)
            _print_flat(item)
    # Declared once, on the group: every task and scorer that judges takes these.
    for group, users in surface.JUDGING_GROUPS:
        print(f"\njudging options of {users} (-T key=value, -S for a scorer):\n")
        for line in group.options_doc():
            print(textwrap.fill(line, 88, initial_indent="    ", subsequent_indent="        "))
    return 0


def _run_export(args: argparse.Namespace) -> int:
    from debatebench_eval.core.log_files import log_file
    from debatebench_eval.interop.export import export_log

    log = log_file(args.log)
    if not log.is_file():
        print_error("export", f"log file not found: {log}")
        return 2
    if args.format != "debatebench":
        return deliberation.run_export(args, log)
    written, skipped = export_log(log, Path(args.out or "transcripts"))
    for path in written:
        print(path)
    for reason in skipped:
        print(f"skipped {reason}", file=sys.stderr)
    return 0 if written or not skipped else 1


def _run_index(args: argparse.Namespace) -> int:
    import time

    from debatebench_eval.core.errors import ConfigError
    from debatebench_eval.prep.index import PoolIndex

    start = time.perf_counter()
    try:
        index = PoolIndex.open(Path(args.pool), shared=not args.corpus)
    except ConfigError as exc:
        print_error("index", exc)
        return 2
    print(f"{len(index.offsets):,} rows, {len(index.topic_ids):,} topics, "
          f"ready in {time.perf_counter() - start:.1f} s")  # fmt: skip
    print(f"index: {index.folder}")
    return 0


def _run_trust(args: argparse.Namespace) -> int:
    from debatebench_eval.cli import checks

    if checks.is_check_log(args.log):  # fact_check_validation or judge_sensitivity
        return checks.run_trust(args)
    from debatebench_eval.trust.records import (
        Thresholds,
        save_record,
        summary_lines,
        user_trust_dir,
    )
    from debatebench_eval.validation.log_reader import NotAValidationLog, trust_record

    limits = Thresholds(args.min_tau_c, args.min_parse_rate, args.min_scored)
    try:
        record = trust_record(args.log, limits)  # a path or a file: URI
    except NotAValidationLog as exc:
        print_error("trust", exc)
        return 2
    path = save_record(record, Path(args.out) if args.out else user_trust_dir())
    print("\n".join(summary_lines(record)))
    print(f"record: {path}")
    return 0 if record.trusted else 1


def _run_report(args: argparse.Namespace) -> int:
    from debatebench_eval.cli import checks

    if checks.is_check_log(args.log):
        return checks.run_report(args)
    from inspect_ai.log import read_eval_log

    from debatebench_eval.core.log_files import log_file
    from debatebench_eval.debating.log_figures import is_debate_log, write_debate_report
    from debatebench_eval.known_answer.report import is_oversight_log, write_oversight_report

    header = read_eval_log(str(log_file(args.log)), header_only=True)
    writers = ((is_debate_log, write_debate_report), (is_oversight_log, write_oversight_report))
    for is_kind, write in writers:
        if is_kind(header):
            for path in write(log_file(args.log), Path(args.out)):
                print(path)
            return 0
    from debatebench_eval.validation.log_reader import NotAValidationLog
    from debatebench_eval.validation.report import write_report

    try:
        written = write_report(log_file(args.log), Path(args.out))
    except NotAValidationLog as exc:
        print_error("report", exc)
        return 2
    for path in written:
        print(path)
    return 0


# Budgets and phases that fit a 135M model's 4096-token context with room to
# spare, the judge's prompt and reply included; each turn is still counted
# against that context before its call. The judge's JSON mode is left to
# `auto`, which finds llama-cpp-python's server and sends json_object with the
# schema (it refuses json_schema), enforced by grammar: even a 135M judge
# replies well formed.
QUICKSTART_ARGS = [
    "--limit", "1", "-T", "format=lightning", "-T", "budget=160", "--seed", "42",
    "-T", "judge_budget=1024",
    "-T", "context_window=4096",  # embedded.CONTEXT_TOKENS, without importing it here
]  # fmt: skip


def _run_quickstart(args: argparse.Namespace) -> int:
    import os
    import subprocess

    from debatebench_eval.cli.embedded import MODEL_ALIAS, embedded_server
    from debatebench_eval.core.errors import ServerError

    eval_args = [
        "eval", f"{ALIAS_PREFIX}/debate", "--model", f"ollama/{MODEL_ALIAS}",
        "--log-dir", args.log_dir, *QUICKSTART_ARGS,
    ]  # fmt: skip
    before = _log_names(args.log_dir)
    try:
        with embedded_server() as base_url:
            print(f"embedded model server at {base_url}; running:")
            print(f"  OLLAMA_BASE_URL={base_url} inspect {shlex.join(eval_args)}", flush=True)
            env = {**os.environ, "OLLAMA_BASE_URL": base_url}
            inspect = str(Path(sys.executable).parent / "inspect")
            code = subprocess.run([inspect, *eval_args], env=env).returncode
    except ServerError as exc:
        print_error("quickstart", exc)
        return 2
    if code == 0:
        print(f"done: 'inspect view --log-dir {args.log_dir}' shows the debate")
    print(_again(eval_args))
    if code == 0:
        return _judged(args.log_dir, before)
    return code


def _log_names(log_dir: str) -> set[str]:
    from inspect_ai.log import list_eval_logs

    return {info.name for info in list_eval_logs(log_dir)} if Path(log_dir).is_dir() else set()


def _judged(log_dir: str, before: set[str]) -> int:
    """1, saying so last, when the run's debate was not scored: a debate that no judge
    scored is not a quickstart that worked."""
    from debatebench_eval.judging.run_summary import nothing_scored_in

    nothing = nothing_scored_in(sorted(_log_names(log_dir) - before))
    if nothing is None:
        return 0
    print(f"debatebench-eval quickstart: {nothing}; the debate itself is in the log")
    return 1


def _again(eval_args: list[str]) -> str:
    """How to run the same debate by hand (the quickstart's server stops with it)."""
    from debatebench_eval.cli.embedded import server_arguments

    port = 8080
    return (
        "to run it again yourself, start the same server in one shell:\n"
        f"  python {shlex.join(server_arguments(port))}\n"
        "and in another:\n"
        f"  OLLAMA_BASE_URL=http://127.0.0.1:{port}/v1 inspect {shlex.join(eval_args)}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help()
        return 0
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
