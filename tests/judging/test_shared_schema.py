"""A judge's reply schema is rewritten and validated once per content, and Inspect's
copies of a call's settings share it rather than copying it."""

from __future__ import annotations

import copy

from inspect_ai.model import GenerateConfig

from debatebench_eval.judging.options import shared_schema
from debatebench_eval.judging.rubric import default_rubric, reply_schema
from debatebench_eval.servers.schema_forms import server_schema


def test_the_same_schema_content_gives_the_same_response_schema_and_copies_share_it() -> None:
    first = shared_schema("judgment", server_schema(reply_schema(default_rubric()), None))
    again = shared_schema("judgment", server_schema(reply_schema(default_rubric()), None))
    assert again is first
    config = GenerateConfig(max_tokens=10).merge(GenerateConfig(response_schema=first))
    assert config.response_schema is first and copy.deepcopy(config).response_schema is first
    # What is sent is the schema itself, property order kept (a grammar follows it).
    sent = first.json_schema.model_dump(exclude_none=True)
    assert list(sent["properties"]) == ["side_a", "side_b"]


def test_a_rewritten_schema_is_the_callers_own_copy() -> None:
    schema = reply_schema(default_rubric())
    one, two = server_schema(schema, "llama.cpp"), server_schema(schema, "llama.cpp")
    assert one == two and one is not two
    one["properties"].clear()  # a caller changing its copy changes no other call's
    assert server_schema(schema, "llama.cpp") == two
