"""The task kinds a tournament can run, by name: adding a kind is its module and one
entry here."""

from __future__ import annotations

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.tournament.debate_kind import DebateKind
from debatebench_eval.tournament.kind import TaskKind
from debatebench_eval.tournament.oversight_kind import OversightKind

KINDS: dict[str, TaskKind] = {kind.name: kind for kind in (DebateKind(), OversightKind())}
# A folder planned before there was any other kind names none: it is a debate one.
DEFAULT = "debate"


def kind_named(name: str, flag: str = "--task") -> TaskKind:
    """The kind of that name, or one message naming the kinds there are."""
    kind = KINDS.get(name)
    if kind is None:
        raise ConfigError(flag, f"got {name!r}", f"one of {', '.join(KINDS)}")
    return kind
