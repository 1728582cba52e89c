"""The throughput benchmark's attribution of sampled stacks: phases, owners, callers."""

from __future__ import annotations

from benchmarks.harness_profile import (
    PROJECT,
    RUN,
    RUN_END,
    STARTUP,
    WAITING,
    attribute,
    parse_raw,
    report,
)

SITE = "/venv/lib/python3.11/site-packages"
LOOP = [
    "<module> (/venv/bin/inspect:6)",
    "BaseEventLoop.run_forever (/py/lib/python3.11/asyncio/base_events.py:607)",
    "BaseEventLoop._run_once (/py/lib/python3.11/asyncio/base_events.py:1922)",
]
SOLVER = "debate_solver.<locals>.solve (/src/debatebench_eval/debating/solver.py:157)"
GENERATE = f"Model.generate ({SITE}/inspect_ai/model/_model.py:1026)"
PYDANTIC = f"BaseModel.__init__ ({SITE}/pydantic/main.py:280)"
BUFFER = (
    f"SampleBufferDatabase.log_events ({SITE}/inspect_ai/log/_recorders/buffer/database.py:346)"
)
JSON_UTIL = f"to_json_safe ({SITE}/inspect_ai/_util/json.py:218)"


def line(frames: list[str], count: int) -> str:
    return f"{';'.join(frames)} {count}"


def test_a_sample_goes_to_the_deepest_owner_through_shared_utilities() -> None:
    stacks = parse_raw(
        [
            line([*LOOP, SOLVER, GENERATE, PYDANTIC], 5),  # pydantic under Inspect's model API
            line([*LOOP, SOLVER, BUFFER, JSON_UTIL], 3),  # Inspect's _util is transparent
            line([*LOOP, SOLVER, PYDANTIC], 2),  # the project's own use of pydantic
        ]
    )
    result = attribute(stacks)
    assert result.phases[RUN] == 10
    assert result.owners["Inspect: model API (generate, config, retries, usage)"] == 5
    assert result.owners["Inspect: live-view sample buffer (SQLite)"] == 3
    assert result.owners[PROJECT] == 2
    assert result.from_project["Inspect: live-view sample buffer (SQLite)"] == 3
    assert result.share(PROJECT) == 0.2


def test_phases_split_start_up_end_of_run_and_parked_threads_from_the_run() -> None:
    importing = "_find_and_load (<frozen importlib._bootstrap>:1176)"
    run_end = f"emit_run_end ({SITE}/inspect_ai/hooks/_hooks.py:689)"
    parked = "Condition.wait (/py/lib/python3.11/threading.py:327)"
    stacks = parse_raw(
        [
            line([*LOOP, importing, PYDANTIC], 7),
            line(["<module> (/venv/bin/inspect:6)", "main (/x/inspect_ai/_cli/main.py:62)"], 4),
            line([*LOOP, run_end, PYDANTIC], 2),
            line(["Thread.run (/py/lib/python3.11/threading.py:982)", parked], 6),
            line([""], 1),
            line([*LOOP, SOLVER], 3),
        ]
    )
    result = attribute(stacks)
    assert result.phases == {STARTUP: 11, RUN_END: 2, WAITING: 7, RUN: 3}
    assert result.owners == {PROJECT: 3}


def test_the_report_gives_milliseconds_per_call_from_the_shares() -> None:
    result = attribute(parse_raw([line([*LOOP, SOLVER], 1), line([*LOOP, SOLVER, GENERATE], 3)]))
    text = "\n".join(report(result, cpu_ms_per_call=8.0))
    assert "75.0%     6.00  (100% called from the project)" in text
    assert "25.0%     2.00" in text
