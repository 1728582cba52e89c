"""The server probe: a success is remembered (a hundred samples send one probe), a
failure is not (a restarted server is found by the next sample)."""

from __future__ import annotations

import asyncio

import pytest
from inspect_ai.model import Model, get_model

from debatebench_eval.core.errors import ServerError
from debatebench_eval.servers import probe

from support.stub_server import StubServer


def model_at(url: str) -> Model:
    return get_model("openai-api/local/m", base_url=url, api_key="k", memoize=False)


def test_a_success_is_remembered_so_later_samples_send_no_probe() -> None:
    with StubServer() as stub:
        url = stub.base_url
        asyncio.run(probe.ensure_reachable(model_at(url), "pro"))
    # The server is gone; a remembered success sends no probe that could fail.
    asyncio.run(probe.ensure_reachable(model_at(url), "con"))


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

            asyncio.run(hundred())
        finally:
            probe._probe = original  # type: ignore[assignment]
    assert probes == [stub.base_url]


def test_a_failure_is_not_remembered_so_a_restarted_server_is_found() -> None:
    with StubServer() as stub:
        url, port = stub.base_url, stub.port
    with pytest.raises(ServerError, match=rf"at {url} did not answer"):
        asyncio.run(probe.ensure_reachable(model_at(url), "pro"))
    with StubServer(port=port):
        asyncio.run(probe.ensure_reachable(model_at(url), "pro"))
