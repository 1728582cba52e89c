"""The judge's JSON mode, chosen per judge server: `auto` finds llama.cpp's servers
and sends json_object with the schema; a mode the server refuses fails before any
call, naming the option to change."""

from __future__ import annotations

from pathlib import Path

from support.commands import only_log, run
from support.schemas import resolved
from support.stub_server import StubBehaviour, StubServer

DEBATE = ["eval", "debatebench/debate", "--model", "ollama/stub", "--limit", "1",
          "-T", "phases=[opening]", "-T", "fact_check=false"]  # fmt: skip


def judge_requests(stub: StubServer) -> list[dict[str, object]]:
    return [r for r in stub.behaviour.requests if "debater in a formal" not in str(r["messages"])]


def test_auto_sends_json_object_to_llama_cpp_python_and_scores(tmp_path: Path) -> None:
    behaviour = StubBehaviour(server="llama-cpp-python", fill_schemas=True)
    with StubServer(behaviour) as stub:
        process = run(DEBATE, stub.base_url, tmp_path)
        judged = judge_requests(stub)
    assert process.returncode == 0
    sample = (only_log(tmp_path).samples or [])[0]
    rubric = (sample.scores or {})["rubric"]
    assert isinstance(rubric.value, dict), rubric.reason
    assert len(judged) == 2  # two orientations, each well formed at once
    assert all(r["response_format"]["type"] == "json_object" for r in judged)  # type: ignore[index]
    readings = rubric.metadata["readings"][0]["orientations"]  # type: ignore[index]
    assert [reading["json_mode"] for reading in readings] == ["object", "object"]


def test_auto_keeps_json_schema_for_other_servers(tmp_path: Path) -> None:
    with StubServer(StubBehaviour(server="ollama", fill_schemas=True)) as stub:
        run(DEBATE, stub.base_url, tmp_path)
        judged = judge_requests(stub)
    assert judged and all(r["response_format"]["type"] == "json_schema" for r in judged)  # type: ignore[index]
    # Ollama gets the schema itself (Inspect's provider would strip patterns and
    # bounds), in llama.cpp's form: integer bounds, which its converter enforces.
    sent = judged[0]["response_format"]["json_schema"]  # type: ignore[index]
    side = resolved(sent["schema"])["properties"]["side_a"]["properties"]
    assert side["clarity"]["properties"]["score"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 10,
    }
    assert side["clarity"]["properties"]["justification"]["pattern"].startswith("^[0-9A-Za-z")
    assert sent["strict"] is True
    rubric = ((only_log(tmp_path).samples or [])[0].scores or {})["rubric"]
    assert isinstance(rubric.value, dict), rubric.reason


def test_true_against_llama_cpp_python_fails_before_any_judge_call(tmp_path: Path) -> None:
    behaviour = StubBehaviour(server="llama-cpp-python", fill_schemas=True)
    with StubServer(behaviour) as stub:
        run([*DEBATE, "-T", "judge_schema=true"], stub.base_url, tmp_path)
        judged = judge_requests(stub)
    assert judged == []
    sample = (only_log(tmp_path).samples or [])[0]
    assert sample.error is None  # the debate is kept; only the judging failed
    rubric = (sample.scores or {})["rubric"]
    assert not isinstance(rubric.value, dict)
    assert "refuses the json_schema response format" in str(rubric.reason)
    assert "-T judge_schema=auto (or object)" in str(rubric.reason)
