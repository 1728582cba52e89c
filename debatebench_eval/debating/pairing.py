"""Paired debates stay whole: a sample does not run without its side-swapped twin.

With `-T paired=true` every motion is argued twice, the role models
exchanging sides (`<motion>` and `<motion>.swapped`); a model's pooled win
rate means something only over both halves. Inspect's `--limit` and
`--sample-id` select samples one by one, so they can split a pair without a
word. A hook reads the selection when each task starts (Inspect hands hooks
the run's sample ids, and nothing else does), keyed by a token the task puts
in its metadata; the solver then refuses a half whose twin was left out,
before any model call, saying how to select whole pairs.

The token is a hash of the task's arguments, not a random draw: it is a
solver argument, so it enters Inspect's task identity, and a random one
would make `eval_set` (and tournaments) see a new task on every run and
redo every debate. Tasks with the same arguments share a token, and their
selections are pooled.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from inspect_ai.hooks import Hooks, TaskStart, hooks

from debatebench_eval.core.errors import DebateError
from debatebench_eval.core.run_memory import RunMemory

PAIRING_KEY = "pairing"
SWAPPED_SUFFIX = ".swapped"
# Pairing token -> the sample ids the run selected (core.run_memory: the hook and
# the samples of one eval share its event loop).
_selected: RunMemory[str, frozenset[str]] = RunMemory()
_registered = False


def new_pairing_token(arguments: dict[str, Any]) -> str:
    """A paired task's token, from its arguments; the first one registers the hook. Inspect loads
    every plugin's hooks at every command's start (and says so in a banner):
    registered only here, it stays out of runs that have no paired debate."""
    global _registered
    if not _registered:
        hooks(name="pair_selection", description="Records a paired run's selected samples.")(
            PairSelection
        )
        _registered = True
    canonical = json.dumps(arguments, sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


class PairSelection(Hooks):
    async def on_task_start(self, data: TaskStart) -> None:
        token = (data.spec.metadata or {}).get(PAIRING_KEY)
        if isinstance(token, str):
            ids = frozenset(str(i) for i in data.spec.dataset.sample_ids or [])
            selected = _selected.here()
            selected[token] = selected.get(token, frozenset()) | ids


def twin_id(pair_id: str, swapped: bool) -> str:
    """The other half's sample id."""
    return pair_id if swapped else f"{pair_id}{SWAPPED_SUFFIX}"


def check_twin_selected(token: str, sample_id: str, pair_id: str, swapped: bool) -> None:
    """Raise DebateError when the run selected this half without its twin."""
    selected = _selected.here().get(token)
    twin = twin_id(pair_id, swapped)
    if selected is None or twin in selected:
        return  # no record of the selection (not run through Inspect's eval): nothing to check
    raise DebateError(
        f"paired run: sample '{sample_id}' would run without its twin '{twin}' (--limit or "
        "--sample-id split the pair, and a pair's win rates need both halves); select "
        f"whole pairs: --sample-id '{pair_id}*' runs both halves, and an even --limit keeps "
        "pairs whole (halves are adjacent)"
    )
