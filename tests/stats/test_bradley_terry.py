"""The Bradley-Terry fit against answers known in closed form, and its invariants."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import expit, logit

from debatebench_eval.matches.results import eligible_debates
from debatebench_eval.stats import bootstrap as bs
from debatebench_eval.stats import bradley_terry as bt
from debatebench_eval.stats.bradley_terry import (
    ELO_PER_LOGIT,
    Array,
    Fit,
    Games,
    _Design,
    elo,
    fit,
)
from debatebench_eval.tournament.standings import _fit_all, games_of

from support.tournaments import leaderboard_results

# Newton steps from a start far on the wrong side (computed once from this code).
FAR_START_STEPS = 11
# A ridge this small leaves the closed-form answers exact to 1e-6.
TINY = 1e-9


def games(
    rows: list[tuple[int, int, int, float]], models: int = 2, z: list[float] | None = None
) -> Games:
    """Rows of (pro, con, motion, pro's result)."""
    pro, con, motion, y = (np.array(col) for col in zip(*rows, strict=True))
    motions = int(motion.max()) + 1
    return Games(
        tuple(f"m{i}" for i in range(models)), tuple(f"q{i}" for i in range(motions)),
        pro.astype(np.int64), con.astype(np.int64), motion.astype(np.int64),
        y.astype(np.float64), None if z is None else np.array(z, dtype=np.float64),
    )  # fmt: skip


def record(pro_wins: int, con_wins: int, n: int = 10) -> list[tuple[int, int, int, float]]:
    """Model 0 against model 1 on n motions: as pro it wins `pro_wins`, as con `con_wins`."""
    rows = []
    for i in range(n):
        rows.append((0, 1, i, 1.0 if i < pro_wins else 0.0))
        rows.append((1, 0, i, 0.0 if i < con_wins else 1.0))
    return rows


def test_side_advantage_and_strength_in_closed_form() -> None:
    # As pro A wins 8/10: s_A - s_B + h = logit(.8); as con 6/10: s_A - s_B - h = logit(.6).
    result = fit(games(record(8, 6)), ridge=TINY)
    gap = result.strengths[0, 0] - result.strengths[0, 1]
    assert result.side[0] == pytest.approx((logit(0.8) + logit(0.4)) / 2, abs=1e-6)
    assert gap == pytest.approx((logit(0.8) - logit(0.4)) / 2, abs=1e-6)


def test_equal_records_on_both_sides_give_no_side_advantage() -> None:
    result = fit(games(record(7, 7)), ridge=TINY)
    assert result.side[0] == pytest.approx(0.0, abs=1e-6)
    assert result.strengths[0, 0] - result.strengths[0, 1] == pytest.approx(
        math.log(7 / 3), abs=1e-6
    )


def test_a_tie_counts_as_half_a_win() -> None:
    tied = [(0, 1, 0, 0.5), (1, 0, 0, 0.5), (0, 1, 1, 1.0), (1, 0, 1, 0.0)]
    halves = fit(games(tied), ridge=TINY)
    # 1.5 of 2 as pro and 1.5 of 2 as con: logit(.75) each way, no side advantage.
    assert halves.strengths[0, 0] - halves.strengths[0, 1] == pytest.approx(logit(0.75), abs=1e-6)
    assert halves.side[0] == pytest.approx(0.0, abs=1e-6)


def random_games(seed: int, models: int = 5, motions: int = 6, covariate: bool = False) -> Games:
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 1, models)
    rows = []
    for k in range(motions):
        for i in range(models):
            for j in range(models):
                if i != j:
                    p = expit(strength[i] - strength[j] + 0.3)
                    rows.append(
                        (
                            i,
                            j,
                            k,
                            float(rng.choice([0.0, 0.5, 1.0], p=[(1 - p) * 0.9, 0.1, p * 0.9])),
                        )
                    )
    z = list(rng.normal(0, 1, len(rows))) if covariate else None
    return games(rows, models, z)


def test_the_ridge_anchors_ratings_at_their_mean() -> None:
    result = fit(random_games(1))
    assert abs(result.strengths.sum()) < 1e-9
    ratings = elo(result.strengths, base=1500)
    assert ratings.mean() == pytest.approx(1500)


def test_an_anchor_model_sits_at_the_base_and_the_scale_is_400_over_ln_10() -> None:
    result = fit(random_games(2))
    ratings = elo(result.strengths, anchor=3, base=1000)
    assert ratings[0, 3] == pytest.approx(1000)
    assert pytest.approx(173.7178, abs=1e-4) == ELO_PER_LOGIT
    gap = ratings[0, 0] - ratings[0, 1]
    assert gap == pytest.approx(
        400 / math.log(10) * (result.strengths[0, 0] - result.strengths[0, 1])
    )
    # 400 points are 10:1 odds
    assert expit(400 / ELO_PER_LOGIT) / (1 - expit(400 / ELO_PER_LOGIT)) == pytest.approx(10)


@pytest.mark.parametrize("covariate", [False, True])
def test_newton_agrees_with_a_general_optimiser(covariate: bool) -> None:
    data = random_games(3, covariate=covariate)
    ridge = 1e-3
    result = fit(data, covariate=covariate, ridge=ridge)
    m = len(data.models)

    def loss(theta: np.ndarray) -> float:
        eta = theta[data.pro] - theta[data.con] + theta[m]
        if covariate:
            assert data.z is not None
            eta = eta + theta[m + 1] * data.z
        ll = np.sum(data.y * eta - np.logaddexp(0, eta))
        penalty = ridge / 2 * (np.sum(theta[:m] ** 2) + (theta[m + 1] ** 2 if covariate else 0))
        return float(-(ll - penalty))

    best = minimize(
        loss, np.zeros(m + 1 + covariate), method="L-BFGS-B", options={"ftol": 1e-15, "gtol": 1e-10}
    )
    assert np.allclose(result.strengths[0], best.x[:m] - best.x[:m].mean(), atol=1e-5)
    assert result.side[0] == pytest.approx(best.x[m], abs=1e-5)
    if covariate:
        assert result.covariate is not None
        assert result.covariate[0] == pytest.approx(best.x[m + 1], abs=1e-5)


def test_row_order_does_not_change_the_fit() -> None:
    data = random_games(4, covariate=True)
    order = np.random.default_rng(0).permutation(len(data.y))
    z = None if data.z is None else data.z[order]
    shuffled = Games(data.models, data.motions, data.pro[order], data.con[order],
                     data.motion[order], data.y[order], z)  # fmt: skip
    for covariate in (False, True):
        a, b = fit(data, covariate=covariate), fit(shuffled, covariate=covariate)
        assert np.allclose(a.strengths, b.strengths, atol=1e-12)
        assert np.allclose(a.side, b.side, atol=1e-12)


def test_a_model_that_wins_everything_stays_finite() -> None:
    rows = [(0, j, k, 1.0) for j in (1, 2) for k in range(5)] + [
        (j, 0, k, 0.0) for j in (1, 2) for k in range(5)
    ]
    rows += [(1, 2, k, float(k % 2)) for k in range(5)] + [
        (2, 1, k, float(k % 2)) for k in range(5)
    ]
    result = fit(games(rows, models=3))
    assert np.isfinite(result.strengths).all()
    assert 3 < result.strengths[0, 0] < 20  # far ahead, but held by the ridge


def test_a_resample_where_pro_won_every_debate_still_fits() -> None:
    # Pro won every debate: the unpenalised side term runs off until its curvature
    # underflows and the Hessian is singular (a 6-debate tournament's bootstrap did).
    result = fit(games(record(pro_wins=3, con_wins=0, n=3)))
    assert np.isfinite(result.strengths).all() and result.side[0] > 10
    assert abs(result.strengths[0, 0]) < 1e-6  # each model won only as pro: equal


def test_resamples_are_fitted_as_if_alone() -> None:
    data = random_games(5)
    weights = np.array([[2, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], [0, 0, 3, 3, 0, 0]], dtype=float)
    batch = fit(data, weights, covariate=False)
    warm = fit(data, weights, start=fit(data))
    for row in range(3):
        alone = fit(data, weights[row : row + 1])
        assert np.allclose(batch.strengths[row], alone.strengths[0], atol=1e-9)
        assert np.allclose(warm.strengths[row], alone.strengths[0], atol=1e-9)


def test_without_weights_there_is_one_fit_and_it_reports_its_newton_steps() -> None:
    result = fit(games(record(8, 6)))
    assert result.strengths.shape == (1, 2)
    assert result.side.shape == (1,)
    assert result.covariate is None
    assert isinstance(result.iterations, int) and 1 < result.iterations < bt.MAX_ITERATIONS


def test_a_covariate_fit_without_the_covariate_is_refused_in_words() -> None:
    with pytest.raises(ValueError) as refused:
        fit(games(record(8, 6)), covariate=True)
    assert str(refused.value) == "a covariate fit needs games.z"


def test_a_pairing_argued_several_times_on_one_motion_counts_every_debate() -> None:
    # A is pro against B three times on motion 0 and wins 2; B is pro three
    # times on motion 1 and wins 1: s_A - s_B + h = logit(2/3), s_B - s_A + h = logit(1/3).
    rows = [(0, 1, 0, 1.0), (0, 1, 0, 1.0), (0, 1, 0, 0.0)]
    rows += [(1, 0, 1, 1.0), (1, 0, 1, 0.0), (1, 0, 1, 0.0)]
    result = fit(games(rows), ridge=TINY)
    assert result.side[0] == pytest.approx(0.0, abs=1e-6)
    gap = result.strengths[0, 0] - result.strengths[0, 1]
    assert gap == pytest.approx(logit(2 / 3), abs=1e-6)


@pytest.mark.parametrize("covariate", [False, True])
def test_a_fit_started_at_its_answer_stops_after_one_step(covariate: bool) -> None:
    data = random_games(6, covariate=covariate)
    answer = fit(data, covariate=covariate)
    again = fit(data, covariate=covariate, start=answer)
    assert again.iterations == 1
    assert np.allclose(again.strengths, answer.strengths, atol=1e-9)
    assert np.allclose(again.side, answer.side, atol=1e-9)
    if covariate:
        assert again.covariate is not None and answer.covariate is not None
        assert again.covariate[0] == pytest.approx(answer.covariate[0], abs=1e-9)


def test_a_start_covariate_is_ignored_by_a_fit_without_one() -> None:
    data = random_games(6)
    answer = fit(data)
    start = Fit(answer.strengths, answer.side, np.array([5.0]), answer.iterations)
    assert fit(data, start=start).iterations == 1


def test_a_start_far_on_the_wrong_side_still_reaches_the_answer() -> None:
    # From s_A - s_B = -16 a full Newton step overshoots: the steps are halved
    # until the penalised likelihood does not fall.
    data = games(record(8, 6))
    answer = fit(data)
    far = Fit(np.array([[-8.0, 8.0]]), np.array([3.0]), None, 0)
    result = fit(data, start=far)
    assert np.allclose(result.strengths, answer.strengths, atol=1e-9)
    assert result.side[0] == pytest.approx(answer.side[0], abs=1e-9)
    assert result.iterations == FAR_START_STEPS


def test_the_iteration_limit_stops_after_exactly_that_many_newton_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One Newton step from zero, by hand: p = 1/2 everywhere, so the gradient is
    # wins - games/2 per design row and the negated Hessian games/4 x x'.
    monkeypatch.setattr(bt, "MAX_ITERATIONS", 1)
    ridge = 1e-3
    result = fit(games(record(8, 6)), ridge=ridge)
    rows = np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]])
    grad = (np.array([8.0, 4.0]) - 10 / 2) @ rows
    hess = 10 / 4 * rows.T @ rows + np.diag([ridge, ridge, 0.0])
    step = np.linalg.solve(hess, grad)
    assert result.iterations == 1
    assert np.allclose(result.strengths[0], step[:2] - step[:2].mean(), atol=1e-12)
    assert result.side[0] == pytest.approx(step[2], abs=1e-12)


def test_strengths_are_reported_about_their_mean_even_at_the_iteration_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bt, "MAX_ITERATIONS", 0)
    start = Fit(np.array([[1.0, 3.0]]), np.array([0.5]), None, 0)
    result = fit(games(record(8, 6)), start=start)
    assert result.strengths.tolist() == [[-1.0, 1.0]]
    assert result.side.tolist() == [0.5]


def test_elo_defaults_to_1000_at_the_mean_of_each_row() -> None:
    assert elo(np.array([-1.0, 1.0])).tolist() == pytest.approx(
        [1000 - ELO_PER_LOGIT, 1000 + ELO_PER_LOGIT]
    )
    batch = np.array([[0.0, 1.0, 2.0], [4.0, 4.0, 7.0]])  # row means 1 and 5
    expected = 1000 + ELO_PER_LOGIT * np.array([[-1.0, 0.0, 1.0], [-1.0, -1.0, 2.0]])
    assert np.allclose(elo(batch), expected)
    assert np.allclose(elo(batch, anchor=0), 1000 + ELO_PER_LOGIT * (batch - batch[:, [0]]))


def design_case(covariate: bool) -> tuple[_Design, Array, Array]:
    """Three models, two resamples weighted differently, parameters away from zero."""
    data = random_games(7, models=3, motions=3, covariate=covariate)
    weights = np.array([[2.0, 1.0, 3.0], [0.5, 0.0, 2.5]])
    params = 3 + 1 + int(covariate)
    theta = np.random.default_rng(8).normal(0, 0.7, (2, params))
    penalty = np.r_[np.full(3, 0.3), 0.0, [0.2] if covariate else []]
    return _Design(data, weights, covariate), theta, penalty


@pytest.mark.parametrize("covariate", [False, True])
def test_the_objective_is_the_penalised_log_likelihood_per_resample(covariate: bool) -> None:
    model, theta, penalty = design_case(covariate)
    data = random_games(7, models=3, motions=3, covariate=covariate)
    weights = np.array([[2.0, 1.0, 3.0], [0.5, 0.0, 2.5]])
    for row in range(2):
        t = theta[row]
        eta = t[data.pro] - t[data.con] + t[3]
        if covariate:
            assert data.z is not None
            eta = eta + t[4] * data.z
        w = weights[row, data.motion]
        ll = np.sum(w * (data.y * np.log(expit(eta)) + (1 - data.y) * np.log(expit(-eta))))
        expected = ll - 0.5 * np.sum(penalty * t**2)
        assert model.objective(theta, penalty)[row] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("covariate", [False, True])
def test_the_derivatives_are_those_of_the_objective(covariate: bool) -> None:
    model, theta, penalty = design_case(covariate)
    grad, hess = model.derivatives(theta, penalty)
    h = 1e-5
    for i in range(theta.shape[1]):
        up, down = theta.copy(), theta.copy()
        up[:, i] += h
        down[:, i] -= h
        slope = (model.objective(up, penalty) - model.objective(down, penalty)) / (2 * h)
        assert np.allclose(grad[:, i], slope, rtol=1e-6, atol=1e-6)
        curvature = (model.derivatives(up, penalty)[0] - model.derivatives(down, penalty)[0]) / (
            2 * h
        )
        assert np.allclose(hess[:, :, i], -curvature, rtol=1e-6, atol=1e-6)


def test_each_resample_is_centred_on_its_own_mean_at_the_iteration_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # From an off-centre start far away, the two resamples' first steps are
    # halved differently, so after one step their strengths' means differ.
    monkeypatch.setattr(bt, "MAX_ITERATIONS", 1)
    start = Fit(np.array([[-6.0, 10.0]]), np.array([3.0]), None, 0)
    weights = np.array([[1.0] * 10, [0.05] * 10])
    result = fit(games(record(8, 6)), weights, start=start)
    assert result.iterations == 1
    assert np.abs(result.strengths.sum(axis=1)).max() < 1e-12
    assert result.strengths[0, 1] != pytest.approx(result.strengths[1, 1], abs=1.0)


@pytest.mark.parametrize("covariate", [False, True])
def test_the_fast_bootstrap_gives_the_slow_paths_estimates(
    covariate: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fast path (blocks of resamples, each started at the full data's fit, a
    # converged resample left alone) against the slow one (every resample fitted
    # alone from zero), on a sparse leaderboard-shaped case where some resamples
    # separate a model and its strength runs off to the ridge: within 1e-6 logits
    # (2e-4 rating points).
    monkeypatch.setattr(bs, "BLOCK_ELEMENTS", 7 * 120)  # several blocks of 7
    results, strengths = leaderboard_results(10, 40, 60, seed=3)
    data = games_of(eligible_debates(results), sorted(strengths))
    weights = bs.cluster_weights(len(data.motions), 30, seed=4)
    _, fast = _fit_all(data, weights, covariate=covariate)
    for row in range(len(weights)):
        slow = fit(data, weights[row : row + 1], covariate=covariate)
        assert np.abs(fast.strengths[row] - slow.strengths[0]).max() < 1e-6
        assert fast.side[row] == pytest.approx(slow.side[0], abs=1e-6)
        if covariate:
            assert fast.covariate is not None and slow.covariate is not None
            assert fast.covariate[row] == pytest.approx(slow.covariate[0], abs=1e-6)
    assert np.abs(fast.strengths).max() > 3  # a separated resample was among them
