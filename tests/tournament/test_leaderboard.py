"""leaderboard.json, leaderboard.md and the plots, from a played tournament."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.task_versions import TASK_VERSIONS
from debatebench_eval.tournament.kind import RateOptions
from debatebench_eval.tournament.leaderboard import write_leaderboard


def test_the_leaderboard_holds_every_figure_and_its_caveats(played: Path, tmp_path: Path) -> None:
    written = write_leaderboard([str(played)], out=str(tmp_path), plots=False)
    names = ("leaderboard.json", "leaderboard.md", "leaderboard.html", "leaderboard.eval")
    assert written == [f"{tmp_path}/{name}" for name in names]
    board = json.loads((tmp_path / "leaderboard.json").read_text())
    assert set(board) >= {"tournament", "settings", "counts", "models", "side_advantage",
                          "length_control", "head_to_head", "judges", "caveats", "bootstrap",
                          "separation", "fit"}  # fmt: skip
    assert board["settings"]["points_per_logit"] == pytest.approx(173.7178, abs=1e-4)
    assert board["fit"]["cross_validated"]["folds"] == 2  # two motions, one held out each
    assert len(board["tournament"]["logs"]) == 3
    assert board["tournament"]["identity"]["judges"] == ["ollama/j1", "ollama/j2"]
    motions = [m["id"] for m in board["tournament"]["motions"]]
    assert motions == ["carbon-tax", "universal-basic-income"]
    assert board["counts"]["scheduled"] == 12 and board["counts"]["eligible_matchups"] == 6
    assert [r["model"] for r in board["models"]] == ["ollama/m3", "ollama/m2", "ollama/m1"]
    row = board["models"][0]
    for key in ("rating", "length_controlled", "win_rate", "rank_range", "mean_margin",
                "tokens_per_debate", "budget_hit_rate", "dimensions"):  # fmt: skip
        assert key in row
    assert board["settings"]["resamples"] == 1000 and board["bootstrap"]["motions"] == 2
    caveats = " ".join(board["caveats"])
    for expected in ("The judges are LLMs", "6 of 6 matchups are eligible", "cluster bootstrap",
                     "half a win", "Separated results", "cannot be compared across"):  # fmt: skip
        assert expected in caveats
    text = (tmp_path / "leaderboard.md").read_text()
    assert "| rank | model | rating | length-controlled | win rate |" in text
    assert "## Caveats" in text and "## Judges" in text and "## Excluded debates" in text
    assert "## What the scale means" in text and "173.7 rating points per logit" in text
    # The debate task's version each pair's log was made by, in the data and on the page.
    assert board["tournament"]["task_versions"] == {"debate": [str(TASK_VERSIONS["debate"])]}
    assert {log["task_version"] for log in board["tournament"]["logs"]} == {TASK_VERSIONS["debate"]}
    assert f"Task versions: debate {TASK_VERSIONS['debate']}." in text


def test_the_plots_are_drawn(played: Path, tmp_path: Path) -> None:
    written = write_leaderboard([str(played)], out=str(tmp_path))
    pngs = [p for p in written if p.endswith(".png")]
    assert [Path(p).name for p in pngs] == ["ratings.png", "head_to_head.png",
                                            "judge_agreement.png"]  # fmt: skip
    for path in pngs:
        assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_rate_options_are_named(played: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--anchor: 'ollama/m9' is not in this tournament"):
        write_leaderboard([str(played)], out=str(tmp_path), options=RateOptions("ollama/m9"))
    with pytest.raises(ConfigError, match="--resamples: got 10"):
        write_leaderboard([str(played)], out=str(tmp_path), options=RateOptions(resamples=10))


def test_human_labels_add_prediction_powered_figures(played: Path, tmp_path: Path) -> None:
    from debatebench_eval.annotation.items import load_items

    items = sorted((i for i in load_items(played) if i.verdict and i.verdict.winner),
                   key=lambda i: i.item)  # fmt: skip
    # People disagree with the judge on every debate they label (half of them).
    flip = {"pro": "con", "con": "pro", "tie": "pro"}
    rows = [{"item": i.item, "digest": i.digest, "annotator": "ada", "a_side": "pro",
             "winner": "A" if flip[i.verdict.winner] == "pro" else "B",  # type: ignore[union-attr]
             "labelled_at": "2026-12-05T09:00:00Z", "page": "p"} for i in items[:6]]  # fmt: skip
    rows.append({**rows[0], "item": "elsewhere.eval:x:1"})
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(row) + "\n" for row in rows))
    human_options = RateOptions(human=[str(labels)])
    write_leaderboard([str(played)], out=str(tmp_path), plots=False, options=human_options)
    human = json.loads((tmp_path / "leaderboard.json").read_text())["human"]
    assert human["labelled_debates"] == 6 and human["rated_debates"] == 12
    assert human["not_used"] == [f"{labels}: line 7: item elsewhere.eval:x:1 is not in the "
                                 "folder; not used"]  # fmt: skip
    rates = human["win_rates"]
    assert all(rate["ppi"] is not None for rate in rates.values())
    assert set(human["ratings"]["models"]) == set(rates)
    text = (tmp_path / "leaderboard.md").read_text()
    assert "## Human labels (prediction-powered inference)" in text
    assert "6 of 12 rated debates labelled by people" in text
    with pytest.raises(ConfigError, match="none of the labels is for a debate of these folders"):
        write_leaderboard([str(played)], out=str(tmp_path), plots=False,
                          options=RateOptions(human=[str(_only(labels, rows[-1]))]))  # fmt: skip


def _only(labels: Path, row: dict[str, object]) -> Path:
    path = labels.with_name("other.jsonl")
    path.write_text(json.dumps(row) + "\n")
    return path
