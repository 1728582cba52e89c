"""A loopback server that answered and then stopped ends the calls to it at once, with
its URL (and, for a server the project started, its last output lines), where
Inspect alone retries a refused connection for ever; a server that still listens,
or one that never answered in the run, is left to Inspect's retries; one that
comes back is used again."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import httpx
import pytest
from inspect_ai.model import GenerateConfig, Model, ModelOutput, get_model

from debatebench_eval.core.errors import ServerError
from debatebench_eval.servers import dead_servers, probe
from debatebench_eval.servers.started import announced

from support.runs import new_run
from support.stub_server import StubBehaviour, StubServer, closed_url

# No max_retries: Inspect would retry a refused connection for ever, so a call that
# returns within the bound was ended by the watch.
BOUND_S = 60
ONCE = GenerateConfig(max_retries=0)


def model_at(url: str) -> Model:
    # A llama.cpp server as the generic provider reaches it; without the openai
    # library's own retries (max_retries=2), which would add seconds to each test.
    return get_model(
        "openai-api/llamacpp/stub", base_url=url, api_key="local", memoize=False, max_retries=0
    )


def watched(url: str) -> Model:
    model = model_at(url)
    dead_servers.watch(model)
    return model


def counted(model: Model) -> list[int]:
    """Count the calls that reach the provider (under the watch)."""
    calls: list[int] = []
    original = model.api.generate

    async def generate(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return await original(*args, **kwargs)

    model.api.generate = generate  # type: ignore[method-assign]
    dead_servers.watch(model)
    return calls


async def ended(call: Coroutine[Any, Any, ModelOutput]) -> BaseException:
    """The call's error; the last attempt's when Inspect gave up retrying."""
    with pytest.raises(Exception) as caught:
        await asyncio.wait_for(call, BOUND_S)
    last = getattr(caught.value, "last_attempt", None)
    return last.exception() if last is not None else caught.value


def test_a_server_that_answered_and_stopped_ends_the_call_naming_it() -> None:
    async def run() -> tuple[str, BaseException]:
        with StubServer() as stub:
            model = watched(stub.base_url)
            await model.generate("Hello")
        return stub.base_url, await ended(model.generate("Hello again"))

    url, error = new_run(run())
    assert isinstance(error, ServerError)
    assert str(error).startswith(
        f"the model server at {url} answered earlier in this run and now refuses connections"
    )
    assert "inspect eval-retry LOG" in str(error)


def test_later_calls_to_a_dead_server_fail_without_reaching_it_until_it_is_back() -> None:
    async def run() -> tuple[BaseException, str]:
        with StubServer() as stub:
            model = model_at(stub.base_url)
            calls = counted(model)
            await model.generate("Hello")
        assert isinstance(await ended(model.generate("first")), ServerError)
        before = len(calls)
        later = await ended(model.generate("second"))
        assert len(calls) == before  # found dead: not called again
        with StubServer(port=stub.port):  # restarted on its port
            back = await model.generate("third")
        return later, back.completion

    later, back = new_run(run())
    assert isinstance(later, ServerError) and back.startswith("Speech")


def test_a_probe_is_an_answer_the_watch_counts() -> None:
    async def run() -> BaseException:
        with StubServer() as stub:
            model = model_at(stub.base_url)
            await probe.ensure_reachable(model, "judge")  # watches it, and it answered
        return await ended(model.generate("Hello"))

    assert isinstance(new_run(run()), ServerError)


def test_a_server_that_never_answered_in_the_run_is_left_to_inspect() -> None:
    model = watched(closed_url())
    error = new_run(ended(model.generate("Hello", config=ONCE)))
    assert not isinstance(error, ServerError)  # Inspect's own connection error
    assert dead_servers._transport_failure(error)


def test_a_failure_of_a_server_that_still_listens_is_left_to_inspect() -> None:
    behaviour = StubBehaviour()

    async def run() -> tuple[BaseException, ModelOutput]:
        model = watched(stub.base_url)
        await model.generate("Hello")
        behaviour.broken = "truncated"  # a connection cut mid-body: a transport failure
        error = await ended(model.generate("cut", config=ONCE))
        behaviour.broken = None
        return error, await model.generate("whole again")

    with StubServer(behaviour) as stub:
        error, after = new_run(run())
    assert not isinstance(error, ServerError) and dead_servers._transport_failure(error)
    assert after.completion.startswith("Speech")


def test_what_the_run_remembers_of_a_server_is_its_own() -> None:
    with StubServer() as stub:
        new_run(watched(stub.base_url).generate("Hello"))  # answered, in another run
    error = new_run(ended(watched(stub.base_url).generate("Hello", config=ONCE)))
    assert not isinstance(error, ServerError)


def test_the_project_servers_output_is_quoted(tmp_path: Path) -> None:
    output = tmp_path / "llama-server.log"
    output.write_text("loading model\nggml: the last line before dying\n")

    async def run() -> BaseException:
        with StubServer() as stub:
            model = watched(stub.base_url)
            await model.generate("Hello")
        with announced(stub.base_url, "sha256:" + "0" * 64, output):
            return await ended(model.generate("Hello again"))

    message = str(new_run(run()))
    assert f"; the server's output ({output}) ends:\n" in message
    assert message.endswith("  | loading model\n  | ggml: the last line before dying")


def test_a_model_is_watched_once() -> None:
    model = watched(closed_url())
    first = model.api.generate
    dead_servers.watch(model)
    assert model.api.generate is first


def test_a_remote_server_is_never_called_dead(monkeypatch: pytest.MonkeyPatch) -> None:
    url = "http://192.0.2.1:8080/v1"  # a documentation address: never called here
    model = get_model("ollama/stub", base_url=url, memoize=False)

    async def refused(*args: Any, **kwargs: Any) -> Any:
        raise httpx.ConnectError("Connection refused")

    async def refuses(url: str) -> bool:
        return True

    model.api.generate = refused  # type: ignore[method-assign]
    dead_servers.watch(model)
    monkeypatch.setattr(dead_servers, "refuses_connections", refuses)

    async def run() -> Any:
        dead_servers.answered(url)
        return await model.api.generate(input=[], tools=[], tool_choice="none", config=ONCE)

    with pytest.raises(httpx.ConnectError):  # the provider's own error, untouched
        new_run(run())


def test_a_refusal_is_only_a_port_nobody_listens_on() -> None:
    assert new_run(dead_servers.refuses_connections(closed_url())) is True
    with StubServer() as stub:
        assert new_run(dead_servers.refuses_connections(stub.base_url)) is False
    assert new_run(dead_servers.refuses_connections("http://localhost:1/v1")) is True
