"""CI regression of scoring: recorded replies through the real scorers must reproduce
results/regression/baseline.json field for field. After an intended change run
`python tests/support/regression.py baseline` and review the diff."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from support.regression import BASELINE, REPLIES, build_replies, differences, replay, snapshot


@pytest.fixture(scope="module")
def current(tmp_path_factory: pytest.TempPathFactory) -> dict:  # type: ignore[type-arg]
    return snapshot(replay(tmp_path_factory.mktemp("regression")))


def test_recorded_replies_are_what_the_builder_makes() -> None:
    recorded = json.loads(REPLIES.read_text(encoding="utf-8"))
    assert recorded == build_replies(), "run: python tests/support/regression.py replies"


def test_every_score_matches_the_baseline(current: dict) -> None:  # type: ignore[type-arg]
    baseline = json.loads(BASELINE.read_text(encoding="utf-8"))
    changed = differences(baseline, current)
    assert not changed, (
        f"{len(changed)} scoring field(s) changed; if intended, run "
        "`python tests/support/regression.py baseline` and commit the diff:\n"
        + "\n".join(changed[:40])
    )


def test_the_cases_cover_winners_tiebreaks_swaps_and_every_failure(current: dict) -> None:  # type: ignore[type-arg]
    reasons = {c["rubric"]["metadata"].get("winner_reason") for c in current.values()}
    assert reasons >= {"total", "steelman_tiebreak", "coin_toss"}
    unscored = [n for n, c in current.items() if isinstance(c["rubric"]["value"], str | float)]
    assert len(unscored) >= 10
    assert current["biased-to-side-a"]["rubric"]["value"]["swap_flipped"] == 1
    # debatebench's own judge gave con the win in all nine mirror debates.
    mirrors = [current[f"mirror-{n}"]["rubric"] for n in (1, 3, 4, 5, 7, 8, 9, 10, 11)]
    assert {rubric["metadata"]["winner"] for rubric in mirrors} == {"con"}


def test_a_single_changed_number_or_winner_is_caught() -> None:
    baseline = json.loads(BASELINE.read_text(encoding="utf-8"))
    figure = ("metadata", "figures", "pro_clarity")
    for path, new in ((("value", "pro_total"), 3.0), (figure, 3.0), (("answer",), "pro")):
        changed = copy.deepcopy(baseline)
        node = changed["mirror-1"]["rubric"]
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = new
        assert len(differences(baseline, changed)) == 1


def test_the_frozen_transcripts_are_attributed() -> None:
    readme = (Path(BASELINE).parent / "README.md").read_text(encoding="utf-8")
    assert "MIT" in readme and "debatebench 0.1.2" in readme
