"""The server probe: a success is remembered (a hundred samples send one probe), a
failure is not (a restarted server is found by the next sample); a server that
does not answer is named, with why, within the probe's timeout; a model's URL is
read from its provider or its client, without credentials."""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import Iterator
from typing import Any

import pytest
from inspect_ai.model import Model, get_model

from debatebench_eval.core.errors import ServerError
from debatebench_eval.servers import probe

from support.runs import new_run
from support.stub_server import StubBehaviour, StubServer, closed_url


def model_at(url: str) -> Model:
    return get_model("openai-api/local/m", base_url=url, api_key="k", memoize=False)


def test_a_success_is_remembered_so_later_samples_send_no_probe() -> None:
    async def one_run() -> None:
        with StubServer() as stub:
            url = stub.base_url
            await probe.ensure_reachable(model_at(url), "pro")
        # The server is gone; a remembered success sends no probe that could fail.
        await probe.ensure_reachable(model_at(url), "con")

    new_run(one_run())


def test_a_success_is_remembered_by_its_run_only() -> None:
    # Each eval is an event loop of its own: the next run probes again.
    with StubServer() as stub:
        url = stub.base_url
        new_run(probe.ensure_reachable(model_at(url), "pro"))
    with pytest.raises(ServerError, match=rf"at {url} did not answer"):
        new_run(probe.ensure_reachable(model_at(url), "con"))


def test_many_samples_starting_together_send_one_probe() -> None:
    with StubServer() as stub:
        probes = []
        original = probe._probe

        async def counted(url: str, model: Model, role: str) -> None:
            probes.append(url)
            await original(url, model, role)

        probe._probe = counted  # type: ignore[assignment]
        try:

            async def hundred() -> None:
                await asyncio.gather(
                    *(probe.ensure_reachable(model_at(stub.base_url), "pro") for _ in range(100))
                )

            new_run(hundred())
        finally:
            probe._probe = original  # type: ignore[assignment]
    assert probes == [stub.base_url]


def test_a_failure_is_not_remembered_so_a_restarted_server_is_found() -> None:
    with StubServer() as stub:
        url, port = stub.base_url, stub.port
    with pytest.raises(ServerError, match=rf"at {url} did not answer"):
        new_run(probe.ensure_reachable(model_at(url), "pro"))
    with StubServer(port=port):
        new_run(probe.ensure_reachable(model_at(url), "pro"))


def test_a_failure_names_the_role_model_url_and_why() -> None:
    url = closed_url()
    with pytest.raises(ServerError) as caught:
        new_run(probe.ensure_reachable(model_at(url), "judge"))
    message = str(caught.value)
    prefix = (
        f"model server for role 'judge' (openai-api/local/m) at {url} did not answer "
        "(ConnectError: "
    )
    assert message.startswith(prefix) and message[len(prefix)] != ")"
    assert message.endswith(
        "); start it, or point the model at the right server (e.g. OLLAMA_BASE_URL or "
        "--model-base-url), or pass -T probe=false to skip this check"
    )


@pytest.fixture
def silent_url() -> Iterator[str]:
    """A port that accepts connections and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"


def test_a_server_that_never_answers_fails_within_the_timeout(
    silent_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(probe, "PROBE_TIMEOUT_S", 0.2)

    async def bounded() -> None:
        await asyncio.wait_for(probe.ensure_reachable(model_at(silent_url), "pro"), timeout=10)

    with pytest.raises(ServerError, match=r"did not answer \(ReadTimeout: no detail\);"):
        new_run(bounded())


def test_each_eval_has_its_own_probe_locks() -> None:
    """Two evals (two event loops), each with many samples on a dead server: each
    fails with the server named, never with a lock bound to the other's loop."""
    url = closed_url()

    async def many() -> None:
        await asyncio.gather(*(probe.ensure_reachable(model_at(url), "pro") for _ in range(5)))

    for _ in range(2):
        with pytest.raises(ServerError, match="did not answer"):
            new_run(many())


def test_a_model_without_a_server_is_not_probed() -> None:
    model = get_model("mockllm/model", memoize=False)
    assert probe.model_base_url(model) is None
    new_run(probe.ensure_reachable(model, "pro"))  # nothing to probe, nothing raised


def test_the_url_comes_without_credentials_or_a_trailing_slash() -> None:
    model = get_model("ollama/m", base_url="http://user:secret@127.0.0.1:5/v1/", memoize=False)
    assert probe.model_base_url(model) == "http://127.0.0.1:5/v1"


def test_a_url_kept_only_on_the_client_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:6/v1/")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    model = get_model("openai/gpt-4o-mini", memoize=False)
    assert getattr(model.api, "base_url", None) is None  # the case this covers
    assert probe.model_base_url(model) == "http://127.0.0.1:6/v1"


def test_the_probe_asks_the_model_list_under_the_base_url() -> None:
    behaviour = StubBehaviour()
    with StubServer(behaviour) as stub:
        new_run(probe.ensure_reachable(model_at(stub.base_url), "pro"))
        # A base URL that still ends in a slash gets no second slash before `models`.
        new_run(probe._probe(stub.base_url + "/", model_at(stub.base_url), "pro"))
    assert behaviour.get_paths == ["/v1/models", "/v1/models"]


def test_only_slashes_are_trimmed_from_the_url() -> None:
    behaviour = StubBehaviour()
    with StubServer(behaviour) as stub:
        base = f"http://127.0.0.1:{stub.port}/v1X"
        assert probe.model_base_url(model_at(base + "/")) == base
        # The stub answers 404 there: any answer proves a server listens.
        new_run(probe.ensure_reachable(model_at(base), "pro"))
    assert behaviour.get_paths == ["/v1X/models"]


def test_a_url_kept_only_on_the_provider_is_found() -> None:
    # A provider without an OpenAI client (here mockllm) keeps its URL on itself alone.
    model = get_model("mockllm/model", base_url="http://127.0.0.1:7/v1/", memoize=False)
    assert getattr(model.api, "client", None) is None  # the case this covers
    assert probe.model_base_url(model) == "http://127.0.0.1:7/v1"


def test_a_server_that_never_answers_holds_up_no_other_servers_probe(silent_url: str) -> None:
    """One probe at a time per server, not one for every server: a sample whose judge
    server hangs must not keep a debater's answering server waiting for the timeout."""

    async def both(answering: str) -> None:
        hung = asyncio.create_task(probe.ensure_reachable(model_at(silent_url), "judge"))
        await asyncio.sleep(0)  # the hung probe holds its server's lock, waiting for an answer
        await probe.ensure_reachable(model_at(answering), "pro")
        assert not hung.done()
        hung.cancel()
        with pytest.raises(asyncio.CancelledError):
            await hung

    with StubServer() as stub:
        new_run(both(stub.base_url))


def test_clients_for_server_pages_share_one_ssl_context(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building a context reads the CA bundle (about 17 ms of CPU); the token count
    asks for a client every turn, so a new context each time would cost every turn."""
    built = []
    original = ssl.create_default_context

    def counted(*args: Any, **kwargs: Any) -> ssl.SSLContext:
        built.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(ssl, "create_default_context", counted)
    for _ in range(5):
        new_run(probe.http_client(1.0).aclose())
    assert len(built) <= 1


def test_a_page_client_takes_the_callers_timeout_and_headers_and_verifies_tls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[dict[str, Any]] = []
    monkeypatch.setattr(probe.httpx, "AsyncClient", lambda **kwargs: made.append(kwargs))
    probe.http_client(2.5, {"Authorization": "Bearer k"})
    probe.http_client(1.0)
    context = probe._ssl_context()
    assert made == [
        {"timeout": 2.5, "headers": {"Authorization": "Bearer k"}, "verify": context},
        {"timeout": 1.0, "headers": None, "verify": context},
    ]
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
