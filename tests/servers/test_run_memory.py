"""What a run learns of a model server is its own: two evals in one process share
none of it, so no test resets a global between runs."""

from __future__ import annotations

import asyncio
from pathlib import Path

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from debatebench_eval.core.run_memory import RunMemory
from debatebench_eval.servers import probe

from support.runs import new_run
from support.scripted import Script
from support.stub_server import StubServer


def model_at(url: str) -> Model:
    return get_model("openai-api/local/m", base_url=url, api_key="k", memoize=False)


@solver
def probing(url: str) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        await probe.ensure_reachable(model_at(url), "pro")
        return state

    return solve


def probe_run(url: str, log_dir: Path) -> str | None:
    """One eval whose sample probes `url`; the sample's error, if any."""
    task = Task(dataset=[Sample(input="x")], solver=probing(url))
    [log] = eval(task, model=Script("m").model(), log_dir=str(log_dir), display="none")
    assert log.samples
    error = log.samples[0].error
    return error.message if error else None


def test_two_evals_in_one_process_share_no_server_memory(tmp_path: Path) -> None:
    with StubServer() as stub:
        url = stub.base_url
        assert probe_run(url, tmp_path) is None
    # The first run found the server; the second, after it stopped, is not told so.
    error = probe_run(url, tmp_path)
    assert error is not None and f"at {url} did not answer" in error


def test_a_run_memory_is_one_per_event_loop() -> None:
    memory: RunMemory[str, int] = RunMemory()

    async def remember(value: int) -> dict[str, int]:
        memory.here().setdefault("k", value)
        await asyncio.sleep(0)
        return dict(memory.here())

    assert new_run(remember(1)) == {"k": 1}
    assert new_run(remember(2)) == {"k": 2}  # a new loop starts empty

    async def two_samples() -> list[dict[str, int]]:
        return list(await asyncio.gather(remember(3), remember(4)))

    assert new_run(two_samples()) == [{"k": 3}, {"k": 3}]  # one run shares it
