"""Errors a user can act on.

A `ConfigError` names where the bad value came from (a file, a key, a task
argument), what was found and what was expected, and prints as one message
without a traceback.
"""

from __future__ import annotations

import json
import sys
from types import TracebackType

from debatebench_eval.core._inspect import PrerequisiteError
from debatebench_eval.core.credentials import without_userinfo


class ConfigError(PrerequisiteError):
    """A bad task argument, run.yaml, team file, motion file or format file."""

    def __init__(self, where: str, found: str, expected: str) -> None:
        self.where = where
        self.found = found
        self.expected = expected
        message = without_userinfo(f"{where}: {found}; expected {expected}.")
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


def report_config_errors_on_stderr() -> None:
    """Print a ConfigError that ends the `inspect` command on stderr, in every display mode.

    Inspect renders a PrerequisiteError through its console, which writes to
    stdout and is silenced entirely by `--display none`: the run exits 1 with
    the reason lost, exactly where CI runs it. Installed once, by the registry,
    after Inspect's own hook; every other exception goes on to that hook.
    """
    previous = sys.excepthook
    if getattr(previous, "_reports_config_errors", False):
        return

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        if isinstance(error, ConfigError):
            print(f"\n{error}\n", file=sys.stderr, flush=True)
        else:
            previous(kind, error, trace)

    hook._reports_config_errors = True  # type: ignore[attr-defined]
    sys.excepthook = hook
