"""What a played tournament spent, as the leaderboard reports it, against what the
stub served: every prompt it was sent counted by the model that was asked."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from debatebench_eval.tournament.kind import RateOptions
from debatebench_eval.tournament.leaderboard import write_leaderboard

from support.tournaments import run_tournament


def test_the_leaderboards_tokens_are_the_servers_and_priced_tokens_cost_their_price(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "tourney"
    served = run_tournament(folder, "ollama/m1,ollama/m2", limit=1)
    # The stub counts a prompt's words as its tokens (tests/support/stub_server.py).
    sent: Counter[str] = Counter()
    for request in served.requests:
        words = sum(len(str(m.get("content", "")).split()) for m in request["messages"])
        sent[f"ollama/{request['model']}"] += words
    prices = tmp_path / "prices.yaml"
    prices.write_text("ollama/j1: {input: 3, output: 15, input_cache_write: 0, "
                      "input_cache_read: 0}\n")  # fmt: skip
    from debatebench_eval.tournament.cost import read_prices

    write_leaderboard([str(folder)], out=str(tmp_path), plots=False,
                      options=RateOptions(prices=read_prices(str(prices))))  # fmt: skip
    spend = json.loads((tmp_path / "leaderboard.json").read_text())["spend"]
    assert spend["debates"] == 2
    by_model: Counter[str] = Counter()
    for row in spend["models"]:
        by_model[row["model"]] += row["input_tokens"]
    assert by_model == sent
    roles = {(row["model"], row["role"]) for row in spend["models"]}
    assert roles == {("ollama/m1", "debater"), ("ollama/m2", "debater"),
                     ("ollama/j1", "judge"), ("ollama/j2", "judge")}  # fmt: skip
    j1 = next(row for row in spend["models"] if row["model"] == "ollama/j1")
    assert j1["cost"] == pytest.approx((j1["input_tokens"] * 3 + j1["output_tokens"] * 15) / 1e6)
    assert spend["cost"] is None and spend["priced_in_part"], "the others are not priced"
    text = (tmp_path / "leaderboard.md").read_text()
    assert "## Tokens and cost" in text and "| ollama/j1 | judge | 2 |" in text
