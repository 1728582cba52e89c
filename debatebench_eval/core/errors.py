"""Errors a user can act on.

A `ConfigError` names where the bad value came from (a file, a key, a task
argument), what was found and what was expected, and prints as one message
without a traceback. Every error a command prints goes through `error_text`:
Inspect writes its own errors in rich markup (`[bold][blue]KEY[/blue][/bold]`),
which is rendered to plain text there, with a hint when the error is a missing
API key for a local server.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Sequence

from inspect_ai.hooks import Hooks, RunEnd
from inspect_ai.util import display_type
from rich.console import Console
from rich.errors import StyleSyntaxError
from rich.style import Style

from debatebench_eval.core._inspect import (
    PrerequisiteError,
    SilentException,
    display_type_initialized,
)
from debatebench_eval.core.credentials import local_key_hint, without_userinfo

# A rich markup tag as rich reads one, with the backslashes that may escape it.
_TAG = re.compile(r"(\\*)\[([a-z#/@][^\[\]]*)\]")


class ConfigError(PrerequisiteError):
    """A bad task argument, run.yaml, team file, motion file or format file."""

    def __init__(self, where: str, found: str, expected: str, *, also: Sequence[str] = ()) -> None:
        self.where = where
        self.found = found
        self.expected = expected
        # Further problems of the same input, one line each, said in the same form.
        self.also = tuple(also)
        lines = (f"{where}: {found}; expected {expected}.", *self.also)
        message = without_userinfo("\n".join(lines))
        super().__init__(message)
        # PrerequisiteError keeps only `.message`; str() and pytest read args.
        self.args = (message,)

    def __str__(self) -> str:
        return str(self.message)


class DebateError(RuntimeError):
    """A debate that could not be completed (the sample fails, others go on)."""


class ServerError(RuntimeError):
    """A model server that cannot be used: unreachable, or ignoring the budget."""


def call_failure(exc: BaseException) -> str:
    """Why a model call failed, in words: the last attempt's error when the
    provider retried (tenacity wraps it), and the transport error under it."""
    last = getattr(exc, "last_attempt", None)
    if last is not None and last.failed:
        exc = last.exception()
    if isinstance(exc, json.JSONDecodeError):
        return f"the server's reply is not valid JSON ({exc})"
    cause = exc.__cause__
    under = f" ({type(cause).__name__}: {cause})" if cause is not None and str(cause) else ""
    return f"{type(exc).__name__}: {exc or 'no detail'}{under}"


def plain_text(text: str) -> str:
    """The text with rich markup tags removed and escaped brackets unescaped.

    Only a tag that names a style goes: a bracketed word that is not one
    (`[withheld]`, a passage id) is text, and stays.
    """

    def replace(match: re.Match[str]) -> str:
        slashes, tag = match.group(1), match.group(2)
        if len(slashes) % 2:  # an escaped bracket is a literal one
            return f"{slashes[:-1]}[{tag}]"
        return slashes if _is_style_tag(tag) else match.group(0)

    return _TAG.sub(replace, text)


def _is_style_tag(tag: str) -> bool:
    name = tag.removeprefix("/").strip()
    if not name:
        return tag == "/"  # `[/]` closes the last tag
    if name.split()[0] == "link":  # `[link URL]`, closed by `[/link]`
        return True
    try:
        Style.parse(name)
    except StyleSyntaxError:
        return False
    return True


def error_text(error: BaseException | str) -> str:
    """An error as a command prints it: plain text, credentials cut out of its
    URLs, and what to do when it is a missing key for a local server."""
    message = error.message if isinstance(error, PrerequisiteError) else str(error)
    text = plain_text(message) if isinstance(message, str) else _rendered(message)
    text = without_userinfo(text.strip())
    hint = local_key_hint(text)
    return f"{text}\n{hint}" if hint else text


def _rendered(renderable: object) -> str:
    """A rich renderable (a table, a panel) as plain text."""
    buffer = io.StringIO()
    Console(file=buffer, no_color=True, color_system=None, width=100).print(renderable)
    return buffer.getvalue()


def print_error(command: str, error: BaseException | str, after: str = "") -> None:
    """The one way a `debatebench-eval` command reports an error: on stderr,
    after the command's name, as plain text."""
    print(f"debatebench-eval {command}: {error_text(error)}{after}", file=sys.stderr, flush=True)


def printed_once(error: PrerequisiteError) -> SilentException:
    """Print the error on stderr as plain text, and give the exception that ends
    Inspect's command with exit status 1 and nothing more printed.

    Inspect renders a PrerequisiteError through its rich console, which writes
    to stdout, wraps long lines, reads brackets as markup, and is silenced
    entirely by `--display none`: a run would exit 1 with the reason lost,
    exactly where CI runs it. Inspect's own `--json` mode answers the same way:
    the message on stderr, then a SilentException.
    """
    print(f"\n{error_text(error)}\n", file=sys.stderr, flush=True)
    silent = SilentException()
    silent.__cause__ = error
    return silent


class ErrorsWhenSilent(Hooks):
    """At the end of a run that a PrerequisiteError ended under `--display none`,
    print it on stderr: Inspect's own (a missing API key, raised before any task is
    made) would otherwise be lost in the silenced console."""

    def enabled(self) -> bool:
        # Not yet set when Inspect lists the hooks in its banner: never listed.
        return display_type_initialized() and display_type() == "none"

    async def on_run_end(self, data: RunEnd) -> None:
        if isinstance(data.exception, PrerequisiteError):
            print(f"\n{error_text(data.exception)}\n", file=sys.stderr, flush=True)
