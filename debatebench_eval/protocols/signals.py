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
round limit (`max`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from debatebench_eval.protocols.record import RoundResult, Signal
from debatebench_eval.protocols.spec import Converge

FENCE_OPEN = "```signal"
FENCE_CLOSE = "```"


def parse_signal(text: str) -> Signal | None:
    """The turn's last complete signal block, or None (heurema's `signal.Parse`)."""
    body = _last_block(text)
    if body is None or not body.strip().startswith("{"):
        return None
    try:
        data = json.loads(body)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    position = data.get("position", "")
    objections = data.get("objections") or []
    done = data.get("done", False)
    if (
        not isinstance(position, str)
        or not isinstance(objections, list)
        or not all(isinstance(o, str) for o in objections)
        or not isinstance(done, bool)
    ):
        return None
    return Signal(position=position, objections=objections, done=done and not objections)


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
