"""What software a model server runs, asked of the server (servers.kind)."""

from __future__ import annotations

import asyncio

import pytest
from inspect_ai.model import get_model

from debatebench_eval.servers import kind

from support.runs import new_run
from support.stub_server import StubBehaviour, StubServer


@pytest.mark.parametrize("server", ["llama-cpp-python", "llama.cpp", "ollama"])
def test_each_server_is_told_by_its_own_page(server: str) -> None:
    with StubServer(StubBehaviour(server=server)) as stub:
        model = get_model("openai-api/local/m", base_url=stub.base_url, api_key="k")
        assert new_run(kind.server_kind(model)) == server


def test_a_server_answering_none_of_the_pages_is_other() -> None:
    with StubServer() as stub:
        model = get_model("openai-api/local/m", base_url=stub.base_url, api_key="k")
        assert new_run(kind.server_kind(model)) == "other"


def test_a_model_without_a_server_has_no_kind() -> None:
    assert new_run(kind.server_kind(get_model("mockllm/model"))) is None


def test_the_answer_is_asked_once_per_server_and_run() -> None:
    async def one_run() -> kind.ServerKind | None:
        with StubServer(StubBehaviour(server="llama.cpp")) as stub:
            model = get_model("openai-api/local/m", base_url=stub.base_url, api_key="k")
            await kind.server_kind(model)
        # The server is gone; the kind is remembered by this run.
        return await kind.server_kind(model)

    assert new_run(one_run()) == "llama.cpp"


def test_judges_asking_at_once_send_one_set_of_questions() -> None:
    behaviour = StubBehaviour(server="llama.cpp")
    with StubServer(behaviour) as stub:
        model = get_model("openai-api/local/m", base_url=stub.base_url, api_key="k")

        async def twenty() -> list[kind.ServerKind | None]:
            return await asyncio.gather(*(kind.server_kind(model) for _ in range(20)))

        assert new_run(twenty()) == ["llama.cpp"] * 20
    assert sorted(behaviour.get_paths) == ["/api/version", "/openapi.json", "/props"]
