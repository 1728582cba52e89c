"""Where the harness's CPU goes: py-spy's sampled stacks, attributed to their owners.

py-spy (`py-spy record --format raw --full-filenames`) writes one line per
distinct stack: `frame;frame;...;leaf COUNT`, a frame being `function (file:line)`.
Each sample is given to the deepest frame that belongs to an owner (the
project, a part of Inspect, the OpenAI client, the HTTP stack, the event
loop); shared utilities (pydantic, json, copy, Inspect's `_util`) are
transparent, so their time goes to whoever called them. Samples are split
first by phase: start-up (imports, task loading), the end of the run (log
finish, run-end hooks), threads parked waiting (py-spy counts a thread blocked
in a lock or a selector as active on a loaded machine), and the run itself,
whose shares are the per-call figures.

Shares are relative: on a machine loaded by other work they stay meaningful,
while the absolute CPU per call must come from a quiet machine.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

PROJECT = "project (debatebench_eval)"
# (owner, path fragments); the first owner a frame's file matches is its owner.
_LOG_FILE = (
    "/inspect_ai/log/_condense.py", "/inspect_ai/log/_recorders/", "/inspect_ai/log/_file.py",
    "/inspect_ai/_util/zipfile.py", "/inspect_ai/_eval/task/log.py",
)  # fmt: skip
_EVENTS = (
    "/inspect_ai/log/_transcript.py", "/inspect_ai/event/", "/inspect_ai/util/_span.py",
    "/inspect_ai/util/_store", "/inspect_ai/log/_samples.py", "/inspect_ai/hooks/",
)  # fmt: skip
OWNERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (PROJECT, ("/debatebench_eval/",)),
    ("Inspect: live-view sample buffer (SQLite)", ("/inspect_ai/log/_recorders/buffer/",)),
    ("Inspect: log file (condense, serialise, write)", _LOG_FILE),
    ("Inspect: events, spans, store, hooks", _EVENTS),
    ("Inspect: provider adapter (openai-compatible)", ("/inspect_ai/model/_providers/",)),
    ("Inspect: model API (generate, config, retries, usage)", ("/inspect_ai/model/", "/tenacity/")),
    ("Inspect: eval loop, samples, limits", ("/inspect_ai/_eval/", "/inspect_ai/solver/")),
    ("Inspect: display", ("/inspect_ai/_display/",)),
    ("Inspect: other", ("/inspect_ai/",)),
    ("OpenAI client (request building, response parsing)", ("/openai/",)),
    ("HTTP (httpx, httpcore, h11, sockets)", ("/httpx", "/httpcore", "/h11/", "/socket.py")),
    ("event loop (asyncio, anyio)", ("/asyncio/", "/anyio/", "/nest_asyncio", "/sniffio/")),
)
# Utilities whose time belongs to their caller.
TRANSPARENT = ("/inspect_ai/_util/",)
OTHER = "other (stdlib, pydantic, json outside any owner)"

STARTUP = "start-up (imports, task loading, servers)"
RUN_END = "end of run (log finish, run-end hooks)"
WAITING = "threads parked (not CPU)"
RUN = "the run (per-call work)"
_STARTUP_FRAMES = ("_find_and_load", "eval_resolve_tasks", "control_server", "init_eval_display")
_RUN_END_FRAMES = ("emit_run_end", "_finish_task_log", "finish_task_log", "eval_results")
_WAIT_LEAVES = (
    "select (", "Condition.wait (", "Queue.get (", "Event.wait (", "Thread.join (",
    "_worker (", "Lock.acquire (",
)  # fmt: skip
_FRAME = re.compile(r"^(?P<func>.*) \((?P<file>.*):(?P<line>\d+)\)$")


@dataclass
class Attribution:
    """Samples by phase, and the run's samples by owner (with those the project called)."""

    phases: Counter[str] = field(default_factory=Counter)
    owners: Counter[str] = field(default_factory=Counter)
    from_project: Counter[str] = field(default_factory=Counter)
    functions: dict[str, Counter[str]] = field(default_factory=dict)

    @property
    def run_samples(self) -> int:
        return self.phases[RUN]

    def share(self, owner: str) -> float:
        return self.owners[owner] / self.run_samples if self.run_samples else 0.0


def parse_raw(lines: Iterable[str]) -> list[tuple[list[str], int]]:
    """py-spy's raw lines as (frames root first, count)."""
    stacks = []
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            continue
        stack, _, count = line.rpartition(" ")
        stacks.append((stack.split(";") if stack else [], int(count)))
    return stacks


def frame_file(frame: str) -> str:
    match = _FRAME.match(frame)
    return match["file"] if match else ""


def short_frame(frame: str) -> str:
    """`function (package/module.py)`: the path from its package on, no line."""
    match = _FRAME.match(frame)
    if not match:
        return frame
    file = re.sub(r"^.*/(site-packages|python3\.\d+)/", "", match["file"])
    file = re.sub(r"^.*/(debatebench_eval|tests)/", r"\1/", file)
    return f"{match['func']} ({file})"


def owner_of(file: str) -> str | None:
    path = "/" + file.lstrip("/")
    if any(part in path for part in TRANSPARENT):
        return None
    for owner, parts in OWNERS:
        if any(part in path for part in parts):
            return owner
    return None


def phase_of(frames: list[str]) -> str:
    if not frames or not frames[-1].strip():
        return WAITING  # no Python frame: a native thread py-spy could not read
    if frames[-1].startswith(_WAIT_LEAVES):
        return WAITING
    names = [frame.split(" (", 1)[0] for frame in frames]
    if any(name.endswith(_STARTUP_FRAMES) for name in names):
        return STARTUP
    if any(name.endswith(_RUN_END_FRAMES) for name in names):
        return RUN_END
    if not any("run_forever" in name or "_run_once" in name for name in names):
        return STARTUP  # before the event loop: the command line, task loading
    return RUN


def attribute(stacks: Iterable[tuple[list[str], int]]) -> Attribution:
    """Phase of every sample; owner (deepest owning frame) of every run sample."""
    result = Attribution()
    for frames, count in stacks:
        phase = phase_of(frames)
        result.phases[phase] += count
        if phase != RUN:
            continue
        owner, function = OTHER, frames[-1]
        for frame in reversed(frames):
            found = owner_of(frame_file(frame))
            if found is not None:
                owner, function = found, frame
                break
        result.owners[owner] += count
        result.functions.setdefault(owner, Counter())[short_frame(function)] += count
        if owner != PROJECT and any(owner_of(frame_file(f)) == PROJECT for f in frames):
            result.from_project[owner] += count
    return result


def report(result: Attribution, cpu_ms_per_call: float | None, top: int = 3) -> list[str]:
    """The table: each owner's share of the run's samples, and ms per call when known."""
    total = sum(result.phases.values())
    lines = [f"samples: {total:,} at 100 Hz; by phase:"]
    for phase, count in result.phases.most_common():
        lines.append(f"  {phase:58} {count:7,}  {100 * count / total:5.1f}%")
    unit = "" if cpu_ms_per_call is None else "  ms/call"
    lines.append(f"the run's samples by owner (deepest owning frame){unit}:")
    for owner, count in result.owners.most_common():
        share = result.share(owner)
        ms = "" if cpu_ms_per_call is None else f"  {share * cpu_ms_per_call:7.2f}"
        called = result.from_project[owner]
        note = f"  ({100 * called / count:.0f}% called from the project)" if called else ""
        lines.append(f"  {owner:58} {count:7,}  {100 * share:5.1f}%{ms}{note}")
        for function, n in result.functions[owner].most_common(top):
            lines.append(f"      {100 * n / result.run_samples:5.1f}%  {function}")
    return lines
