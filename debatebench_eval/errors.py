"""Errors a user can act on.

A `ConfigError` names where the bad value came from (a file, a key, a task
argument), what was found and what was expected, and prints as one message
without a traceback.
"""

from __future__ import annotations

from ._inspect import PrerequisiteError


class ConfigError(PrerequisiteError):
    """A bad task argument, run.yaml, team file, motion file or format file."""

    def __init__(self, where: str, found: str, expected: str) -> None:
        self.where = where
        self.found = found
        self.expected = expected
        message = f"{where}: {found}; expected {expected}."
        super().__init__(message)
        # PrerequisiteError keeps only `.message`; str() and pytest read args.
        self.args = (message,)

    def __str__(self) -> str:
        return str(self.message)


class DebateError(RuntimeError):
    """A debate that could not be completed (the sample fails, others go on)."""


class ServerError(RuntimeError):
    """A model server that cannot be used: unreachable, or ignoring the budget."""
