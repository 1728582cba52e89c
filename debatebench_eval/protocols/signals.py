"""heurema's convergence rules: signals, a round's verdict, when to stop.

Each turn may end with a fenced block

    ```signal
    {"position": "...", "objections": ["..."], "done": true}
    ```

The last such block counts. `done` with objections counts as not done; a
missing or unreadable block counts as not done with no objections. A round
is clean when every speaker (or, with `until: quorum`, more than half) is
done; it made progress when its set of objections differs from the
previous round's. The loop stops, in this order of precedence, when the
panel has been clean `settle` rounds in a row (`settled`), when it has made
no progress `patience` unclean rounds in a row (`stalemate`), or at the
round limit (`max`). A panel in which no speaker's signal was read at all
cannot be said to have settled or stalled: it is undecided, with that reason.

The block is read through one typed model (`SignalBlock`), as lenient as
heurema's `signal.Parse` (every key optional, unknown keys ignored) and as
strict about types. No schema is sent for it: the signal ends a prose turn.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from pydantic import ConfigDict, ValidationError

from debatebench_eval.core.reply_model import ReplyModel
from debatebench_eval.protocols.record import RoundResult, Signal
from debatebench_eval.protocols.spec import Converge

FENCE_OPEN = "```signal"
FENCE_CLOSE = "```"


class SignalBlock(ReplyModel):
    """heurema's signal block: a position, the objections left, and whether the
    speaker is done. Every key may be left out (heurema's zero values) and
    unknown keys are ignored, as Go's JSON decoding does; a key of the wrong
    type makes the block unreadable. Done with objections counts as not done
    (a rule across two keys, kept in `parse_signal`)."""

    model_config = ConfigDict(extra="ignore")

    position: str = ""
    objections: list[str] | None = None
    done: bool = False


def parse_signal(text: str) -> Signal | None:
    """The turn's last complete signal block, or None (heurema's `signal.Parse`)."""
    body = _last_block(text)
    if body is None or not body.strip().startswith("{"):
        return None
    try:
        block = SignalBlock.model_validate(json.loads(body))
    except (json.JSONDecodeError, ValidationError):
        return None
    objections = block.objections or []
    return Signal(
        position=block.position, objections=objections, done=block.done and not objections
    )


def _last_block(text: str) -> str | None:
    # Trailing whitespace on a fence line is ignored (heurema strips only "\r").
    lines = [line.rstrip() for line in text.split("\n")]
    found: str | None = None
    i = 0
    while i < len(lines):
        if lines[i] != FENCE_OPEN:
            i += 1
            continue
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i] != FENCE_CLOSE:
            body.append(lines[i])
            i += 1
        if i < len(lines):  # closed
            found = "\n".join(body)
            i += 1
    return found


def without_signal(text: str) -> str:
    """The turn's prose: the text before its last signal block (for word counts)."""
    lines = text.split("\n")
    opens = [i for i, line in enumerate(lines) if line.rstrip() == FENCE_OPEN]
    return "\n".join(lines[: opens[-1]]) if opens else text


def assess(
    number: int,
    name: str,
    signals: Sequence[Signal | None],
    until: str,
    previous: RoundResult | None,
) -> RoundResult:
    """One round's verdict from its speakers' signals."""
    done = sum(1 for s in signals if s is not None and s.done)
    objections = sorted({o for s in signals if s is not None for o in s.objections})
    n = len(signals)
    clean = n > 0 and (done * 2 > n if until == "quorum" else done == n)
    before = set(previous.objections) if previous is not None else set()
    return RoundResult(
        round=number,
        name=name,
        clean=clean,
        progress=set(objections) != before,
        done=done,
        objections=objections,
    )


def stop_reason(
    results: Sequence[RoundResult], converge: Converge | None, max_rounds: int
) -> str | None:
    """Why the loop stops after the last of `results`, or None to go on."""
    clean_streak = no_progress_streak = 0
    for result in results:
        if result.clean:
            clean_streak += 1
        else:
            clean_streak = 0
            no_progress_streak = 0 if result.progress else no_progress_streak + 1
    if converge is not None:
        if clean_streak >= converge.settle:
            return "settled"
        if no_progress_streak >= converge.patience:
            return "stalemate"
    return "max" if len(results) >= max_rounds else None


def unheard(signals: Sequence[Signal | None], rounds: int, stop: str) -> str | None:
    """Why a converging panel is undecided: no speaker's signal was read in any
    round, so `stop` (settled, stalemate, max) says nothing about the panel."""
    if not signals or any(s is not None for s in signals):
        return None
    return (
        f"no participant's signal was parsed in {rounds} round(s) ({len(signals)} turns), "
        f"so whether the panel converged is unknown (the loop stopped on {stop}); "
        f"each turn must end with a fenced {FENCE_OPEN} block holding a JSON object"
    )
