"""Faults and load against a loopback server: a server killed mid-run, replies
with a broken body, 100 debates at once."""

from __future__ import annotations

import resource
import socket
import threading
import time
from pathlib import Path

import pytest
import yaml

from debatebench_eval.record.store import DebateRecord

from support.commands import only_log, run
from support.stub_server import StubBehaviour, StubServer

DEBATES = ["debatebench/debate", "--model", "ollama/stub", "--limit", "6", "-T", "fact_check=false",
           "-T", "swap_judging=false", "-T", "phases=[opening, conclusion]", "--max-samples", "2",
           "--max-retries", "1", "--timeout", "5"]  # fmt: skip


def test_a_server_killed_mid_run_fails_only_the_debates_in_flight(tmp_path: Path) -> None:
    behaviour = StubBehaviour(latency_s=0.15)
    stub = StubServer(behaviour)

    def die_at_the_16th_request(request: dict[str, object]) -> None:
        # The server dies with debates in flight, at a request count, not a time: 6
        # debates of 3 calls, 2 at a time, so some are done and some are not.
        if len(behaviour.requests) == 16:
            threading.Thread(target=stub.__exit__).start()

    behaviour.script = lambda request: die_at_the_16th_request(request)
    stub.__enter__()
    port, url = stub.port, stub.base_url
    process = run(["eval", *DEBATES], url, tmp_path / "first", wait=False)
    process.communicate(timeout=600)
    first = only_log(tmp_path / "first")
    done = [s for s in first.samples or [] if s.error is None]
    failed = [s for s in first.samples or [] if s.error is not None]
    assert done and failed, "the kill must land between finished and unfinished debates"
    for sample in done:
        assert sample.store_as(DebateRecord).complete
    for sample in failed:
        assert url in sample.error.message, sample.error
        assert not sample.scores  # a failed debate is never scored
    with StubServer(StubBehaviour(), port=port) as again:
        retry = run(["eval-retry", first.location, "--max-retries", "1"], again.base_url,
                    tmp_path / "retry")  # fmt: skip
    assert retry.returncode == 0
    retried = only_log(tmp_path / "retry")
    ids = [str(s.id) for s in retried.samples or []]
    assert retried.status == "success" and sorted(ids) == sorted(
        str(s.id) for s in first.samples or []
    )
    assert len(ids) == len(set(ids)) == 6  # nothing lost, nothing duplicated
    assert all(s.store_as(DebateRecord).complete for s in retried.samples or [])


class HangUp:
    """A loopback port that accepts each connection and closes it unanswered,
    counting the attempts: a server that cannot be used, made countable."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.attempts = 0
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}/v1"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.attempts += 1
            connection.close()


def test_an_unusable_server_is_tried_once_per_debate_and_named(tmp_path: Path) -> None:
    server = HangUp()
    try:
        run(["eval", "debatebench/debate", "--model", "ollama/stub", "--limit", "3",
             "-T", "phases=[opening]", "--max-retries", "5"], server.url, tmp_path)  # fmt: skip
    finally:
        server.socket.close()
    samples = only_log(tmp_path).samples or []
    assert len(samples) == 3
    for sample in samples:
        assert sample.error is not None and not sample.scores
        assert server.url in sample.error.message and "did not answer" in sample.error.message
    # One probe per debate, and no model call behind it: Inspect's retry loop
    # (--max-retries 5) never starts against a server the probe found unusable.
    assert server.attempts == 3


@pytest.mark.parametrize(
    ("broken", "why"),
    [
        ("json", "the server's reply is not valid JSON"),
        ("truncated", "peer closed connection without sending complete message body"),
    ],
)
def test_a_reply_with_a_broken_body_fails_the_turn_and_the_debate(
    tmp_path: Path, broken: str, why: str
) -> None:
    # Only the con side's model breaks, so pro's opening is recorded first: a
    # partial debate, which must fail rather than be scored.
    behaviour = StubBehaviour(broken=broken, broken_models=frozenset({"stub-con"}))
    with StubServer(behaviour) as stub:
        run(["eval", "debatebench/debate", "--model", "ollama/stub", "--model-role",
             "con=ollama/stub-con", "--limit", "1", "-T", "phases=[opening:short, conclusion]",
             "--max-retries", "1"], stub.base_url, tmp_path)  # fmt: skip
    sample = (only_log(tmp_path).samples or [])[0]
    record = sample.store_as(DebateRecord)
    assert [(t.side, t.phase) for t in record.turns] == [("pro", "opening")]
    assert not record.complete and not sample.scores
    assert sample.error is not None
    message = sample.error.message
    assert "phase 0 (opening:short), side con (ollama/stub-con)" in message
    assert stub.base_url in message and why in message


def test_a_hundred_debates_at_once_against_a_slow_server(tmp_path: Path) -> None:
    motions = [{"id": f"m{i:03d}", "motion": f"Motion number {i} should pass."} for i in range(100)]
    path = tmp_path / "motions.yaml"
    path.write_text(yaml.safe_dump({"motions": motions}), encoding="utf-8")
    with StubServer(StubBehaviour(latency_s=0.2)) as stub:
        start = time.monotonic()
        process = run(
            ["eval", "debatebench/debate", "--model", "ollama/stub", "-T", f"motions={path}",
             "-T", "phases=[opening]", "-T", "fact_check=false", "-T", "swap_judging=false",
             "--max-connections", "100", "--max-samples", "100"],
            stub.base_url, tmp_path / "logs",
        )  # fmt: skip
        wall = time.monotonic() - start
        requests = len(stub.behaviour.requests)
    assert process.returncode == 0
    log = only_log(tmp_path / "logs")
    assert log.status == "success" and len(log.samples or []) == 100
    assert all(s.error is None and s.store_as(DebateRecord).complete for s in log.samples or [])
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    # Timed here for a reader (-s), never asserted: speed is the benchmarks' to measure.
    print(f"\n100 debates, {requests} requests at 0.2 s each: {wall:.1f} s, peak RSS {peak:.0f} MB")
    assert requests == 400  # every debate's four calls, none repeated
