"""`tournament rate` over debates judged elsewhere: an outcomes table (CSV, JSONL)
and a folder of debatebench 0.1.x transcripts with their score files."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.cli.main import main
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.matches.results import DebateResult
from debatebench_eval.tournament.judged_elsewhere import read_debatebench, read_outcomes
from debatebench_eval.tournament.leaderboard import write_leaderboard
from debatebench_eval.tournament.standings import Options, standings

from support.planted_defects import CLEAN, JUDGES, drawn
from support.rejudging import debatebench_folder
from support.tournaments import synthetic_results

STRENGTHS = {"ollama/a": -0.6, "ollama/b": 0.0, "ollama/c": 0.6}
COLUMNS = ["motion", "pro", "con", "winner", "margin", "judge", "pro_words", "con_words"]


def rows_of(results: list[DebateResult]) -> list[dict[str, Any]]:
    """Our debates as an outcomes table would hold them."""
    rows = []
    for d in results:
        assert d.totals is not None
        winner = {1.0: "pro", 0.0: "con", 0.5: "tie"}[d.result or 0.0]
        words = {f"{s}_words": d.sides[s].words for s in ("pro", "con")}
        rows.append({"motion": d.motion, "pro": d.pro, "con": d.con, "winner": winner,
                     "margin": abs(d.totals["pro"] - d.totals["con"]), "judge": "ollama/j1",
                     **words})  # fmt: skip
    return rows


def write_csv(path: Path, rows: list[dict[str, Any]], columns: list[str] = COLUMNS) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def rate(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "board"
    assert main(["tournament", "rate", *args, "--out", str(out), "--no-plots",
                 "--resamples", "200"]) == 0  # fmt: skip
    board: dict[str, Any] = json.loads((out / "leaderboard.json").read_text())
    return board


def test_an_outcomes_table_rates_as_the_same_debates_of_ours(tmp_path: Path) -> None:
    results = synthetic_results(STRENGTHS, motions=6, seed=2, words={"ollama/c": 600},
                                words_effect=0.3)  # fmt: skip
    ours = standings(results, sorted(STRENGTHS), ("ollama/j1",), Options(resamples=200))
    csv_board = rate(tmp_path, "--outcomes", str(write_csv(tmp_path / "o.csv", rows_of(results))))
    jsonl = write_jsonl(tmp_path / "o.jsonl", rows_of(results))
    jsonl_board = rate(tmp_path, "--outcomes", str(jsonl))
    for board in (csv_board, jsonl_board):
        assert board["tournament"]["source"] == "outcomes"
        assert board["counts"]["eligible_matchups"] == ours["counts"]["eligible_matchups"] == 18
        for theirs, mine in zip(board["models"], ours["models"], strict=True):
            assert theirs["model"] == mine["model"]
            for key in ("rating", "length_controlled", "win_rate"):
                assert theirs[key] == pytest.approx(mine[key], abs=1e-9)
            assert theirs["mean_margin"] == pytest.approx(mine["mean_margin"])
            assert theirs["tokens_per_debate"] is None  # the table gave no tokens
        assert board["side_advantage"]["logit"] == pytest.approx(ours["side_advantage"]["logit"])
        assert board["fit"]["cross_validated"]["log_loss"] == pytest.approx(
            ours["fit"]["cross_validated"]["log_loss"]
        )
        assert board["length_control"]["unit"] == "words"
    text = (tmp_path / "board" / "leaderboard.md").read_text()
    assert "from an outcomes file, judged by ollama/j1" in text
    assert "## What the scale means" in text


def test_tokens_stand_in_for_words_and_a_missing_margin_is_not_made_up(tmp_path: Path) -> None:
    results = synthetic_results(STRENGTHS, motions=4, seed=3, words={"ollama/c": 600})
    rows = [{**row, "pro_tokens": row["pro_words"], "con_tokens": row["con_words"]}
            for row in rows_of(results)]  # fmt: skip
    columns = ["motion", "pro", "con", "winner", "pro_tokens", "con_tokens"]
    board = rate(tmp_path, "--outcomes", str(write_csv(tmp_path / "t.csv", rows, columns)))
    assert board["length_control"]["unit"] == "tokens"
    assert all(row["mean_margin"] is None for row in board["models"])
    assert "Length control uses tokens spoken" in " ".join(board["caveats"])


def test_one_motion_gives_no_interval_and_no_rank_range_never_nan(tmp_path: Path) -> None:
    results = [d for d in synthetic_results(STRENGTHS, motions=2, seed=4) if d.motion == "q0000"]
    board = rate(tmp_path, "--outcomes", str(write_jsonl(tmp_path / "o.jsonl", rows_of(results))))
    assert board["bootstrap"]["motions"] == 1
    assert all(row["rank_range"] is None for row in board["models"])
    assert all(row["rating"]["low"] is None for row in board["models"])
    assert "No intervals: they come from a bootstrap over motions" in " ".join(board["caveats"])
    assert board["possible_first"] is None, "unknown, not 'no model could be #1'"
    assert (
        "Could be #1 (95% rank range includes 1): not known"
        in (tmp_path / "board" / "leaderboard.md").read_text()
    )
    for name in ("leaderboard.md", "leaderboard.html"):
        assert "nan" not in (tmp_path / "board" / name).read_text().lower(), name


def test_a_lone_debate_a_repeat_and_self_play_are_listed_not_rated(tmp_path: Path) -> None:
    rows = [
        {"motion": "m1", "pro": "x", "con": "y", "winner": "pro"},
        {"motion": "m1", "pro": "y", "con": "x", "winner": "tie"},
        {"motion": "m1", "pro": "y", "con": "x", "winner": "con"},  # a repeat of line 3
        {"motion": "m2", "pro": "x", "con": "y", "winner": "con"},  # its twin is absent
        {"motion": "m2", "pro": "x", "con": "x", "winner": "con"},  # the same model twice
    ]
    found = read_outcomes(str(write_jsonl(tmp_path / "o.jsonl", rows)))
    by_status = {(d.motion, d.pro, d.status) for d in found.results}
    assert by_status == {("m1", "x", "scored"), ("m1", "y", "scored"), ("m2", "x", "scored"),
                         ("m2", "y", "missing")}  # fmt: skip
    assert [d["kept"] for d in found.duplicates] == [f"{tmp_path / 'o.jsonl'}:2"]
    assert found.skipped == [{"log": f"{tmp_path / 'o.jsonl'}:5",
                              "why": "the same model (x) on both sides: no matchup"}]  # fmt: skip
    matchup = next(d for d in found.results if d.motion == "m1" and d.pro == "y")
    assert matchup.result == 0.5 and matchup.pair == ("x", "y") and matchup.swapped
    board = rate(tmp_path, "--outcomes", str(tmp_path / "o.jsonl"))
    assert board["counts"]["eligible_matchups"] == 1 and board["counts"]["missing"] == 1
    assert len(board["counts"]["duplicates"]) == 1


GOOD = "motion,pro,con,winner,margin,pro_tokens\nm1,x,y,pro,3,100\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD + "m1,y,x,draw,,5\n",
         "line 3, column 'winner': got 'draw'; expected pro, con or tie."),
        (GOOD + "m1,y,x,con,-2,5\n",
         "line 3, column 'margin': got '-2'; expected a number, 0 or more."),
        (GOOD + "m1,y,x,con,0,5\n",
         "line 3, column 'margin': got 0 for a win by con; expected more than 0, or nothing."),
        (GOOD + "m1,y,x,con,1,lots\n",
         "line 3, column 'pro_tokens': got 'lots'; expected a number, 0 or more."),
        (GOOD + "m1,y,x,con,1,2.5\n",
         "line 3, column 'pro_tokens': got '2.5'; expected a whole number, 0 or more."),
        (GOOD + ",y,x,con,1,2\n",
         "line 3, column 'motion': got None; expected a non-empty text."),
        (GOOD + "m1,y,x,con\n", "line 3: 4 values; expected 6, one per column of the header."),
        ("motion,pro,con,margin\nm1,x,y,1\n",
         "line 1, column 'winner': it is missing; expected the columns motion, pro, con, "
         "winner in every row."),
        ("motion,pro,con,winner,score\n",
         "line 1, column 'score': an unknown column; expected one of motion, pro, con, winner, "
         "margin, pro_margin, judge, pro_words, con_words, pro_tokens, con_tokens, or "
         "judge:NAME."),
        ("motion,pro,con,winner,judge:j1\nm1,x,y,pro,draw\n",
         "line 2, column 'judge:j1': got 'draw'; expected pro, con or tie (that judge's "
         "verdict), or nothing."),
        ("motion,pro,con,winner,judge,judge:j1\n",
         "line 1, column 'judge': given with judge:NAME columns; expected one judge (judge) "
         "or each judge's verdict (judge:NAME)."),
    ],
)  # fmt: skip
def test_a_malformed_csv_row_is_named_by_file_line_and_column(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(ConfigError) as bad:
        read_outcomes(str(path))
    assert str(bad.value) == f"{path}, {message}"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[1, 2]", "line 2: a JSON list; expected one JSON object a line."),
        ("{nope", "line 2: not JSON ("),
        ('{"motion": "m1", "pro": "y", "con": "x", "winner": "con", "margin": true}',
         "line 2, column 'margin': got True; expected a number, 0 or more."),
        ('{"motion": "m1", "pro": 7, "con": "x", "winner": "con"}',
         "line 2, column 'pro': got 7; expected a non-empty text."),
        ('{"motion": "m1", "pro": "y", "winner": "con"}',
         "line 2, column 'con': it is missing; expected the columns"),
    ],
)  # fmt: skip
def test_a_malformed_jsonl_row_is_named_by_file_line_and_column(
    tmp_path: Path, line: str, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"motion": "m1", "pro": "x", "con": "y", "winner": "pro"}\n' + line + "\n")
    with pytest.raises(ConfigError) as bad:
        read_outcomes(str(path))
    assert str(bad.value).startswith(f"{path}, {message}")


def test_the_command_prints_one_line_for_a_bad_row_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(GOOD + "m1,y,x,draw,,5\n")
    assert main(["tournament", "rate", "--outcomes", str(path), "--no-plots"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{path}, line 3, column 'winner'" in err[0]
    assert "Traceback" not in err[0]


def test_one_source_at_a_time(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "o.csv", [])
    with pytest.raises(ConfigError, match="both LOG_DIR"):
        write_leaderboard([str(tmp_path)], out=str(tmp_path), outcomes=str(path))
    with pytest.raises(ConfigError, match="no source given"):
        write_leaderboard([], out=str(tmp_path))
    with pytest.raises(ConfigError, match="it has no rows"):
        read_outcomes(str(path))
    with pytest.raises(ConfigError, match=r"expected a \.csv or \.jsonl file"):
        read_outcomes(str(tmp_path / "o.txt"))


def test_a_folder_of_debatebench_score_files_is_rated(tmp_path: Path) -> None:
    folder = debatebench_folder(tmp_path)
    found = read_debatebench([str(folder)])
    assert {(d.pro, d.con) for d in found.results} == {("a", "b"), ("b", "a"), ("a", "c"),
                                                       ("c", "a")}  # fmt: skip
    assert len(found.skipped) == 5  # the five self-played mirror debates
    assert found.judges == ("gemma4:12b",)
    debate = next(d for d in found.results if d.pro == "a" and d.con == "b")
    assert debate.result == 0.0  # con won every mirror debate
    assert debate.totals is not None and debate.totals["con"] > debate.totals["pro"]
    assert debate.sides["pro"].words > 100 and debate.sides["pro"].output_tokens > 0
    board = rate(tmp_path, str(folder))
    assert board["tournament"]["source"] == "debatebench"
    assert board["counts"]["eligible_matchups"] == 2
    assert [r["model"] for r in board["models"] if r["rating"]] != []
    assert board["side_advantage"]["logit"]["value"] < 0  # con won all four
    text = (tmp_path / "board" / "leaderboard.md").read_text()
    assert "from debatebench score files, judged by gemma4:12b" in text
    assert "## Rubric dimensions" in text


def test_a_malformed_score_file_is_named_by_file_and_key(tmp_path: Path) -> None:
    folder = debatebench_folder(tmp_path)
    path = folder / "mirror-3-scores.json"
    sheet = json.loads(path.read_text())
    sheet["sides"][1]["total"] = "high"
    path.write_text(json.dumps(sheet))
    with pytest.raises(ConfigError) as bad:
        read_debatebench([str(folder)])
    assert str(bad.value) == f"{path}, key 'sides[1].total': got 'high'; expected a number."


GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "tournaments.md"


def test_the_guides_example_outcomes_file_reads_as_it_says(tmp_path: Path) -> None:
    """The docs' example: a signed margin (pro - con) and a tie with a non-zero margin."""
    text = GUIDE.read_text(encoding="utf-8").split("```csv\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "example.csv"
    path.write_text(text, encoding="utf-8")
    found = read_outcomes(str(path))
    by_line = {d.log.rsplit(":", 1)[1]: d for d in found.results}
    assert by_line["2"].totals == {"pro": 12.5, "con": 0.0}  # pro led by 12.5
    assert by_line["3"].totals == {"pro": 0.0, "con": 4.0}  # con led: pro - con = -4
    assert by_line["4"].result == 0.5 and by_line["4"].totals == {"pro": 0.0, "con": 0.0}
    assert all(d.margin_known and d.status == "scored" for d in found.results)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("m1,y,x,con,,3\n",
         "column 'pro_margin': got 3 for a win by con; expected a number below 0 (pro - con)."),
        ("m1,y,x,pro,,0\n",
         "column 'pro_margin': got 0 for a win by pro; expected a number above 0 (pro - con)."),
        ("m1,y,x,pro,2,2\n",
         "column 'pro_margin': given with margin; expected one of margin (the winner's lead) "
         "or pro_margin (pro - con)."),
        ("m1,y,x,pro,,many\n", "column 'pro_margin': got 'many'; expected a number."),
    ],
)  # fmt: skip
def test_a_signed_margin_must_agree_with_the_winner(tmp_path: Path, row: str, message: str) -> None:
    path = tmp_path / "signed.csv"
    path.write_text("motion,pro,con,winner,margin,pro_margin\n" + row)
    with pytest.raises(ConfigError) as bad:
        read_outcomes(str(path))
    assert str(bad.value) == f"{path}, line 2, {message}"


def test_per_judge_columns_give_the_judge_aware_rating_and_every_robustness_figure(
    tmp_path: Path,
) -> None:
    """`judge:NAME` columns, each judge's own verdict: the third judge answers at random
    and weighs least; the board has robustness, cycles and possible_first."""
    results = drawn(CLEAN, 20, judges=(1.0, 1.0, 0.0), seed=4)
    names = [f"judge:{j}" for j in JUDGES]
    rows = [{"motion": d.motion, "pro": d.pro, "con": d.con,
             "winner": "pro" if d.result == 1 else "con",
             **{name: v.winner for name, v in zip(names, d.judges, strict=True)}}
            for d in results]  # fmt: skip
    rows[0][names[2]] = ""  # a judge that did not read a debate
    path = write_csv(tmp_path / "panel.csv", rows, ["motion", "pro", "con", "winner", *names])
    board = rate(tmp_path, "--outcomes", str(path))
    weights = {j["judge"]: j for j in board["judge_aware"]["judges"]}
    assert weights["ollama/j3"]["readings"] == len(results) - 1
    assert weights["ollama/j3"]["weight"]["high"] < 1 / 6
    assert [a["defect"] for a in board["diagnostics"]] == ["weak_judge"]
    assert board["possible_first"] == ["ollama/a"] and board["cycles"] == []
    assert board["robustness"]["pairs"][0]["ahead"] == "ollama/a"
    text = (tmp_path / "board" / "leaderboard.md").read_text()
    assert "## Judges weighed by how well they judge" in text and "Weak judge: ollama/j3" in text
