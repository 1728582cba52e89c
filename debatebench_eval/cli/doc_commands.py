"""Check the commands quoted in the docs against what the code accepts, running nothing.

Every fenced shell block (bash, sh, console, shell) of a Markdown file is read;
each `inspect eval|eval-set|score|view` and `debatebench-eval` command in it
(continuation lines joined, `&&`/`;`/`|` chains split, `VAR=value` prefixes
dropped) is parsed by the real parser: Inspect's click commands for `inspect`,
ours for `debatebench-eval`. Then a task, scorer or solver of this package must
be registered, and every `-T`/`-S` key must be one it accepts (`cli.surface`);
a form the package no longer takes (`arguments.REMOVED`) is named with the form
to give. A tournament's `-T` keys are its task's (`--task`: `debate` or
`oversight`). A line holding `...` is a placeholder and is skipped.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from debatebench_eval.cli import surface
from debatebench_eval.core.arguments import REMOVED

SHELLS = frozenset({"bash", "sh", "console", "shell", "zsh"})
PLACEHOLDER = "..."
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
_OURS = ("debatebench/", "debatebench_eval/")
_CHAIN = frozenset({"&&", "||", ";", "|", "&"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_WRAPPERS = frozenset({"time", "/usr/bin/time", "nohup", "env", "exec"})
INSPECT_CHECKED = ("eval", "eval-set", "score", "view")


@dataclass(frozen=True)
class Command:
    """One command as the docs quote it: where, and its words."""

    where: str  # file:line
    words: tuple[str, ...]

    @property
    def text(self) -> str:
        return shlex.join(self.words)


@dataclass(frozen=True)
class Problem:
    where: str
    command: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}\n    {self.command}"


def shell_blocks(text: str) -> Iterator[tuple[int, list[str]]]:
    """Each fenced shell block: the line number of its first line, and its lines."""
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        fence, language = opening.group(2), opening.group(3).lower()
        body: list[str] = []
        index += 1
        start = index + 1
        while index < len(lines) and not lines[index].strip().startswith(fence):
            body.append(lines[index])
            index += 1
        index += 1
        if language in SHELLS:
            yield start, body


def logical_lines(start: int, body: Sequence[str]) -> Iterator[tuple[int, str]]:
    """Lines with `\\` continuations joined and console prompts (`$ `) removed."""
    pending: list[str] = []
    first = start
    for number, raw in enumerate(body, start):
        line = raw.rstrip()
        if not pending:
            first = number
            stripped = line.lstrip()
            if stripped.startswith("$ "):
                line = stripped[2:]
        if line.endswith("\\"):
            pending.append(line[:-1])
            continue
        pending.append(line)
        yield first, " ".join(part.strip() for part in pending)
        pending = []
    if pending:
        yield first, " ".join(part.strip() for part in pending)


def commands_in(path: Path, label: str | None = None) -> Iterator[Command]:
    """Every command of `inspect` or `debatebench-eval` in a Markdown file's shell blocks."""
    name = label or path.as_posix()
    for start, body in shell_blocks(path.read_text(encoding="utf-8")):
        for number, line in logical_lines(start, body):
            if PLACEHOLDER in line or line.lstrip().startswith("#"):
                continue
            for words in _segments(line):
                if words and words[0] in ("inspect", "debatebench-eval"):
                    yield Command(f"{name}:{number}", tuple(words))


def _segments(line: str) -> Iterator[list[str]]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        tokens = list(lexer)
    except ValueError:  # an unclosed quote: not a command we can read
        return
    current: list[str] = []
    for token in [*tokens, ";"]:
        if token in _CHAIN:
            yield _command_words(current)
            current = []
        else:
            current.append(token)


def _command_words(words: list[str]) -> list[str]:
    """The words from the command on: environment settings and `time` dropped, and
    an optional part written `[--flag value]` checked as if given."""
    words = [_unbracketed(word) for word in words]
    index = 0
    while index < len(words) and (_ASSIGNMENT.match(words[index]) or words[index] in _WRAPPERS):
        index += 1
    rest = words[index:]
    if rest[:3] == ["python", "-m", "debatebench_eval"]:
        return ["debatebench-eval", *rest[3:]]
    return rest


def _unbracketed(word: str) -> str:
    if word.startswith("[-"):
        word = word[1:]
    return word[:-1] if word.endswith("]") and "[" not in word else word


def check(command: Command) -> list[str]:
    """What is wrong with one command ([] when the code accepts it)."""
    if command.words[0] == "debatebench-eval":
        return _check_ours(list(command.words[1:]))
    return _check_inspect(list(command.words[1:]))


def check_files(paths: Sequence[tuple[Path, str]]) -> tuple[int, list[Problem]]:
    """How many commands the files quote, and every problem with them."""
    count = 0
    problems: list[Problem] = []
    for path, label in paths:
        for command in commands_in(path, label):
            count += 1
            problems += [Problem(command.where, command.text, r) for r in check(command)]
    return count, problems


def _check_ours(args: list[str]) -> list[str]:
    from debatebench_eval.cli.main import command_parser

    errors = io.StringIO()
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        try:
            parsed, rest = command_parser().parse_known_args(args)
            if rest and not getattr(parsed, "inspect_options", False):
                command_parser().parse_args(args)  # argparse's own message
        except SystemExit as exit_:
            if exit_.code not in (0, None):
                return [errors.getvalue().strip().splitlines()[-1]]
            return []
    # `run` passes what it does not take to Inspect: checked as `inspect eval` would.
    if getattr(parsed, "inspect_options", False):
        return _check_inspect(["eval", parsed.task, *rest])
    # A tournament passes its -T options to every pair's task (`debate` or `oversight`).
    given = getattr(parsed, "task_args", None) or ()
    if args[0] != "tournament":
        return []
    from debatebench_eval.tournament.kinds import KINDS

    kind = KINDS.get(getattr(parsed, "task", "debate"))
    if kind is None:
        return [f"--task {parsed.task}: not a task kind ({', '.join(KINDS)})"]
    return _check_named("task", kind.task, given, "-T")


def _check_inspect(args: list[str]) -> list[str]:
    from inspect_ai._cli.main import inspect as inspect_group

    if not args or args[0].startswith("-"):
        return []  # `inspect --version` and the like
    name, rest = args[0], args[1:]
    group: click.Group = inspect_group
    if name not in group.commands:
        return [f"inspect has no command {name!r}"]
    if name not in INSPECT_CHECKED:
        return []
    try:
        params = group.commands[name].make_context(name, rest).params
    except click.ClickException as error:
        return [f"inspect {name}: {error.format_message()}"]
    if name == "score":
        return _check_named("scorer", params.get("scorer"), params.get("s", ()), "-S")
    if name == "view":
        return []
    found = [
        problem
        for task in params.get("tasks", ())
        for problem in _check_named("task", task, params.get("t", ()), "-T")
    ]
    return found + _check_named("solver", params.get("solver"), params.get("s", ()), "-S")


def _check_named(kind: str, name: str | None, given: Sequence[str], flag: str) -> list[str]:
    """A registry name of this package must exist and take every key given."""
    if name is None or not name.startswith(_OURS):
        return []  # another package's task, a file, or Inspect's default
    known = surface.by_name(kind)
    item = known.get(name.split("@", 1)[0])
    if item is None:
        return [f"no {kind} {name} is registered (known: {', '.join(sorted(known))})"]
    problems: list[str] = []
    for pair in given:
        key = pair.partition("=")[0]
        if key in REMOVED and key not in item.option_names():
            form = REMOVED[key].format(flag=flag)
            problems.append(f"{kind} {name} no longer takes {flag} {key}: give {form}")
        elif key not in item.option_names():
            problems.append(f"{kind} {name} takes no {flag} {key}")
    return problems
