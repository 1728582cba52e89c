"""Prediction-powered win rates and ratings: a biased judge, corrected by a few labels."""

from __future__ import annotations

import numpy as np

from debatebench_eval.annotation.human_ratings import debate_key, design, human_lines, human_ratings
from debatebench_eval.matches.results import DebateResult
from debatebench_eval.stats.bradley_terry import ELO_PER_LOGIT, Games, fit

TRUE_A = 0.7  # model a's chance to beat b, whichever side it argues


def _debates(n: int, seed: int = 3) -> tuple[list[DebateResult], dict[tuple[str, str], float]]:
    """n debates of a against b (sides alternating); the truth, and a judge that gives
    pro the win in 35% of the debates con really won."""
    rng = np.random.default_rng(seed)
    debates, truth = [], {}
    for i in range(n):
        pro, con = ("a", "b") if i % 2 else ("b", "a")
        a_won = rng.random() < TRUE_A
        pro_won = a_won == (pro == "a")
        judge_pro = pro_won or rng.random() < 0.35
        totals = {"pro": 60.0, "con": 40.0} if judge_pro else {"pro": 40.0, "con": 60.0}
        debate = DebateResult(pair=("a", "b"), motion=f"m{i}", swapped=pro == "b", pro=pro,
                              con=con, status="scored", totals=totals, log="t.eval",
                              sample_id=f"s{i}")  # fmt: skip
        debates.append(debate)
        truth[debate_key(debate)] = float(pro_won)
    return debates, truth


def test_labels_correct_a_judge_that_favours_pro() -> None:
    debates, truth = _debates(3000)
    labelled = {key: truth[key] for key in list(truth)[:400]}
    found = human_ratings(debates, labelled, ["a", "b"])
    rate = found["win_rates"]["a"]
    # The judge's errors all favour pro, which a plays half the time: it pulls a's win
    # rate from 0.7 towards 1/2; PPI++ takes it back and its interval covers the truth.
    assert abs(rate["judge_only"] - TRUE_A) > 0.08
    assert rate["ppi"]["low"] <= TRUE_A <= rate["ppi"]["high"]
    humans_only = rate["ppi"]["humans_only"]
    assert rate["ppi"]["high"] - rate["ppi"]["low"] < humans_only[1] - humans_only[0]
    assert found["labelled_debates"] == 400 and found["rated_debates"] == 3000


def test_ppi_ratings_use_the_tournaments_design_and_scale() -> None:
    debates, truth = _debates(2000)
    labelled = {key: truth[key] for key in list(truth)[:300]}
    found = human_ratings(debates, labelled, ["a", "b"])
    ratings = found["ratings"]["models"]
    # a's true edge is logit(0.7) = 0.847 logits, split around the mean: +/- 0.424.
    gap = ratings["a"]["value"] - ratings["b"]["value"]
    assert abs(gap - ELO_PER_LOGIT * np.log(TRUE_A / (1 - TRUE_A))) < 60
    assert ratings["a"]["low"] < ratings["a"]["value"] < ratings["a"]["high"]
    # The mean stays at the base, as the tournament's ridge anchors it.
    assert abs((ratings["a"]["value"] + ratings["b"]["value"]) / 2 - 1000.0) < 1e-6
    # The judge's pro bias shows as a side advantage the humans do not share.
    side = found["ratings"]["side_advantage"]
    assert side["low"] <= 0.0 <= side["high"]
    assert found["ratings"]["labels_to_halve_with_more_debates"] > 300


def test_the_design_rows_are_bradley_terrys() -> None:
    debates, _ = _debates(40)
    x = design(debates, ["a", "b"])
    side = {"a": 0, "b": 1}
    results = np.array([d.result for d in debates], float)
    games = Games(("a", "b"), tuple(d.motion for d in debates),
                  np.array([side[d.pro] for d in debates]),
                  np.array([side[d.con] for d in debates]),
                  np.arange(len(debates)), results)  # fmt: skip
    judge = fit(games)
    # The judge-only fit by PPI's machinery with every debate "labelled" by the judge.
    from debatebench_eval.annotation.ppi import _fit

    y = np.array([d.result for d in debates], float)
    theta = _fit(x, y, y, x[:1], y[:1], 0.0, np.array([1e-3 / 40, 1e-3 / 40, 0.0]))
    np.testing.assert_allclose(theta[:2], judge.strengths[0], atol=1e-6)
    np.testing.assert_allclose(theta[2], judge.side[0], atol=1e-6)


def test_too_few_labels_give_no_ppi_and_say_so() -> None:
    debates, _ = _debates(20)
    found = human_ratings(debates, {debate_key(debates[0]): 1.0}, ["a", "b"])
    assert found["ratings"] is None and found["win_rates"]["a"]["ppi"] is None
    text = "\n".join(human_lines({**found, "not_used": ["x.jsonl: line 2: ..."]}, []))
    assert "No PPI++ ratings: they need two labelled debates and one unlabelled." in text
    assert "- x.jsonl: line 2: ..." in text


def test_labels_no_finite_rating_fits_are_said_never_raised() -> None:
    """People say con won every labelled debate, the judge says pro won every one: the
    side term has no optimum, and the page says why there are no PPI++ ratings."""
    debates = [
        DebateResult(pair=("a", "b"), motion=f"m{i}", swapped=bool(i % 2),
                     pro="b" if i % 2 else "a", con="a" if i % 2 else "b", status="scored",
                     totals={"pro": 60.0, "con": 40.0}, log="t.eval", sample_id=f"s{i}")
        for i in range(6)
    ]  # fmt: skip
    labelled = {debate_key(d): 0.0 for d in debates[:2]}
    found = human_ratings(debates, labelled, ["a", "b"])
    assert found["ratings"] is None and "no finite prediction-powered rating" in found["no_ratings"]
    lines = human_lines(found, [{"model": "a"}, {"model": "b"}])
    assert any(line.startswith("No PPI++ ratings: the labels separate") for line in lines)
