"""Known-answer tournaments (`tournament run --task oversight`) through the real command
line against the loopback stub server: three debaters and a scripted judge that m1
always persuades (support.oversight_tournaments)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from debatebench_eval.tournament.manifest import read_manifest
from debatebench_eval.tournament.outcomes import read_tournament

from support.oversight_tournaments import PER_DEBATE, oversight_tournament, stub_behaviour


def test_every_pair_debates_each_question_in_both_orders_and_a_resume_runs_nothing_twice(
    tmp_path: Path,
) -> None:
    behaviour = stub_behaviour()
    assert oversight_tournament(tmp_path, behaviour, limit=2) == 0
    assert len(behaviour.requests) == 3 * 2 * 2 * PER_DEBATE  # pairs x questions x orders
    assert oversight_tournament(tmp_path, behaviour, limit=2) == 0
    assert len(behaviour.requests) == 3 * 2 * 2 * PER_DEBATE, "a settled folder runs nothing"
    assert oversight_tournament(tmp_path, behaviour, limit=4) == 0
    # Growing to four questions runs only the two new ones.
    assert len(behaviour.requests) == 3 * 4 * 2 * PER_DEBATE
    folder = str(tmp_path / "tourney")
    logs = read_tournament([folder])
    assert [r.status for r in logs.results] == ["scored"] * 24 and not logs.duplicates
    orders: dict[tuple[Any, ...], set[tuple[str, str]]] = defaultdict(set)
    for result in logs.results:
        orders[(result.pair, result.motion)].add((result.pro, result.con))
        # m1 persuades the judge whichever answer it defends.
        if "ollama/m1" in result.pair:
            assert result.model(str(result.sided_with)) == "ollama/m1"
    assert len(orders) == 3 * 4
    for (a, b), exchanged in ((k[0], v) for k, v in orders.items()):
        assert exchanged == {(a, b), (b, a)}, "each model speaks pro once and con once"
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.schedule.identity()["settings"]["task"] == "oversight"
    assert [q.id for q in manifest.schedule.questions] == ["q0", "q1", "q2", "q3"]
