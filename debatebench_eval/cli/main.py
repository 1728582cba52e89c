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
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from debatebench_eval._registry import ALIAS_PREFIX, SCORERS, SOLVERS, TASKS
from debatebench_eval.cli import agreement, annotate, checks, deliberation, oversight, run, surface
from debatebench_eval.cli.tournament import add_tournament_parser
from debatebench_eval.core._inspect import registry_info
from debatebench_eval.core.errors import print_error
from debatebench_eval.core.log_files import log_file
from debatebench_eval.core.log_folder import task_name
from debatebench_eval.truth_crucible import commands as crucible_commands

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog


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


# The kinds of log each command reads: its help and its refusal of another log name them.
TRUST_LOGS = ("judge_validation", "fact_check_validation", "judge_sensitivity")
REPORT_LOGS = ("debate", "judge", "crucible", "oversight", *TRUST_LOGS)


def _kinds(tasks: Sequence[str]) -> str:
    return f"a {', '.join(tasks[:-1])} or {tasks[-1]} log"


def _add_list(commands: Any) -> None:
    listing = commands.add_parser("list", help="list tasks, scorers and solvers with their options")
    listing.set_defaults(run=_run_list)


def _add_export(commands: Any) -> None:
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


def _add_trust(commands: Any) -> None:
    from debatebench_eval.trust.records import MIN_PARSE_RATE, MIN_SCORED, MIN_TAU_C

    trust = commands.add_parser(
        "trust", help="record a judge's validation or check result from its log"
    )
    trust.add_argument(
        "log",
        help=f"{_kinds(TRUST_LOGS)} (a judge against people's labels: the agreement command)",
    )
    trust.add_argument("--out", help="folder for the record (default: the user trust folder)")
    trust.add_argument("--min-tau-c", type=float, default=MIN_TAU_C, help=f"default {MIN_TAU_C}")
    trust.add_argument(
        "--min-parse-rate", type=float, default=MIN_PARSE_RATE, help=f"default {MIN_PARSE_RATE}"
    )
    trust.add_argument("--min-scored", type=int, default=MIN_SCORED, help=f"default {MIN_SCORED}")
    checks.add_fingerprint_option(trust)
    trust.set_defaults(run=_run_trust)


def _add_report(commands: Any) -> None:
    report = commands.add_parser(
        "report",
        help="every figure of a debate, judge, crucible or oversight log (Markdown), or a judge "
        "validation's or check's tables (Markdown) and plot (PNG)",
    )
    report.add_argument("log", help=_kinds(REPORT_LOGS))
    report.add_argument("-o", "--out", default="report", help="output folder (default ./report)")
    report.set_defaults(run=_run_report)


def _add_index(commands: Any) -> None:
    index = commands.add_parser(
        "index", help="build (or check) the retrieval index of an evidence pool ahead of a run"
    )
    index.add_argument("pool", help="a JSONL pool file")
    index.add_argument("--corpus", action="store_true", help="a team corpus (rows without 'side')")
    index.set_defaults(run=_run_index)


def _add_quickstart(commands: Any) -> None:
    quick = commands.add_parser(
        "quickstart",
        help="run one real debate on the embedded SmolLM2 model (needs the 'embedded' extra)",
    )
    quick.add_argument(
        "--log-dir", default="logs", help="where Inspect writes the log (default ./logs)"
    )
    quick.set_defaults(run=_run_quickstart)


# Each command adds its own subparser (a module of several commands adds them all),
# so a new command is a line here; `--help` lists them in this order.
COMMANDS: tuple[Callable[[Any], None], ...] = (
    _add_list,
    _add_export,
    _add_trust,
    _add_report,
    _add_index,
    _add_quickstart,
    add_tournament_parser,
    run.add_commands,
    crucible_commands.add_commands,
    oversight.add_commands,
    agreement.add_commands,
    deliberation.add_commands,
    annotate.add_commands,
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="debatebench-eval",
        description="Structured adversarial debates as an Inspect AI evaluation.",
        epilog=_listing(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add_command in COMMANDS:
        add_command(commands)
    return parser


def command_parser() -> argparse.ArgumentParser:
    """The command's parser, for the generated reference and the docs' command check."""
    return _parser()


def _print_item(item: surface.Registered) -> None:
    """An object's options: its own (its docstring's Args), the flat groups' keys it
    reads, each documented once on its group, and the judging keys it reads, named
    here and documented below (a note after the Args last)."""
    options = surface.args_section(item.doc)
    judging = item.group_keys()
    if not (options or item.run_options() or judging):
        return
    print(f"\n{item.name} options:")
    print(options)
    lines = [f"{option.name}: {option.doc}" for option in item.run_options()]
    if judging:
        lines.append(f"judging options (listed below): {', '.join(judging)}")
    for line in lines:
        print(_fill(line, "    ", "        "))
    note = surface.after_args(item.doc)
    if note:
        print("\n" + _fill(" ".join(note.split())))


def _run_list(args: argparse.Namespace) -> int:
    print(_listing().rsplit("\n\n", 1)[0])
    for item in surface.registered():
        _print_item(item)
    # Declared once, on the group: every task and scorer that judges takes these.
    for group in surface.judging_groups():
        heading = f"judging options: {group.what}, taken by {group.users_text()}"
        heading += " (-T key=value, -S for a scorer)"
        print("\n" + _fill(heading + ":") + "\n")
        for option in group.options:
            print(_fill(f"{option.name}: {option.doc}", "    ", "        "))
    return 0


def _fill(text: str, first: str = "", rest: str = "") -> str:
    # Never at a hyphen: `debatebench-eval` and `human-agreement` are single words.
    return textwrap.fill(text, 88, initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False)  # fmt: skip


def _run_export(args: argparse.Namespace) -> int:
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
    header = _log_header("trust", args.log)
    if header is None:
        return 2
    make = _trust_maker(header)
    if make is None:
        print_error(
            "trust",
            f"{log_file(args.log)}: a {header.eval.task} log, which does not measure a judge; "
            f"a trust record needs {_kinds(TRUST_LOGS)} (inspect eval "
            f"{ALIAS_PREFIX}/judge_validation --model JUDGE), or, for a judge against people's "
            "labels, debatebench-eval agreement FOLDER LABELS",
        )
        return 2
    return make(args)


def _trust_maker(header: EvalLog) -> Callable[[argparse.Namespace], int] | None:
    """How `trust` makes a record of a log, from its task (None: it cannot)."""
    from debatebench_eval.cli import checks
    from debatebench_eval.validation.check_reader import TASKS as CHECKS

    task = task_name(header)
    if task in CHECKS:
        return checks.run_trust
    return _validation_trust if task == "judge_validation" else None


def _validation_trust(args: argparse.Namespace) -> int:
    from debatebench_eval.core.errors import ConfigError
    from debatebench_eval.trust.records import (
        Thresholds,
        save_record,
        summary_lines,
        user_trust_dir,
    )
    from debatebench_eval.validation.log_reader import NotAValidationLog, trust_record

    limits = Thresholds(args.min_tau_c, args.min_parse_rate, args.min_scored)
    try:
        # The log a path or a file: URI; the judge's fingerprint the command's, if given.
        record = checks.with_given_fingerprint(trust_record(args.log, limits), args)
    except (NotAValidationLog, ConfigError) as exc:
        print_error("trust", exc)
        return 2
    path = save_record(record, Path(args.out) if args.out else user_trust_dir())
    print("\n".join(summary_lines(record)))
    print(f"record: {path}")
    return 0 if record.trusted else 1


def _run_report(args: argparse.Namespace) -> int:
    header = _log_header("report", args.log)
    if header is None:
        return 2
    write = _report_writer(header)
    if write is None:
        print_error(
            "report",
            f"{log_file(args.log)}: a {header.eval.task} log, which has no report; report "
            f"reads {_kinds(REPORT_LOGS)}",
        )
        return 2
    return write(args)


def _report_writer(header: EvalLog) -> Callable[[argparse.Namespace], int] | None:
    """How `report` writes a log's report (None: it has none for it): by the task for
    the judge checks, by the scorers it ran for the rest (a tournament's pairs and a
    `judge` run are debates), and by the task for a judge validation."""
    from debatebench_eval.cli import checks
    from debatebench_eval.debating.log_figures import is_debate_log, write_debate_report
    from debatebench_eval.known_answer.report import is_oversight_log, write_oversight_report
    from debatebench_eval.validation.check_reader import TASKS as CHECKS
    from debatebench_eval.validation.report import write_report

    task = task_name(header)
    if task in CHECKS:
        return checks.run_report
    if is_debate_log(header):
        return partial(_write_report, write_debate_report)
    if is_oversight_log(header):
        return partial(_write_report, write_oversight_report)
    return partial(_write_report, write_report) if task == "judge_validation" else None


def _write_report(write: Callable[[Path, Path], list[Path]], args: argparse.Namespace) -> int:
    from debatebench_eval.validation.log_reader import NotAValidationLog

    try:
        written = write(log_file(args.log), Path(args.out))
    except NotAValidationLog as exc:  # a validation log in which no sample was scored
        print_error("report", exc)
        return 2
    for path in written:
        print(path)
    return 0


def _log_header(command: str, log: str) -> EvalLog | None:
    """A log's header, or None after one message when no readable log is there (a
    missing file, one that is not a log, or one cut short or still being written)."""
    from debatebench_eval.core.errors import ConfigError
    from debatebench_eval.core.log_folder import read_log

    try:
        return read_log(log, header_only=True)
    except ConfigError as exc:
        print_error(command, exc)
        return None


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
    from debatebench_eval.cli.embedded import fingerprint_setting, server_arguments

    port = 8080
    url = f"http://127.0.0.1:{port}/v1"
    # The judge keeps the identity the quickstart gave it: its model file's sha256.
    return (
        "to run it again yourself, start the same server in one shell:\n"
        f"  python {shlex.join(server_arguments(port))}\n"
        "and in another:\n"
        f"  {fingerprint_setting(url)} OLLAMA_BASE_URL={url} inspect {shlex.join(eval_args)}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    # `run` passes every option it does not take itself on to Inspect's own parser.
    args, inspect_argv = parser.parse_known_args(argv)
    if inspect_argv and not getattr(args, "inspect_options", False):
        parser.parse_args(argv)  # argparse's own message for what no command takes
    args.inspect_argv = inspect_argv
    if args.command is None:
        _parser().print_help()
        return 0
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
