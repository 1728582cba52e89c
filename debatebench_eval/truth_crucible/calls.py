"""Every crucible model call: structured, repaired once, recorded, and cached for resume.

Calls go through `judging.structured.ask_judge` (the JSON mode settled per
server, one repair re-ask naming the problems), sides and judges alike. Each
call's cost, repairs and failure land in the record. With `resume_cache` every
call of the debate goes through the run's `resume.ResumeCache`, so `inspect
eval-retry` replays the calls a crashed sample had finished and goes live at
the one that failed; a call that failed is never stored, so the resume asks it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from inspect_ai.model import ChatMessage, Model

from debatebench_eval.core.errors import DebateError
from debatebench_eval.judging.structured import JUDGE_BUDGET_HINT, Check, Exchange, ask_judge
from debatebench_eval.record.store import TurnUsage
from debatebench_eval.servers.replies import check_budget
from debatebench_eval.truth_crucible.record import CallRecord, CrucibleRecord
from debatebench_eval.truth_crucible.resume import ResumeCache

T = TypeVar("T")

# A side's request that does not fit its context: the side's options, not the judge's.
_DEBATER_TOO_LONG = "lower -T budget (a side's reply), or -T hits (the passages it reads)"


@dataclass(frozen=True)
class Request:
    stage: str
    actor: str  # pro, con, judge, meta_judge
    schema: dict[str, Any]
    name: str  # the response schema's name (crucible_claims, ...)
    budget: int
    seed: int
    # A debater's call: a server that ignores its budget is refused, as in a debate turn.
    enforce_budget: bool = False


@dataclass(frozen=True)
class Caller:
    """How a sample's calls are made: JSON mode, cache, and where they are recorded."""

    mode: str
    cache: ResumeCache | None = None
    record: CrucibleRecord | None = None

    async def exchange(
        self,
        model: Model,
        messages: list[ChatMessage],
        request: Request,
        check: Check[T],
        repair: str,
    ) -> Exchange[T]:
        """One structured call; the outcome (and its cost) recorded. Never raised, except
        that a debater's server returning more than its budget is refused (ServerError,
        `servers.replies.check_budget`) after the call is recorded. Only an exchange
        that passed its checks and its budget is kept for a resume."""
        attempt = self.cache.attempt() if self.cache is not None else None
        exchange = await ask_judge(
            model,
            messages,
            budget=request.budget,
            seed=request.seed,
            schema=request.schema,
            name=request.name,
            mode=self.mode,
            check=check,
            repair_template=repair,
            generate=attempt.generate if attempt is not None else None,
            who="debater" if request.enforce_budget else "judge",
            too_long_hint=_DEBATER_TOO_LONG if request.enforce_budget else JUDGE_BUDGET_HINT,
        )
        failure = exchange.failure
        try:
            if request.enforce_budget:
                for output in exchange.outputs:
                    check_budget(model, request.budget, output, f"{request.stage}, {request.actor}")
        except Exception as exc:
            failure = str(exc)
            raise
        finally:
            if self.record is not None:
                self.record.calls = [*self.record.calls, call_record(request, exchange, failure)]
            if attempt is not None:
                attempt.settle(accepted=failure is None)
        return exchange

    async def require(
        self,
        model: Model,
        messages: list[ChatMessage],
        request: Request,
        check: Check[T],
        repair: str,
    ) -> T:
        """One structured call that the debate cannot go on without: a DebateError
        naming the stage and the actor when it fails (the sample fails; others go on)."""
        exchange = await self.exchange(model, messages, request, check, repair)
        if exchange.result is None:
            raise DebateError(f"{request.stage}, {request.actor}: {exchange.failure}")
        return exchange.result


def call_record(request: Request, exchange: Exchange[Any], failure: str | None) -> CallRecord:
    usage = TurnUsage()
    for item in (output.usage for output in exchange.outputs):
        if item is not None:
            usage = TurnUsage(
                input_tokens=usage.input_tokens + item.input_tokens,
                output_tokens=usage.output_tokens + item.output_tokens,
                reasoning_tokens=usage.reasoning_tokens + (item.reasoning_tokens or 0),
                total_tokens=usage.total_tokens + item.total_tokens,
            )
    return CallRecord(
        stage=request.stage,
        actor=request.actor,
        model=exchange.model,
        usage=usage,
        budget=request.budget,
        hit_budget=any(output.stop_reason == "max_tokens" for output in exchange.outputs),
        repairs=exchange.repairs,
        json_mode=exchange.json_mode,
        problems=[p for p in exchange.problems if p],
        failure=failure,
    )
