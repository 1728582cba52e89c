"""The crucible's calls checked against the server's context before the first call.

A crucible call's prompt is mostly found during the run (corpus hits, the
claims filed, the rounds so far), so the plan holds only what every call of
its kind carries at least: the system prompt and the shortest instructions of
its kind, with no claim or evidence in them. With the budgets as set (4,000
for a side, 6,000 for a judge by default) that floor alone is often more than
a small local server holds, and the run then stops before it starts.
"""

from __future__ import annotations

from string import Formatter

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model

from debatebench_eval.core._inspect import active_generate_config
from debatebench_eval.core.calls import DEFAULT_TIMEOUT
from debatebench_eval.servers.context_window import PlannedCall, check_plan
from debatebench_eval.truth_crucible.options import DebateOptions, ScoringOptions
from debatebench_eval.truth_crucible.prompts import judge_prompts, side_prompts, side_system
from debatebench_eval.truth_crucible.record import CrucibleRun


async def check_crucible_fits(
    run: CrucibleRun,
    sides: dict[str, Model],
    judges: list[Model],
    options: DebateOptions,
    scoring: ScoringOptions,
) -> None:
    """Raise DebateError, before any call, if a side's or a judge's calls cannot fit
    its server's context (as the server reports it) at their budgets."""
    positions = {"pro": run.pro_position, "con": run.con_position}
    calls = [
        PlannedCall(
            where=f"the {side} side's calls ({model})",
            model=model,
            messages=_floor(side_system(side, run.question, positions, run.context), _side_asks()),
            budget=options.budget,
            option="-T budget",
            floor=True,
        )
        for side, model in sides.items()
    ]
    calls += [
        PlannedCall(
            where=f"the judge's calls ({judge})",
            model=judge,
            messages=_floor(judge_prompts().system, _judge_asks()),
            budget=scoring.judge_budget,
            option="-T judge_budget",
            floor=True,
        )
        for judge in judges
    ]
    await check_plan(calls, None, active_generate_config().timeout or DEFAULT_TIMEOUT)


def _side_asks() -> list[str]:
    prompts = side_prompts()
    return [prompts.queries, prompts.claims, prompts.turn]


def _judge_asks() -> list[str]:
    prompts = judge_prompts()
    return [prompts.neutral, prompts.conflicts, prompts.review, prompts.scores, prompts.audit]


def _floor(system: str, asks: list[str]) -> list[ChatMessage]:
    """The system prompt and the shortest ask's fixed words: less than any call sends."""
    shortest = min((skeleton(ask) for ask in asks), key=len)
    return [ChatMessageSystem(content=system), ChatMessageUser(content=shortest)]


def skeleton(template: str) -> str:
    """A prompt template's fixed text, its `{fields}` left out."""
    return "".join(literal for literal, *_ in Formatter().parse(template))
