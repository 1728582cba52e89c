"""After a run, say which samples failed or went unscored, and why, on the terminal.

Inspect's end-of-run display shows a scorer's metrics, where an unscored
sample is only a `*` beside the counts and its reason sits in the log. A
hook prints, once the run is over, a line per failed sample and per
unscored sample with its reason (the first few, then a count), on stderr
and in every display mode: CI runs with `--display none`. Every task of the
package registers it, and it speaks only of the package's tasks.
"""

from __future__ import annotations

import math
import sys
from typing import Any

from inspect_ai.hooks import Hooks, RunEnd, hooks
from inspect_ai.log import EvalLog, EvalSampleSummary, read_eval_log_sample_summaries_async

# A score is unscored when its value is Inspect's sentinel (NaN), or, for the
# scorers below, when this key of its value is 0 or NaN: the judge gave no
# usable reading (the checks), the deliberation decided nothing.
NO_READING_KEY = {
    "speech_rating": "rating",
    "rubric_sensitivity": "parsed",
    "planted_claims": "parsed",
    "outcome": "decided",
}
OUR_TASKS = ("debatebench/", "debatebench_eval/")
# Lines per kind of problem before the rest are counted instead.
SHOWN = 10
_WIDTH = 200
_registered = False


def report_problems_after_the_run() -> None:
    """Register the hook; the package's tasks call this when they are made
    (registered at import, Inspect would list it in every command's banner)."""
    global _registered
    if not _registered:
        hooks(name="run_summary", description="Lists failed and unscored samples.")(RunSummary)
        _registered = True


class RunSummary(Hooks):
    async def on_run_end(self, data: RunEnd) -> None:
        for log in data.logs:
            if not (log.eval.task_registry_name or log.eval.task).startswith(OUR_TASKS):
                continue
            lines = problem_lines(log, await _summaries(log))
            if lines:
                print("\n".join(lines), file=sys.stderr, flush=True)


async def _summaries(log: EvalLog) -> list[EvalSampleSummary]:
    """Each sample's id, error and scores: the log's summaries, not its samples (reading
    every sample's events back would cost as much as a tenth of a long run)."""
    if log.samples is not None:
        return [sample.summary() for sample in log.samples]
    if not log.location:
        return []
    return await read_eval_log_sample_summaries_async(log.location)


def problem_lines(log: EvalLog, samples: list[EvalSampleSummary]) -> list[str]:
    """Failed samples and unscored samples of one log, each with its reason."""
    failed = [(str(s.id), s.error) for s in samples if s.error is not None]
    lines = _block(f"{len(failed)} of {len(samples)} samples failed", failed)
    scorers = sorted({name for x in samples for name in (x.scores or {})})
    for scorer in scorers:
        unscored = [
            (str(s.id), str(score.reason or score.explanation or "no reason recorded"))
            for s in samples
            if (score := (s.scores or {}).get(scorer)) is not None
            and _unscored(scorer, score.value)
        ]
        lines += _block(f"{len(unscored)} of {len(samples)} samples unscored by {scorer}", unscored)
    if lines:
        lines.insert(0, f"debatebench: {log.eval.task} ({log.location or 'no log file'})")
    return lines


def _unscored(scorer: str, value: Any) -> bool:
    key = NO_READING_KEY.get(scorer)
    if key is not None and isinstance(value, dict):
        value = value.get(key)
        return not (isinstance(value, int | float) and value == value and value != 0)
    return isinstance(value, float) and math.isnan(value)


def _block(heading: str, problems: list[tuple[str, str]]) -> list[str]:
    if not problems:
        return []
    lines = [f"  {heading}:"]
    for sample_id, reason in problems[:SHOWN]:
        text = " ".join(reason.split())
        lines.append(f"    {sample_id}: {text[:_WIDTH]}{'…' if len(text) > _WIDTH else ''}")
    if len(problems) > SHOWN:
        lines.append(f"    … and {len(problems) - SHOWN} more (every reason is in the log)")
    return lines
