"""Known-answer tests of the reliability figures: scripted judges with one bias each are
caught by that bias's figure and by no other; an unbiased judge is caught by none.

The debates are a balanced design (opener x longer side x which side, if any, a
qwen model argued x the better side, twice over), so a bias a judge does not have
is exactly absent from its verdicts rather than absent on average; only the coin
flip judge draws, from a fixed seed.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats  # type: ignore[import-untyped]

from debatebench_eval.judging.reliability import (
    PANEL,
    Judged,
    diagnostics,
    effective_judges,
    flagged,
    length_bias,
    position_bias,
    repeat_consistency,
    self_preference,
    side_bias,
)
from debatebench_eval.stats.intervals import wilson

MARGIN = 10.0
KIN = "ollama/qwen3:8b"
OTHERS = ("ollama/gemma3:4b", "ollama/llama3.2")
REPEATS = 3


def verdict(winner: str) -> tuple[str, float]:
    return winner, MARGIN if winner == "pro" else -MARGIN


def design() -> list[dict[str, str]]:
    cells = itertools.product(("pro", "con"), ("pro", "con"), ("pro", "con", None), ("pro", "con"))
    return [
        {"opener": o, "longer": longer, "kin": k, "better": b}  # type: ignore[dict-item]
        for o, longer, k, b in cells
    ] * 2


def debate(cell: dict[str, str], judges: dict[str, object], coin: random.Random) -> Judged:
    models = {"pro": OTHERS[0], "con": OTHERS[1]}
    if cell["kin"]:
        models[cell["kin"]] = KIN
    words = {side: 600 if side == cell["longer"] else 400 for side in ("pro", "con")}
    verdicts, repeats = {}, {}
    for name, rule in judges.items():
        runs = tuple(rule(cell, coin) for _ in range(REPEATS))  # type: ignore[operator]
        repeats[name] = runs
        verdicts[name] = verdict(max(set(runs), key=runs.count))
    return Judged(verdicts, models, cell["opener"], words, repeats)


def first_speaker(cell: dict[str, str], coin: random.Random) -> str:
    return cell["opener"]


def longer_side(cell: dict[str, str], coin: random.Random) -> str:
    return cell["longer"]


def own_family(cell: dict[str, str], coin: random.Random) -> str:
    return cell["kin"] or cell["better"]


def coin_flip(cell: dict[str, str], coin: random.Random) -> str:
    return coin.choice(("pro", "con"))


def unbiased(cell: dict[str, str], coin: random.Random) -> str:
    return cell["better"]


JUDGES = {
    "mockllm/first": (first_speaker, "position"),
    "mockllm/longer": (longer_side, "length"),
    "ollama/qwen2.5:7b": (own_family, "self_preference"),
    "mockllm/coin": (coin_flip, "repeats"),
    "ollama/phi4": (unbiased, None),
}


# Per test, not per module: mutation testing credits a fixture's calls to the test
# that set it up, so a shared one would leave the other tests blind to a mutant.
@pytest.fixture
def figures() -> dict[str, object]:
    rules = {name: rule for name, (rule, _) in JUDGES.items()}
    coin = random.Random(7)
    return diagnostics([debate(cell, rules, coin) for cell in design()])


@pytest.mark.parametrize("judge", list(JUDGES))
def test_each_biased_judge_is_caught_by_its_own_figure_only(
    figures: dict[str, object], judge: str
) -> None:
    expected = JUDGES[judge][1]
    assert flagged(figures)[judge] == ([expected] if expected else [])  # type: ignore[arg-type]


def test_a_coin_flip_judge_flips_across_repeats_and_a_consistent_one_never(
    figures: dict[str, object],
) -> None:
    by_judge = figures["by_judge"]  # type: ignore[index]
    coin, fair = by_judge["mockllm/coin"]["repeats"], by_judge["ollama/phi4"]["repeats"]
    assert 0.3 < coin["flip_rate"] < 0.7 and coin["stable_share"] < 0.5
    assert fair["flip_rate"] == 0 and fair["stable_share"] == 1 and not fair["flagged"]


def test_a_debater_family_judge_without_the_habit_shows_no_self_preference() -> None:
    rules = {"ollama/qwen2.5:14b": unbiased, "ollama/phi4": unbiased}
    found = diagnostics([debate(cell, rules, random.Random(0)) for cell in design()])
    figure = found["by_judge"]["ollama/qwen2.5:14b"]["self_preference"]
    assert figure["value"] == 0 and not figure["flagged"]
    assert flagged(found) == {"ollama/qwen2.5:14b": [], "ollama/phi4": []}


def test_the_effective_number_of_judges_is_kishs_over_the_verdict_correlation() -> None:
    winners = ["pro", "con", "pro", "con", "tie", "pro"]
    same = [Judged({"a": verdict(w), "b": verdict(w), "c": verdict(w)}, {}) for w in winners]
    assert effective_judges(same, decisive=False)["n_eff"] == pytest.approx(1.0)  # type: ignore[index]
    flipped = {"pro": "con", "con": "pro", "tie": "tie"}
    # a and b agree, c says the opposite: pair correlations 1, -1, -1, mean -1/3, clipped to 0.
    mixed = [Judged({"a": verdict(w), "b": verdict(w), "c": verdict(flipped[w])}, {})
             for w in winners]  # fmt: skip
    found = effective_judges(mixed, decisive=False)
    assert found["mean_correlation"] == pytest.approx(-1 / 3) and found["n_eff"] == 3  # type: ignore[index]
    # Half correlated: rho = 0.5 over three judges is 3 / (1 + 2 * 0.5) = 1.5 judges.
    a = ["pro", "pro", "con", "con"] * 2
    b = ["pro", "pro", "con", "con", "pro", "con", "pro", "con"]
    half = [Judged({"a": verdict(x), "b": verdict(y)}, {}) for x, y in zip(a, b, strict=True)]
    pair = effective_judges(half, decisive=True)
    assert pair["mean_correlation"] == pytest.approx(0.5) and pair["n_eff"] == pytest.approx(  # type: ignore[index]
        2 / 1.5
    )


def test_decisive_only_agreement_leaves_out_the_debates_a_judge_tied() -> None:
    rows = [("pro", "pro"), ("con", "con"), ("tie", "pro"), ("tie", "con"), ("pro", "pro")]
    debates = [Judged({"a": verdict(x), "b": verdict(y)}, {}) for x, y in rows]
    assert effective_judges(debates, decisive=True)["mean_correlation"] == pytest.approx(1.0)  # type: ignore[index]
    assert effective_judges(debates, decisive=False)["mean_correlation"] < 1  # type: ignore[index,operator]


def test_one_judge_has_no_effective_panel_size_and_intervals_are_wilsons() -> None:
    assert effective_judges([Judged({"a": verdict("pro")}, {})], decisive=False) is None
    found = wilson(7, 10)
    assert found is not None and (found.low, found.high) == pytest.approx((0.3968, 0.8922), 1e-3)
    assert wilson(0, 0) is None


def test_computing_the_figures_does_not_import_scipy_stats() -> None:
    """1.5 s of CPU in every process that ends a run (every tournament worker)."""
    code = (
        "import sys; from debatebench_eval.judging import reliability as r\n"
        "from debatebench_eval.stats.intervals import wilson\n"
        "d = [r.Judged({r.PANEL: ('pro', 3.0 * i)}, {}, words={'pro': 100 + i, 'con': 90})"
        " for i in range(5)]\n"
        "wilson(3, 5); r.length_bias(d, r.PANEL); r.side_bias(d, r.PANEL)\n"
        "assert 'scipy.stats' not in sys.modules, 'scipy.stats was imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_length_slope_is_in_margin_points_per_sd_of_the_length_share() -> None:
    # The margin is exactly 50 x the share: the slope is 50 x the share's sd (0.2 here).
    shares = [0.2, -0.2] * 5
    debates = [Judged({PANEL: ("pro" if s > 0 else "con", 50 * s)}, {},
                      words={"pro": int(500 * (1 + s)), "con": int(500 * (1 - s))})
               for s in shares]  # fmt: skip
    found = length_bias(debates, PANEL)
    assert found is not None and found.value == pytest.approx(50 * 0.2) and found.flagged


def test_diagnostics_report_the_panel_beside_its_judges_and_both_codings() -> None:
    rows = [("pro", "pro"), ("con", "con"), ("tie", "pro"), ("pro", "tie"), ("con", "pro")]
    debates = [Judged({"a": verdict(x), "b": verdict(y), PANEL: verdict(y)}, {})
               for x, y in rows]  # fmt: skip
    found = diagnostics(debates)
    assert list(found["by_judge"]) == ["a", "b", PANEL]
    assert found["effective_judges"]["all"] == effective_judges(debates, decisive=False)
    assert found["effective_judges"]["decisive"] == effective_judges(debates, decisive=True)
    assert found["effective_judges"]["all"] != found["effective_judges"]["decisive"]
    assert found["by_judge"]["a"]["repeats"] is None  # judged once
    assert PANEL not in diagnostics([Judged({"a": verdict("pro")}, {})])["by_judge"]


def test_a_pair_is_correlated_over_the_debates_both_judged_and_needs_two_answers() -> None:
    both = [("pro", "pro"), ("con", "con")]
    debates = [Judged({"a": verdict(x), "b": verdict(y)}, {}) for x, y in both]
    # A debate only one of them judged does not enter the pair.
    debates.append(Judged({"a": verdict("pro")}, {}))
    debates.append(Judged({"b": verdict("pro")}, {}))
    assert effective_judges(debates, decisive=False)["mean_correlation"] == pytest.approx(1.0)  # type: ignore[index]
    one = [Judged({"a": verdict("pro"), "b": verdict("con")}, {})]
    assert effective_judges(one, decisive=False) == {
        "judges": 2, "pairs": 0, "mean_correlation": None, "n_eff": None,
    }  # fmt: skip
    # One judge always gave the same answer: the pair has no correlation.
    constant = [Judged({"a": verdict("pro"), "b": verdict(y)}, {}) for y in ("pro", "con")]
    assert effective_judges(constant, decisive=False)["pairs"] == 0  # type: ignore[index]


def kin_debate(own: str, other: str) -> Judged:
    return Judged({"ollama/qwen2.5": verdict(own), "ollama/phi4": verdict(other)},
                  {"pro": KIN, "con": OTHERS[0]})  # fmt: skip


def test_self_preference_counts_a_tie_as_half_a_pick_and_its_interval_is_fixed() -> None:
    always = self_preference([kin_debate("pro", "con")] * 6, "ollama/qwen2.5")
    assert always is not None and always.value == 1.0 and always.flagged
    ties = self_preference([kin_debate("tie", "con")] * 6, "ollama/qwen2.5")
    assert ties is not None and ties.value == 0.5
    mixed = [kin_debate(a, b) for a, b in (("pro", "con"), ("con", "con"), ("pro", "pro"))] * 3
    first, again = (self_preference(mixed, "ollama/qwen2.5") for _ in range(2))
    assert first == again and first is not None and first.low < first.value < first.high


def test_the_length_interval_is_the_t_interval_of_least_squares_written_out() -> None:
    pro_words = [300, 500, 420, 610, 380, 450]
    margins = [-8.0, 6.0, 1.0, 12.0, -1.0, -3.0]
    debates = [Judged({PANEL: ("pro" if m > 0 else "con", m)}, {}, words={"pro": w, "con": 450})
               for w, m in zip(pro_words, margins, strict=True)]  # fmt: skip
    # A debate with no words spoken has no length share and is left out.
    debates.append(Judged({PANEL: ("pro", 50.0)}, {}, words={"pro": 0, "con": 0}))
    share = np.array([(w - 450) / (w + 450) for w in pro_words])
    x, y = share / share.std(), np.array(margins)
    slope = ((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum()
    residual = y - y.mean() - slope * (x - x.mean())
    se = np.sqrt((residual**2).sum() / (len(x) - 2) / ((x - x.mean()) ** 2).sum())
    half = stats.t.ppf(0.975, len(x) - 2) * se
    found = length_bias(debates, PANEL)
    assert found is not None and found.n == 6 and found.null == 0
    assert (found.value, found.low, found.high) == pytest.approx(
        (slope, slope - half, slope + half)
    )
    three = length_bias(debates[:3], PANEL)
    assert three is not None and three.n == 3
    assert length_bias(debates[:2], PANEL) is None


def test_position_counts_the_decided_debates_a_judge_read_with_a_known_opener() -> None:
    debates = [
        Judged({"a": verdict("pro")}, {}, opener="pro"),
        Judged({"a": verdict("con")}, {}, opener="pro"),
        Judged({"a": verdict("con")}, {}, opener="con"),
        Judged({"a": ("tie", 0.0)}, {}, opener="pro"),  # a tie: not decided
        Judged({"a": verdict("pro")}, {}),  # no opener recorded
        Judged({"b": verdict("pro")}, {}, opener="pro"),  # another judge's
    ]
    found = position_bias(debates, "a")
    assert found is not None and found.n == 3 and found.value == pytest.approx(2 / 3)


def test_repeat_consistency_is_over_the_debates_judged_more_than_once() -> None:
    debates = [
        Judged({"a": verdict("pro")}, {}, repeats={"a": ("pro", "con")}),
        Judged({"a": verdict("pro")}, {}, repeats={"a": ("pro", "pro")}),
        Judged({"a": verdict("pro")}, {}, repeats={"a": ("pro",)}),  # once: left out
    ]
    found = repeat_consistency(debates, "a")
    assert found is not None
    low, high = found.pop("flip_rate_interval")
    assert found == {"debates": 2, "k": 2, "flip_rate": 0.5, "stable_share": 0.5, "flagged": True}
    assert (low, high) == pytest.approx((wilson(1, 2).low, wilson(1, 2).high))  # type: ignore[union-attr]
    assert repeat_consistency(debates[2:], "a") is None


def test_side_is_pros_share_of_the_decided_debates_and_reads_as_a_dict() -> None:
    debates = [
        Judged({"a": verdict("pro")}, {}),
        Judged({"a": verdict("pro")}, {}),
        Judged({"a": verdict("con")}, {}),
        Judged({"a": ("tie", 0.0)}, {}),  # a tie: not decided
        Judged({"b": verdict("con")}, {}),  # another judge's
    ]
    found = side_bias(debates, "a")
    assert found is not None and (found.value, found.n, found.null) == (
        pytest.approx(2 / 3),
        3,
        0.5,
    )
    expected = wilson(2, 3)
    assert expected is not None
    assert found.as_dict() == {"value": pytest.approx(2 / 3), "low": expected.low,
                               "high": expected.high, "n": 3, "flagged": False}  # fmt: skip
    assert side_bias([Judged({"a": ("tie", 0.0)}, {})], "a") is None


def test_self_preferences_interval_is_the_percentile_bootstrap_written_out() -> None:
    # Each pair: the kin judge's pick of its family's (pro) side minus the other's.
    pairs = {("pro", "con"): 1.0, ("con", "pro"): -1.0, ("pro", "pro"): 0.0,
             ("tie", "con"): 0.5, ("con", "tie"): -0.5}  # fmt: skip
    order = [*pairs] * 2 + [("pro", "con")] * 4
    found = self_preference([kin_debate(a, b) for a, b in order], "ollama/qwen2.5")
    diffs = np.array([pairs[pair] for pair in order])
    draws = np.random.default_rng(0).integers(0, len(diffs), (2000, len(diffs)))
    low, high = np.quantile(diffs[draws].mean(1), [0.025, 0.975])
    assert found is not None and found.n == len(order)
    assert (found.value, found.low, found.high) == pytest.approx((diffs.mean(), low, high))


def test_self_preference_skips_a_debate_without_one_kin_side_and_reads_on() -> None:
    unrelated = Judged({"ollama/qwen2.5": verdict("pro"), "ollama/phi4": verdict("con")},
                       {"pro": OTHERS[0], "con": OTHERS[1]})  # fmt: skip
    found = self_preference([unrelated, kin_debate("pro", "con")], "ollama/qwen2.5")
    assert found is not None and found.n == 1
    # A side with no recorded model is no one's family, whatever the judge is called.
    unknown = Judged({"ollama/xxxx": verdict("pro"), "ollama/phi4": verdict("con")},
                     {"pro": "ollama/xxxx"})  # fmt: skip
    found = self_preference([unknown], "ollama/xxxx")
    assert found is not None and found.n == 1 and found.value == 1.0


def test_effective_judges_names_its_counts() -> None:
    rows = (("pro", "pro", "con"), ("con", "con", "pro"), ("pro", "con", "con"))
    debates = [Judged({"a": verdict(x), "b": verdict(y), "c": verdict(z)}, {}) for x, y, z in rows]
    found = effective_judges(debates, decisive=False)
    assert found is not None and (found["judges"], found["pairs"]) == (3, 3)


def length_debates(words: list[tuple[int, int]], margins: list[float]) -> list[Judged]:
    return [Judged({PANEL: ("pro" if m > 0 else "con", m)}, {}, words={"pro": p, "con": c})
            for (p, c), m in zip(words, margins, strict=True)]  # fmt: skip


def test_the_length_slope_counts_one_word_and_is_exact_on_a_perfect_fit() -> None:
    # One word in all is a length share (+-1), not an empty debate.
    found = length_bias(length_debates([(1, 0), (0, 1), (1, 1)], [4.0, -4.0, 0.0]), PANEL)
    assert found is not None and found.n == 3
    # The margins lie on a line: no residual, so the interval is the slope itself.
    assert found.value == pytest.approx(found.low) == pytest.approx(found.high)
    assert found.value > 0 and found.flagged
    # A margin that never moves: no correlation, no standard error; the slope is 0 exactly.
    flat = length_bias(length_debates([(1, 0), (0, 1), (1, 1)], [2.0, 2.0, 2.0]), PANEL)
    assert flat is not None and (flat.value, flat.low, flat.high) == (0.0, 0.0, 0.0)


def test_a_length_share_that_never_varies_has_no_slope() -> None:
    # 0.2 three times: a spread of rounding error, not of lengths.
    same = length_debates([(600, 400)] * 3, [1.0, 2.0, 3.0])
    assert length_bias(same, PANEL) is None
