"""Logs back to debate results: eligibility, ties, failures, duplicates, other tournaments.

One small tournament is played against the stub (3 models, 2 motions, 12 debates);
each test copies its logs, edits a sample as a real failure would leave it, and
reads the copy back.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log, write_eval_log
from inspect_ai.scorer import SampleScore, Score

from debatebench_eval.core._inspect import TASK_IDENTIFIER_VERSION, task_identifier
from debatebench_eval.matches.results import eligible_debates, excluded
from debatebench_eval.tournament.outcomes import rated, read_tournament
from debatebench_eval.tournament.rubric_board import figures, markdown
from debatebench_eval.tournament.standings import Options

from support.tournaments import MODELS, run_tournament


def copy_of(played: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "copy"
    shutil.copytree(played, folder)
    return folder


def pair_log(folder: Path, task: str = "ollama-m1_vs_ollama-m2") -> EvalLog:
    for info in list_eval_logs(str(folder)):
        log = read_eval_log(info)
        if log.eval.task == task:
            return log
    raise AssertionError(f"no log of {task}")


def edit_sample(folder: Path, sample_id: str, change) -> None:  # type: ignore[no-untyped-def]
    log = pair_log(folder)
    sample = next(s for s in log.samples or [] if s.id == sample_id)
    change(sample)
    write_eval_log(log, log.location)


def test_every_scheduled_debate_is_read_once(played: Path) -> None:
    logs = read_tournament([str(played)])
    assert len(logs.results) == 12 and all(r.status == "scored" for r in logs.results)
    assert len({r.key for r in logs.results}) == 12
    assert len(logs.logs) == 3 and not logs.skipped and not logs.duplicates
    swapped = next(r for r in logs.results if r.pair == ("ollama/m1", "ollama/m2") and r.swapped)
    assert (swapped.pro, swapped.con) == ("ollama/m2", "ollama/m1")
    assert swapped.result == 1.0  # m2 argued pro and beat m1
    assert swapped.sides["pro"].turns == 2 and swapped.sides["pro"].words > 0
    assert [v.winner for v in swapped.judges] == ["pro", "pro"]


def test_judge_agreement_is_the_panel_alpha_the_logs_report(played: Path) -> None:
    from debatebench_eval.judging.metrics import panel_alpha
    from debatebench_eval.judging.panel_agreement import judge_agreement

    scores = []
    for info in list_eval_logs(str(played)):
        for sample in read_eval_log(info).samples or []:
            scores.append(SampleScore(score=sample.scores["rubric"]))
    scored = [r for r in read_tournament([str(played)]).results if r.status == "scored"]
    ours = judge_agreement(scored, ["ollama/j1", "ollama/j2"])["alpha"]
    assert ours == pytest.approx(panel_alpha()(scores)["panel_alpha"])  # type: ignore[index]


def test_an_unscored_debate_excludes_its_matchup_and_is_listed(
    played: Path, tmp_path: Path
) -> None:
    folder = copy_of(played, tmp_path)

    def unscore(sample) -> None:  # type: ignore[no-untyped-def]
        old = sample.scores["rubric"]
        sample.scores["rubric"] = Score.unscored(reason="1 of 2 judges gave a valid score",
                                                 metadata=old.metadata)  # fmt: skip

    edit_sample(folder, "carbon-tax", unscore)
    results = read_tournament([str(folder)]).results
    out = excluded(results)
    assert [(d.motion, d.swapped) for d in out["unscored"]] == [("carbon-tax", False)]
    assert out["unscored"][0].reason == "1 of 2 judges gave a valid score"
    assert [(d.motion, d.swapped) for d in out["twin"]] == [("carbon-tax", True)]
    assert len(eligible_debates(results)) == 10  # never counted as a loss


def test_a_failed_fact_check_is_counted_beside_the_rubrics_unscored(
    played: Path, tmp_path: Path
) -> None:
    folder = copy_of(played, tmp_path)

    def fail_fact_check(sample) -> None:  # type: ignore[no-untyped-def]
        sample.scores["fact_check"] = Score.unscored(reason="fact-check: no ledger")

    edit_sample(folder, "carbon-tax", fail_fact_check)
    logs = read_tournament([str(folder)])
    assert [r.fact_check_failed for r in logs.results].count(True) == 1
    board = figures(rated(logs), Options(resamples=100))
    assert board["counts"]["fact_check_unscored"] == 1
    assert "unscored 0 (fact-checks unscored 1)" in markdown(board)


def test_a_failed_debate_is_listed_with_its_error(played: Path, tmp_path: Path) -> None:
    folder = copy_of(played, tmp_path)
    source = pair_log(played)

    def fail(sample) -> None:  # type: ignore[no-untyped-def]
        from inspect_ai._util.error import EvalError

        sample.error = EvalError(message="ServerError: the server at http://x went away\nmore",
                                 traceback="", traceback_ansi="")  # fmt: skip
        sample.scores = {}

    edit_sample(folder, "universal-basic-income.swapped", fail)
    out = excluded(read_tournament([str(folder)]).results)
    assert [d.reason for d in out["error"]] == ["ServerError: the server at http://x went away"]
    assert len(out["twin"]) == 1
    assert source.status == "success"


def test_a_tie_comes_from_equal_totals_not_from_the_winner(played: Path, tmp_path: Path) -> None:
    folder = copy_of(played, tmp_path)

    def tie(sample) -> None:  # type: ignore[no-untyped-def]
        score = sample.scores["rubric"]
        score.value["con_total"] = score.value["pro_total"]  # winner stays as recorded

    edit_sample(folder, "carbon-tax", tie)
    result = next(r for r in read_tournament([str(folder)]).results
                  if r.pair == ("ollama/m1", "ollama/m2") and r.motion == "carbon-tax"
                  and not r.swapped)  # fmt: skip
    assert result.result == 0.5


def test_a_forfeit_is_a_loss_whatever_the_totals(played: Path, tmp_path: Path) -> None:
    folder = copy_of(played, tmp_path)

    def forfeit(sample) -> None:  # type: ignore[no-untyped-def]
        # m2 (pro here) out-scored m1 but argued the other position: pro forfeits.
        meta = sample.scores["rubric"].metadata
        meta["winner"], meta["winner_reason"] = "con", "stance_forfeit"

    edit_sample(folder, "carbon-tax.swapped", forfeit)
    result = next(r for r in read_tournament([str(folder)]).results
                  if r.pair == ("ollama/m1", "ollama/m2") and r.motion == "carbon-tax"
                  and r.swapped)  # fmt: skip
    assert result.totals is not None and result.totals["pro"] > result.totals["con"]
    assert result.forfeited == "pro" and result.result == 0.0


def test_a_missing_debate_is_listed(played: Path, tmp_path: Path) -> None:
    folder = copy_of(played, tmp_path)
    log = pair_log(folder)
    log.samples = [s for s in log.samples or [] if s.id != "carbon-tax.swapped"]
    write_eval_log(log, log.location)
    out = excluded(read_tournament([str(folder)]).results)
    assert [(d.pro, d.con, d.motion) for d in out["missing"]] == [
        ("ollama/m2", "ollama/m1", "carbon-tax")
    ]


def test_a_debate_in_two_logs_keeps_the_newer_and_lists_the_other(
    played: Path, tmp_path: Path
) -> None:
    folder = copy_of(played, tmp_path)
    log = pair_log(folder)
    older = log.model_copy(deep=True)
    older.eval.created = "2000-01-01T00:00:00+00:00"
    for sample in older.samples or []:
        sample.uuid = f"older-{sample.uuid}"  # a second run of the same debates
    write_eval_log(older, str(folder / "2000-01-01T00-00-00-00-00_older.eval"))
    logs = read_tournament([str(folder)])
    assert len(logs.results) == 12
    assert len(logs.duplicates) == 4
    assert all(d["kept"] == log.location for d in logs.duplicates)


def test_a_log_of_another_tournament_is_skipped(played: Path, tmp_path: Path) -> None:
    folder = copy_of(played, tmp_path)
    log = pair_log(folder)
    log.eval.metadata = {**(log.eval.metadata or {}), "tournament": "another"}
    write_eval_log(log, str(folder / "2000-01-01T00-00-00-00-00_other.eval"))
    logs = read_tournament([str(folder)])
    assert [s["why"] for s in logs.skipped] == ["another tournament"]
    assert len(logs.results) == 12 and not logs.duplicates


def test_existing_pairs_keep_their_identity_when_the_tournament_grows(
    played: Path, tmp_path: Path
) -> None:
    """eval_set resumes by task identity: if the dataset, the motions or the task's
    metadata entered it, adding motions would re-run every pair from scratch."""
    assert TASK_IDENTIFIER_VERSION == 3
    folder = copy_of(played, tmp_path)
    before = {read_eval_log(i, header_only=True).eval.task: task_identifier(
        read_eval_log(i, header_only=True), None) for i in list_eval_logs(str(folder))}  # fmt: skip
    served = run_tournament(folder, MODELS, limit=3)
    assert len(served.requests) == 3 * 2 * 8  # only the new motion, in every pair
    after = {}
    for info in list_eval_logs(str(folder)):
        header = read_eval_log(info, header_only=True)
        after[header.eval.task] = task_identifier(header, None)
        assert header.eval.dataset.samples == 6
    assert after == before


def test_a_verdict_that_did_not_survive_the_swap_is_a_tie_and_the_board_says_the_rule(
    played: Path, tmp_path: Path
) -> None:
    folder = copy_of(played, tmp_path)

    def disagreed(sample) -> None:  # type: ignore[no-untyped-def]
        meta = sample.scores["rubric"].metadata
        meta["winner"], meta["winner_reason"], meta["swap_rule"] = (
            "tie",
            "swap_disagreed",
            "survive",
        )

    edit_sample(folder, "carbon-tax", disagreed)
    source = read_tournament([str(folder)])
    result = next(r for r in source.results
                  if r.pair == ("ollama/m1", "ollama/m2") and r.motion == "carbon-tax"
                  and not r.swapped)  # fmt: skip
    assert result.totals is not None and result.totals["pro"] != result.totals["con"]
    assert result.result == 0.5 and result.opener == "pro"
    board = figures(rated(source), Options(resamples=50))
    assert board["settings"]["swap_rule"] == "mixed: mean, survive"
    text = markdown(board)
    assert "## Judge reliability" in text and "Swap rule: mixed: mean, survive" in text
    assert any("swap_rule=mixed" in note for note in board["caveats"])
