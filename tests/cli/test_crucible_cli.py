"""The crucible as a user runs it: the real `inspect` command and the project's commands,
the real `ollama/` provider, a loopback stub server answering as scripted sides and judges."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from inspect_ai.event import ModelEvent
from inspect_ai.log import list_eval_logs, read_eval_log

from debatebench_eval.truth_crucible.record import CrucibleRecord

from support.commands import INSPECT, only_log, run
from support.crucible_replies import Behaviour, replace, wire_responder
from support.stub_server import StubBehaviour, StubServer

DEMO = [
    "eval",
    "debatebench/crucible",
    "--model",
    "ollama/stub",
    "-T",
    "rounds=1",
    "-T",
    "claims=3",
    "-T",
    "judges=2",
]
BEFORE_ROUND_ONE = ("crucible_queries", "crucible_claims", "crucible_conflicts")


@pytest.fixture(autouse=True)
def private_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBATEBENCH_EVAL_CACHE", str(tmp_path / "index-cache"))
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))


def scripted(behaviour: Behaviour | None = None, **switches: object) -> StubBehaviour:
    responder = wire_responder(behaviour or Behaviour())
    return StubBehaviour(script=responder, **switches)  # type: ignore[arg-type]


def schema_names(requests: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return [
        (r.get("response_format") or {}).get("json_schema", {}).get("name", "") for r in requests
    ]


def test_the_demo_runs_reports_and_graphs_from_the_command_line(tmp_path: Path) -> None:
    with StubServer(scripted()) as stub:
        result = run(DEMO, stub.base_url, tmp_path / "logs")
        names = schema_names(stub.behaviour.requests)
    assert result.returncode == 0, result.stderr
    log = only_log(tmp_path / "logs")
    sample = (log.samples or [])[0]
    assert log.status == "success" and sample.error is None
    record = sample.store_as(CrucibleRecord)
    assert record.complete and len(record.verified()) == 6 and len(record.turns) == 2
    score = (sample.scores or {})["crucible_score"]
    lead, tier = score.answer.split(" · ")  # type: ignore[union-attr]
    assert tier in ("RESOLVED", "CONTESTED_BUT_LEANING", "UNRESOLVED")
    assert lead in ("PRO leads", "CON leads", "no side leads")
    assert score.value["judges"] == 2 and score.value["evidence_verified_rate"] == 1
    assert names.count("crucible_scores") == 2 and names.count("crucible_turn") == 2

    out = tmp_path / "out"
    for action in ("report", "graph"):
        done = subprocess.run(
            ["debatebench-eval", "crucible", action, str(log.location), "-o", str(out)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
    report = (out / "example" / "final_report.md").read_text("utf-8")
    assert "## Limitations" in report and "Alderwick" in report
    assert (out / "example" / "conflicts.md").read_text("utf-8").startswith("# Conflicts")
    graph = nx.read_graphml(out / "example" / "argument_graph.graphml", force_multigraph=True)
    kinds = {a["kind"] for _, a in graph.nodes(data=True)}
    assert kinds == {"claim", "conflict"}
    assert {a["kind"] for _, _, a in graph.edges(data=True)} == {"attacks", "participates_in"}
    assert (out / "example" / "argument_graph.json").is_file()


def test_eval_retry_resumes_a_crashed_topic_where_it_stopped(tmp_path: Path) -> None:
    # The server crashes after the claims and conflicts: the first turn of round 1 fails.
    with StubServer(scripted(fail_after=5)) as stub:
        port = stub.port
        run([*DEMO, "--max-retries", "1"], stub.base_url, tmp_path / "first")
        first_names = schema_names(stub.behaviour.requests)
    first = only_log(tmp_path / "first")
    sample = (first.samples or [])[0]
    assert sample.error is not None and "round 1 (push), pro" in sample.error.message
    assert sorted(first_names[:5]) == sorted(BEFORE_ROUND_ONE[:2] * 2 + BEFORE_ROUND_ONE[2:])
    with StubServer(scripted(), port=port) as again:
        retried = run(["eval-retry", str(first.location)], again.base_url, tmp_path / "retry")
        resumed = schema_names(again.behaviour.requests)
    assert retried.returncode == 0, retried.stderr
    log = only_log(tmp_path / "retry")
    sample = (log.samples or [])[0]
    assert log.status == "success" and sample.store_as(CrucibleRecord).complete
    # Nothing the crashed run had finished is asked again: it is replayed from the cache.
    assert not set(resumed) & set(BEFORE_ROUND_ONE)
    assert resumed[0] == "crucible_turn"
    replayed = [e for e in sample.events if isinstance(e, ModelEvent) and e.cache == "read"]
    assert len(replayed) == 5


def replayed_calls(sample: Any) -> int:
    return sum(isinstance(e, ModelEvent) and e.cache == "read" for e in sample.events)


def test_a_second_fresh_run_of_the_same_topic_asks_the_server_again(tmp_path: Path) -> None:
    with StubServer(scripted()) as stub:
        first = run(DEMO, stub.base_url, tmp_path / "first")
        asked_first = len(stub.behaviour.requests)
        second = run(DEMO, stub.base_url, tmp_path / "second")
        asked_second = len(stub.behaviour.requests) - asked_first
    assert first.returncode == 0 and second.returncode == 0, second.stderr
    assert asked_second == asked_first > 0  # nothing replayed from the first run
    assert replayed_calls((only_log(tmp_path / "second").samples or [])[0]) == 0


def test_eval_retry_asks_again_the_call_that_failed_on_a_bad_reply(tmp_path: Path) -> None:
    # CON's claims are not JSON, and neither is their repair: the topic fails there.
    def broken(system: str, prompt: str, schema: dict[str, Any]) -> str:
        return "not json"

    bad = Behaviour(overrides={"crucible_claims": replace(broken, side="con", times=2)})
    with StubServer(scripted(bad)) as stub:
        port = stub.port
        run(DEMO, stub.base_url, tmp_path / "first")
    first = only_log(tmp_path / "first")
    sample = (first.samples or [])[0]
    assert sample.error is not None and "propose: claims, con" in sample.error.message
    with StubServer(scripted(), port=port) as again:
        retried = run(["eval-retry", str(first.location)], again.base_url, tmp_path / "retry")
        resumed = again.behaviour.requests
    assert retried.returncode == 0, retried.stderr
    log = only_log(tmp_path / "retry")
    sample = (log.samples or [])[0]
    assert log.status == "success" and sample.store_as(CrucibleRecord).complete
    # The failed claims are asked again (the bad reply was never kept); the queries
    # and PRO's claims, which passed, are replayed.
    claims = [r for r in resumed if schema_names([r]) == ["crucible_claims"]]
    assert len(claims) == 1 and "CON advocate" in json.dumps(claims[0]["messages"][0])
    assert "crucible_queries" not in schema_names(resumed)
    assert replayed_calls(sample) == 3


def test_eval_retry_resumes_a_killed_run_replaying_its_finished_calls(tmp_path: Path) -> None:
    # The run is killed (SIGKILL) while its first turn of round 1 is being answered.
    reached, release = threading.Event(), threading.Event()
    answer = wire_responder(Behaviour())

    def hold_the_first_turn(request: dict[str, Any]) -> str | None:
        if schema_names([request]) == ["crucible_turn"]:
            reached.set()
            release.wait(timeout=120)
        return answer(request)

    with StubServer(StubBehaviour(script=hold_the_first_turn)) as stub:
        port = stub.port
        process = run(DEMO, stub.base_url, tmp_path / "first", wait=False)
        try:
            assert reached.wait(timeout=300), "the run never reached round 1"
            process.kill()
            process.communicate(timeout=60)
        finally:
            release.set()
    first = only_log(tmp_path / "first")
    assert first.status == "started"  # killed: the log was never finished
    with StubServer(scripted(), port=port) as again:
        retried = run(["eval-retry", str(first.location)], again.base_url, tmp_path / "retry")
        resumed = schema_names(again.behaviour.requests)
    assert retried.returncode == 0, retried.stderr
    log = only_log(tmp_path / "retry")
    sample = (log.samples or [])[0]
    assert log.status == "success" and sample.store_as(CrucibleRecord).complete
    assert not set(resumed) & set(BEFORE_ROUND_ONE) and resumed[0] == "crucible_turn"
    assert replayed_calls(sample) == 5


def test_inspect_score_rejudges_a_saved_crucible(tmp_path: Path) -> None:
    with StubServer(scripted()) as stub:
        first = run(
            [*DEMO, "--model-role", "judge=ollama/judge-one"], stub.base_url, tmp_path / "logs"
        )
        assert first.returncode == 0, first.stderr
        log_file = list_eval_logs(str(tmp_path / "logs"))[0].name
        stub.behaviour.requests.clear()
        rejudged = tmp_path / "rejudged.eval"
        second = subprocess.run(
            [
                INSPECT,
                "score",
                log_file,
                "--scorer",
                "debatebench/crucible_score",
                "--model-role",
                "judge=ollama/judge-two",
                "-S",
                "judges=1",
                "-S",
                "meta_judge=false",
                "--action",
                "append",
                "--output-file",
                str(rejudged),
                "--display",
                "plain",
            ],
            env={**os.environ, "OLLAMA_BASE_URL": stub.base_url, "NO_COLOR": "1"},
            capture_output=True,
            text=True,
            timeout=240,
        )
        judged_by = [r["model"] for r in stub.behaviour.requests]
    assert second.returncode == 0, second.stderr
    scores = (read_eval_log(str(rejudged)).samples or [])[0].scores or {}
    assert [r["model"] for r in scores["crucible_score"].metadata["readings"]] == [
        "ollama/judge-one"
    ] * 2
    assert [r["model"] for r in scores["crucible_score1"].metadata["readings"]] == [
        "ollama/judge-two"
    ]
    assert judged_by == ["judge-two"]  # one reading, nothing of the debate asked again


def test_a_bad_topic_file_is_one_line_naming_file_and_key(tmp_path: Path) -> None:
    topic = tmp_path / "topic.yaml"
    (tmp_path / "corpus" / "a").mkdir(parents=True)
    topic.write_text(
        "topic: {question: 'Q?', pro_position: 'Yes.', con_position: 'No.'}\n"
        "corpus: {root: corpus, classes: {PRO: {dir: a}, CON: {dir: b}}}\n"
    )
    result = subprocess.run(
        [
            INSPECT,
            "eval",
            "debatebench/crucible",
            "--model",
            "ollama/stub",
            "-T",
            f"topic={topic}",
            "--log-dir",
            str(tmp_path / "logs"),
        ],
        env={**os.environ, "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=240,
    )
    output = " ".join((result.stdout + result.stderr).split())  # the console wraps lines
    assert result.returncode == 1
    assert f"{topic}: corpus.classes.CON.dir: 'b' is not a folder" in output
    assert "Traceback" not in output
