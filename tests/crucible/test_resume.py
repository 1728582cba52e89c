"""The resume cache: a fresh run always asks the model; only calls that passed are kept.

The command-line tests (tests/cli/test_crucible_cli.py) show `inspect eval-retry`
replaying a crashed or killed run's finished calls; these show the rest in process.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    ChatMessageUser,
    GenerateConfig,
    ModelOutput,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import Store

from debatebench_eval.core._inspect import resumable_run_id
from debatebench_eval.core.errors import ServerError
from debatebench_eval.truth_crucible.calls import Caller, Request
from debatebench_eval.truth_crucible.record import CrucibleRecord
from debatebench_eval.truth_crucible.resume import ResumeCache

from support.crucible_replies import CrucibleScript
from support.scripted import Script, output

SCHEMA = {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]}
MESSAGES: list[ChatMessage] = [ChatMessageUser(content="Give one word as JSON.")]
REPAIR = "Fix these problems:\n{problems}"


def asked(script: CrucibleScript) -> int:
    return sum(len(s.calls) for s in script.scripts.values())


def replayed(log: EvalLog) -> int:
    sample = (log.samples or [])[0]
    return sum(isinstance(e, ModelEvent) and e.cache == "read" for e in sample.events)


def test_a_fresh_run_of_the_same_topic_asks_the_model_again(
    run_crucible: Callable[..., EvalLog],
) -> None:
    # Same topic, same derived seed, same models, cache on: still a new run.
    first, second = CrucibleScript(), CrucibleScript()
    logs = [run_crucible(first), run_crucible(second)]
    assert all((log.samples or [])[0].store_as(CrucibleRecord).complete for log in logs)
    assert asked(second) == asked(first) > 0
    assert replayed(logs[1]) == 0


def test_outside_a_running_eval_there_is_no_run_to_resume() -> None:
    assert ResumeCache.for_sample("topic", 1, "ab" * 32, 7) is None


@solver
def note_the_run() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.metadata["run"] = resumable_run_id()
        return state

    return solve


def test_the_run_id_is_the_task_id_inspect_keeps_on_retry_and_new_for_each_eval(
    tmp_path: Path,
) -> None:
    # eval-retry passes the original log's task_id on (PreviousTask(id=task_id)).
    def once() -> tuple[str, object]:
        task = Task(dataset=[Sample(input="x", id="s")], solver=note_the_run())
        log = eval(task, model=Script("main").model(), display="none", log_dir=str(tmp_path))[0]
        return log.eval.task_id, (log.samples or [])[0].metadata["run"]

    (first_id, first_run), (second_id, second_run) = once(), once()
    assert first_run == first_id and second_run == second_id and first_id != second_id


class Judge:
    """A scripted model whose reply a test can change between exchanges."""

    def __init__(self, reply: str = '{"word": "yes"}', tokens: int = 5) -> None:
        self.reply, self.tokens = reply, tokens
        self.script = Script("judge", reply=self._reply)
        self.model = self.script.model(GenerateConfig())

    def _reply(self, n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        return output("judge", self.reply, tokens=self.tokens)

    @property
    def calls(self) -> int:
        return len(self.script.calls)


def word(value: Any) -> tuple[str | None, list[str]]:
    if isinstance(value, dict) and value.get("word") == "yes":
        return "yes", []
    return None, [f"word must be 'yes', not {json.dumps(value)}"]


def strict(value: Any) -> tuple[str | None, list[str]]:
    return None, ["nothing passes now"]


@pytest.fixture
def caller() -> Caller:
    cache = ResumeCache(CachePolicy(expiry="1W", per_epoch=False, scopes={"crucible": "run-1"}))
    return Caller("object", cache, CrucibleRecord(store=Store()))  # not the shared default


REQUEST = Request("conflicts", "judge", SCHEMA, "crucible_test", 50, 7)


def ask(caller: Caller, judge: Judge, check: Any, request: Request = REQUEST) -> Any:
    return asyncio.run(caller.exchange(judge.model, MESSAGES, request, check, REPAIR))


def test_a_call_that_failed_its_checks_is_asked_again_and_a_passed_one_replayed(
    caller: Caller,
) -> None:
    judge = Judge(reply='{"word": "no"}')
    failed = ask(caller, judge, word)
    assert failed.result is None and judge.calls == 2  # the reply and its repair
    judge.reply = '{"word": "yes"}'
    passed = ask(caller, judge, word)
    assert passed.result == "yes" and judge.calls == 3  # asked again, not the bad reply
    again = ask(caller, judge, word)
    assert again.result == "yes" and judge.calls == 3  # replayed
    record = caller.record
    assert record is not None
    assert [c.failure is None for c in record.calls] == [False, True, True]
    assert "unusable reply after 1 repair(s)" in (record.calls[0].failure or "")


def test_a_replayed_call_that_fails_a_check_now_is_forgotten(caller: Caller) -> None:
    judge = Judge()
    ask(caller, judge, word)
    rejected = ask(caller, judge, strict)
    assert rejected.result is None and judge.calls == 2  # replayed, then its repair live
    ask(caller, judge, word)
    assert judge.calls == 3  # the rejected replay was removed: asked again


def test_a_reply_over_its_budget_is_not_kept(caller: Caller) -> None:
    judge = Judge(tokens=500)
    debater = Request("propose: claims", "pro", SCHEMA, "crucible_test", 50, 7, enforce_budget=True)
    with pytest.raises(ServerError, match="500 completion tokens for a budget of 50"):
        ask(caller, judge, word, debater)
    judge.tokens = 5
    ask(caller, judge, word, debater)
    assert judge.calls == 2
    record = caller.record
    assert record is not None and "ignores max_tokens" in (record.calls[0].failure or "")
