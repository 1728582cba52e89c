"""This checkout's `debatebench-eval` argument parser, asked what it accepts: the
deploy templates' command lines are checked against it, not against a copy."""

from __future__ import annotations

import argparse
import contextlib
import io
from collections.abc import Sequence

from debatebench_eval.cli.main import _parser


def subcommands(*path: str) -> set[str]:
    """The subcommands under `debatebench-eval PATH...` (empty if PATH is none)."""
    parser: argparse.ArgumentParser | None = _parser()
    for name in path:
        parser = _choices(parser).get(name)
    return set(_choices(parser))


def refusal(args: Sequence[str]) -> str | None:
    """What the parser says against `debatebench-eval ARGS`, or None when it accepts them."""
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors):
            _parser().parse_args(list(args))
    except SystemExit:
        return errors.getvalue().strip() or "refused"
    return None


def _choices(parser: argparse.ArgumentParser | None) -> dict[str, argparse.ArgumentParser]:
    if parser is None:
        return {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}
