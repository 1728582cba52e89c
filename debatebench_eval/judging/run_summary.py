"""After a run, say on the terminal what happened to each sample, and whether anything
was scored at all.

Inspect's end-of-run display shows a scorer's metrics, where an unscored
sample is only a `*` beside the counts and its reason sits in the log. A
hook prints, once the run is over, on stderr and in every display mode (CI
runs with `--display none`), for each log of the package's tasks:

- a debate's log: one line per debate (the first few, then a count): the
  winning model, its side, the margin, the tier and the judge's trust
  status, or `UNSCORED:` / `FAILED:` and the reason, after the reasoning
  budgets when the run set them (the speeches' budgets are then their own);
- any other log: its failed samples and unscored samples with their reasons;
- a scorer that scored no sample at all: `fact-check failed on all N samples`;
- a judge validation: which figures are undefined for the speeches rated, and why;
- last, when no sample of the run was scored, a line that says so.

A reason is shortened from its middle, never by cutting off the sentence
that says what to change (`lower -T judge_budget`).
"""

from __future__ import annotations

import math
import re
import sys
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from inspect_ai.hooks import Hooks, RunEnd, hooks
from inspect_ai.log import (
    EvalLog,
    EvalSampleSummary,
    read_eval_log_sample_summaries,
    read_eval_log_sample_summaries_async,
)
from inspect_ai.scorer import Score

from debatebench_eval.core.errors import ErrorsWhenSilent
from debatebench_eval.record.store import REASONING_BUDGETS_KEY
from debatebench_eval.servers.dead_servers import watch_every_sample
from debatebench_eval.trust.speech_rows import row_of
from debatebench_eval.trust.stats import FIGURES, summarise, why_undefined

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
# The scorer whose verdict a debate is; its log gets one line per debate.
DEBATE_SCORER = "rubric"
# Scorers that score every completed sample (counts, not judgments): a sample
# they alone scored was not scored.
ALWAYS_SCORED = ("turn_stats",)
# Lines per kind of problem before the rest are counted instead.
SHOWN = 10
WIDTH = 240
_registered = False


def report_problems_after_the_run() -> None:
    """Register the hook; the package's tasks call this when they are made
    (registered at import, Inspect would list it in every command's banner)."""
    global _registered
    if not _registered:
        hooks(name="run_summary", description="What each sample came to.")(RunSummary)
        hooks(name="errors_when_silent", description="Run-ending errors under --display none.")(
            ErrorsWhenSilent
        )
        # A loopback server that dies mid-run ends its samples at once, in every task,
        # those that never probe their servers too (the judge checks, -T probe=false).
        watch_every_sample()
        _registered = True


class RunSummary(Hooks):
    async def on_run_end(self, data: RunEnd) -> None:
        lines: list[str] = []
        scored, total = 0, 0
        for log in data.logs:
            if not (log.eval.task_registry_name or log.eval.task).startswith(OUR_TASKS):
                continue
            samples = await _summaries(log)
            lines += summary_lines(log, samples)
            counted = scored_samples(samples)
            scored, total = scored + counted[0], total + counted[1]
        if total and not scored:
            lines.append(nothing_scored(total))
        if lines:
            # Inspect's display can leave stdout's last line unended (80 spaces of
            # padding): where stdout and stderr share one file (`2>&1`, CI's log), the
            # summary would go on after it. Stdout's text first, then a line of our own.
            sys.stdout.flush()
            print("\n" + "\n".join(lines), file=sys.stderr, flush=True)


async def _summaries(log: EvalLog) -> list[EvalSampleSummary]:
    """Each sample's id, error and scores: the log's summaries, not its samples (reading
    every sample's events back would cost as much as a tenth of a long run)."""
    if log.samples is not None:
        return [sample.summary() for sample in log.samples]
    if not log.location:
        return []
    return await read_eval_log_sample_summaries_async(log.location)


def nothing_scored(total: int) -> str:
    return (
        f"debatebench: NOTHING WAS SCORED: 0 of {total} samples of this run were scored "
        "(each reason is above)"
    )


def nothing_scored_in(locations: list[str]) -> str | None:
    """A command's last line when no sample of these logs was scored (None when one
    was): its own commands exit non-zero on it, as a run that judged nothing failed."""
    scored, total = 0, 0
    for location in locations:
        counted = scored_samples(read_eval_log_sample_summaries(location))
        scored, total = scored + counted[0], total + counted[1]
    if scored or not total:
        return None
    return f"nothing was scored: 0 of {total} samples (each reason is listed above)"


def scored_samples(samples: list[EvalSampleSummary]) -> tuple[int, int]:
    """How many samples their main scorer scored, of how many."""
    scorer = main_scorer(samples)
    if scorer is None:
        return 0, len(samples)
    scored = sum(
        s.error is None
        and (score := (s.scores or {}).get(scorer)) is not None
        and not _unscored(scorer, score.value)
        for s in samples
    )
    return scored, len(samples)


def main_scorer(samples: list[EvalSampleSummary], declared: Sequence[str] = ()) -> str | None:
    """The scorer whose score is the sample's verdict: the rubric in a debate's log,
    else the first that judges (not one that only counts). `declared`: the log's
    scorers, which name it even when every sample failed before scoring."""
    found = (name for s in samples for name in (s.scores or {}))
    names = list(dict.fromkeys([*declared, *found]))
    if DEBATE_SCORER in names:
        return DEBATE_SCORER
    return next((name for name in names if name not in ALWAYS_SCORED), None)


def summary_lines(log: EvalLog, samples: list[EvalSampleSummary]) -> list[str]:
    """What one log's samples came to: a debate log's debates, else its problems."""
    declared = [scorer.name.split("/")[-1] for scorer in log.eval.scorers or []]
    if main_scorer(samples, declared) == DEBATE_SCORER:
        lines = reasoning_lines(log.eval.metadata or {}) + debate_lines(samples)
        lines += unscored_lines(samples, skip=DEBATE_SCORER)
    else:
        lines = problem_lines(samples)
    lines += undefined_lines(log, samples)
    if lines:
        lines.insert(0, f"debatebench: {log.eval.task} ({log.location or 'no log file'})")
    return lines


def reasoning_lines(metadata: dict[str, Any]) -> list[str]:
    """The run's reasoning budgets by role, when it set any."""
    budgets = metadata.get(REASONING_BUDGETS_KEY)
    if not isinstance(budgets, dict):
        return []
    shown = ", ".join(
        f"{role} {'none' if budgets[role] is None else budgets[role]}"
        for role in sorted(budgets, reverse=True)  # pro, then con
    )
    return [f"  reasoning budgets (tokens, beside each speech's budget): {shown}"]


def debate_lines(samples: list[EvalSampleSummary]) -> list[str]:
    """One line per debate: who won, on which side, by how much, and the judge's trust."""
    scored, total = scored_samples(samples)
    outcomes = [(str(s.id), _outcome(s)) for s in samples]
    return _block(f"{scored} of {total} debates scored", outcomes)


def _outcome(sample: EvalSampleSummary) -> str:
    if sample.error is not None:
        return f"FAILED: {shorten(sample.error)}"
    score = (sample.scores or {}).get(DEBATE_SCORER)
    if score is None:
        return "UNSCORED: no score recorded"
    if _unscored(DEBATE_SCORER, score.value):
        return f"UNSCORED: {shorten(_reason(score))}"
    return verdict_line(score.metadata or {})


_HOW = {"steelman_tiebreak": " (tie, broken on steelman)", "coin_toss": " (tie, coin toss)"}


def verdict_line(meta: dict[str, Any]) -> str:
    """`MODEL won as SIDE by M of 100 · TIER · judge STATUS`, from a rubric score's metadata."""
    side = str(meta.get("winner", "?")).upper()
    how = _HOW.get(str(meta.get("winner_reason")), "")
    if meta.get("winner_reason") == "stance_forfeit":
        how = " (the other side argued against its own position: forfeit)"
    margin = meta.get("margin")
    by = f"by {margin:.1f} of 100" if isinstance(margin, int | float) else "by an unrecorded margin"
    if meta.get("winner_reason") == "swap_disagreed":
        return (
            f"a tie: the swapped readings named different winners (swap_rule=survive; the "
            f"mean was {margin:.1f} of 100) · {meta.get('margin_tier', 'no tier')} · judge "
            f"{trust_status(meta)}"
        )
    return (
        f"{meta.get('winner_model', 'an unrecorded model')} won as {side} {by}{how} · "
        f"{meta.get('margin_tier', 'no tier')} · judge {trust_status(meta)}"
    )


def trust_status(meta: dict[str, Any]) -> str:
    trust = meta.get("trust")
    if not isinstance(trust, dict) or "status" not in trust:
        return "trust not in the summary (see the log)"
    return str(trust["status"]).replace("_", " ")


def problem_lines(samples: list[EvalSampleSummary]) -> list[str]:
    """Failed samples and unscored samples of one log, each with its reason."""
    failed = [(str(s.id), shorten(s.error)) for s in samples if s.error is not None]
    lines = _block(f"{len(failed)} of {len(samples)} samples failed", failed)
    return lines + unscored_lines(samples)


def unscored_lines(samples: list[EvalSampleSummary], skip: str | None = None) -> list[str]:
    scorers = sorted({name for x in samples for name in (x.scores or {})} - {skip})
    lines: list[str] = []
    for scorer in scorers:
        unscored = [
            (str(s.id), shorten(_reason(score)))
            for s in samples
            if (score := (s.scores or {}).get(scorer)) is not None
            and _unscored(scorer, score.value)
        ]
        lines += _block(unscored_heading(scorer, len(unscored), len(samples)), unscored)
    return lines


def unscored_heading(scorer: str, unscored: int, total: int) -> str:
    """How many samples a scorer left unscored; said outright when it scored none."""
    if unscored == total:
        return f"{scorer.replace('_', '-')} failed on all {total} samples (none scored)"
    return f"{unscored} of {total} samples unscored by {scorer}"


def undefined_lines(log: EvalLog, samples: list[EvalSampleSummary]) -> list[str]:
    """A judge validation's figures that these speeches leave undefined, and why,
    grouped by reason (the terminal table leaves them out)."""
    rated = [(s.id, score) for s in samples if (score := (s.scores or {}).get("speech_rating"))]
    if not rated or log.results is None:
        return []
    try:
        rows = [row_of(score, sample_id) for sample_id, score in rated]
    except (KeyError, TypeError, ValueError):  # a summary without its speech's data
        return []
    # Every figure, from the samples: the printed block holds only the headline.
    figures = summarise(rows).as_metrics()
    undefined = [f for f in FIGURES if not _defined(figures.get(f))]
    grouped: dict[str, list[str]] = defaultdict(list)
    for name, why in why_undefined(undefined, rows).items():
        grouped[why].append(name)
    return [f"  undefined: {', '.join(names)}: {why}" for why, names in grouped.items()]


def _defined(value: float | None) -> bool:
    return value is not None and not math.isnan(value)


def _reason(score: Score) -> str:
    return str(score.reason or score.explanation or "no reason recorded")


def _unscored(scorer: str, value: Any) -> bool:
    key = NO_READING_KEY.get(scorer)
    if key is not None and isinstance(value, dict):
        value = value.get(key)
        return not (isinstance(value, int | float) and value == value and value != 0)
    return isinstance(value, float) and math.isnan(value)


# A clause that says what to change: it names an option, or starts with what to do.
_ADVICE = re.compile(
    r"(?:^|\s)(?:-T|-S|--[a-z])|^(?:lower|raise|set|pass|run|use|bind|give|add|install|"
    r"start|remove|quote|try)\b",
    re.IGNORECASE,
)
_CLAUSES = re.compile(r"; | \| ")


def shorten(text: str, width: int = WIDTH) -> str:
    """The reason on one line within `width`, cut from the middle: what happened first,
    and every clause that says what to change kept whole at the end."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    advice = list(dict.fromkeys(c for c in _CLAUSES.split(text)[1:] if _ADVICE.search(c)))
    tail = "; ".join(advice)
    head = text[: max(width - len(tail) - 4, width // 3)].rstrip(" ;|")
    return f"{head} …; {tail}" if tail else f"{head}…"


def _block(heading: str, problems: list[tuple[str, str]]) -> list[str]:
    if not problems:
        return []
    lines = [f"  {heading}:"]
    for sample_id, text in problems[:SHOWN]:
        lines.append(f"    {sample_id}: {text}")
    if len(problems) > SHOWN:
        lines.append(f"    … and {len(problems) - SHOWN} more (each is in the log)")
    return lines
