"""Judge-human agreement statistics against tables with known answers."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

import pytest

from debatebench_eval.annotation.agreement_stats import (
    Pair,
    dimension_tau,
    human_alpha,
    kappa,
    krippendorff_nominal,
    position_bias,
    raw_agreement,
    shown_first_share,
    side_bias,
)
from debatebench_eval.judging.reliability import cohen_kappa
from debatebench_eval.stats.bootstrap import cluster_interval


def _table(cells: dict[tuple[str, str], int]) -> list[Pair]:
    """Pairs, one debate each, from a judge x human contingency table."""
    pairs = []
    for (judge, human), count in cells.items():
        pairs += [Pair(f"{judge}{human}{i}", judge, human) for i in range(count)]
    return pairs


# Wikipedia's worked example ("Cohen's kappa", 50 proposals read by two readers):
# p_o = 0.7, p_e = 0.5, kappa = 0.4.
TEXTBOOK = {("pro", "pro"): 20, ("pro", "con"): 5, ("con", "pro"): 10, ("con", "con"): 15}
# The second worked example there: p_o = 0.6, p_e = 0.54, kappa = 0.1304.
SECOND = {("pro", "pro"): 45, ("pro", "con"): 15, ("con", "pro"): 25, ("con", "con"): 15}


def test_kappa_of_the_textbook_tables() -> None:
    assert kappa(_table(TEXTBOOK)).value == pytest.approx(0.4)  # type: ignore[union-attr]
    assert kappa(_table(SECOND)).value == pytest.approx(0.06 / 0.46)  # type: ignore[union-attr]


def test_kappa_is_one_when_always_agreeing_and_zero_at_chance() -> None:
    same = _table({("pro", "pro"): 7, ("con", "con"): 5, ("tie", "tie"): 2})
    assert kappa(same).value == 1.0  # type: ignore[union-attr]
    # Independent answers: each side says pro half the time, whatever the other says.
    chance = _table({("pro", "pro"): 10, ("pro", "con"): 10, ("con", "pro"): 10,
                     ("con", "con"): 10})  # fmt: skip
    assert kappa(chance).value == pytest.approx(0.0)  # type: ignore[union-attr]
    # Both always say pro: expected agreement 1, which the formula cannot divide by.
    assert cohen_kappa([("pro", "pro")] * 4) == 1.0
    assert kappa([]) is None


def test_kappa_interval_holds_the_estimate_and_narrows_with_more_debates() -> None:
    small, big = kappa(_table(TEXTBOOK)), kappa(_table({k: v * 8 for k, v in TEXTBOOK.items()}))
    assert small is not None and big is not None
    assert small.low < 0.4 < small.high
    assert big.high - big.low < (small.high - small.low) * 0.6


def test_the_bootstrap_resamples_debates_not_labels() -> None:
    # Ten debates, each labelled by ten annotators who all agree with one another: the
    # interval must be that of ten debates, far wider than that of a hundred.
    clustered = [
        Pair(d, j, h)
        for d, (j, h) in enumerate(
            [("pro", "pro")] * 5 + [("pro", "con")] * 2 + [("con", "con")] * 3
        )
        for _ in range(10)
    ]
    spread = [Pair(i, p.judge, p.human) for i, p in enumerate(clustered)]
    one, many = kappa(clustered), kappa(spread)
    assert one is not None and many is not None
    assert one.value == pytest.approx(many.value)
    assert (one.high - one.low) > 2 * (many.high - many.low)


def test_cluster_interval_is_nan_when_a_resample_is_undefined() -> None:
    pairs = [Pair(0, "pro", "pro"), Pair(1, "con", "con")]
    low, high = cluster_interval(pairs, lambda p: p.debate, lambda found: math.nan)
    assert math.isnan(low) and math.isnan(high)
    assert all(math.isnan(v) for v in cluster_interval(pairs[:1], lambda p: p.debate, len))


def test_raw_agreement_is_a_wilson_share() -> None:
    found = raw_agreement(_table(TEXTBOOK))
    assert found is not None
    assert (found.value, found.n) == (0.7, 50)
    # Wilson's interval for 35/50 (scipy's binomtest gives 0.5625, 0.8090).
    assert found.low == pytest.approx(0.5625, abs=1e-4)
    assert found.high == pytest.approx(0.8090, abs=1e-4)
    assert raw_agreement([]) is None


def test_side_bias_is_the_judges_pro_rate_minus_the_humans() -> None:
    # The judge says pro on 8 of 10, the humans on 4 of 10 (one a tie: half a pick).
    pairs = [Pair(i, "pro" if i < 8 else "con",
                  "pro" if i < 3 else ("tie" if i < 5 else "con")) for i in range(10)]  # fmt: skip
    found = side_bias(pairs)
    assert found is not None
    assert found.value == pytest.approx(0.8 - 0.4)
    assert found.low <= found.value <= found.high
    fair = side_bias([Pair(i, w, w) for i, w in enumerate(["pro", "con"] * 5)])
    assert fair is not None and fair.value == 0.0 and not fair.flagged


def test_position_bias_needs_the_opener_and_reads_it() -> None:
    pairs = [Pair(i, "con", "pro", opener="con") for i in range(6)]
    found = position_bias(pairs)
    assert found is not None and found.value == 1.0
    assert position_bias([Pair(0, "pro", "pro")]) is None


def test_the_humans_share_of_the_side_shown_first() -> None:
    pairs = [Pair(i, "pro", "pro", shown_first="pro" if i < 9 else "con") for i in range(10)]
    pairs.append(Pair(10, "pro", "tie", shown_first="pro"))  # a tie picks no side
    found = shown_first_share(pairs)
    assert found is not None and (found.value, found.n) == (0.9, 10)
    assert found.flagged


def test_krippendorffs_own_worked_example() -> None:
    # Krippendorff, "Computing Krippendorff's alpha-reliability" (2011), the nominal
    # example: four observers, twelve units, missing values; alpha = 0.743.
    units = [[1, 1, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
             [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [5, 5, 5], [1, 1], [3]]  # fmt: skip
    found = krippendorff_nominal([[str(v) for v in unit] for unit in units])
    assert found == pytest.approx(0.743, abs=5e-4)


def test_human_alpha_uses_only_debates_two_labelled() -> None:
    units: dict[Hashable, Sequence[str]] = {
        "a": ["pro", "pro"],
        "b": ["con", "con"],
        "c": ["pro", "con"],
        "d": ["tie"],
    }
    found = human_alpha(units, resamples=200)
    assert found is not None
    assert found.n == 3
    assert found.value == pytest.approx(krippendorff_nominal(list(units.values())[:3]))
    assert human_alpha({"a": ["pro"]}) is None


def test_dimension_tau_is_the_speech_validations_tau_c() -> None:
    # Eight debates, two neighbouring pairs swapped: 26 concordant, 2 discordant pairs,
    # tau-c = 2 (26 - 2) / (8^2 (8 - 1) / 8) = 48 / 56.
    judge = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    human = [2, 1, 3, 4, 6, 5, 7, 8]
    found = dimension_tau(judge, human)
    assert found is not None and found.value == pytest.approx(48 / 56)
    assert dimension_tau([0.5] * 4, [1, 2, 3, 4]) is None
