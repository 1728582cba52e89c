"""The judge sensitivity check: the degradations, the pair statistics, and the honesty of
the figures (an oracle judge scores 1.0, a random one sits at chance)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.judging.rubric import default_rubric
from debatebench_eval.trust.digests import bundled_spec_file
from debatebench_eval.validation.check_reader import read_check_log
from debatebench_eval.validation.degradations import (
    DEGRADATIONS,
    answer_turn,
    build_variants,
    load_sources,
    load_spec,
)
from debatebench_eval.validation.sensitivity_scorer import HEADLINE, summarise_scores
from debatebench_eval.validation.sensitivity_stats import chance_detection, pair_outcome
from debatebench_eval.validation.sensitivity_task import judge_sensitivity

from support.judge_checks import oracle_judge, random_judge
from support.paths import RESULTS
from support.scripted import Script
from support.terminal import assert_printed_whole

DIMENSIONS = default_rubric().names
MAXIMA = {d.name: d.max for d in default_rubric().dimensions}


def metrics(log: EvalLog) -> dict[str, float]:
    """Every figure: the headline the run prints (its results) and the rest, which
    `debatebench-eval report` and `trust` read from the samples."""
    assert log.results is not None
    shown = {n: m.value for s in log.results.scores for n, m in s.metrics.items()}
    assert set(shown) <= set(HEADLINE)  # the end of a run prints the headline only
    every = read_check_log(log.location).summary.as_metrics()
    assert shown == pytest.approx({name: every[name] for name in shown}, nan_ok=True)
    return {name: value for name, value in every.items() if value is not None}


def run(tmp: Path, judge: Script, **args: Any) -> EvalLog:
    return eval(
        judge_sensitivity(**args), model=Script("main").model(),
        model_roles={"judge": judge.model()}, log_dir=str(tmp / "logs"), display="none",
    )[0]  # fmt: skip


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, EvalLog]]:
    tmp = tmp_path_factory.mktemp("sensitivity")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DEBATEBENCH_EVAL_TRUST_DIR", str(tmp / "trust"))
        yield {"oracle": run(tmp, oracle_judge()), "random": run(tmp, random_judge())}


@pytest.fixture(scope="module")
def variants() -> dict[str, Any]:
    built, _ = build_variants(load_sources(), load_spec(dimensions=DIMENSIONS))
    return {v.sample_id: v for v in built}


# ------------------------------------------------------------------ the set


def test_the_sources_are_the_regression_transcripts() -> None:
    shipped = load_sources()
    assert len(shipped) == 10
    for name in shipped:
        frozen = RESULTS / "regression" / "transcripts" / f"{name}.json"
        assert frozen.read_bytes() == (bundled_spec_file().parent / "transcripts" /
                                       f"{name}.json").read_bytes()  # fmt: skip


def test_each_variant_changes_one_side_only(variants: dict[str, Any]) -> None:
    kinds = Counter(v.kind for v in variants.values())
    assert kinds["reference"] == 10 and all(kinds[d] >= 19 for d in DEGRADATIONS)
    for variant in variants.values():
        if variant.reference is None:
            continue
        reference = variants[variant.reference].record
        changed = {
            t.side for t, r in zip(variant.record.turns, reference.turns, strict=True)
            if t.text != r.text
        }  # fmt: skip
        assert changed == {variant.side}, variant.sample_id
        assert variant.must_fall and set(variant.must_fall) <= set(DIMENSIONS)


def test_what_each_degradation_does(variants: dict[str, Any]) -> None:
    source = variants["mirror-1-transcript"].record
    con = [t for t in source.turns if t.side == "con"]

    def texts(sample: str) -> list[str]:
        return [t.text for t in variants[sample].record.turns if t.side == "con"]

    truncated = texts("mirror-1-transcript.truncated.con")
    assert all(
        len(c.split()) == len(t.text.split()) // 2 for c, t in zip(truncated, con, strict=True)
    )
    split = re.compile(r"(?<=[.!?])\s+")
    for shuffled, turn in zip(texts("mirror-1-transcript.shuffled.con"), con, strict=True):
        assert sorted(split.split(shuffled)) == sorted(split.split(turn.text))
    rebuttal = answer_turn(source, "con")
    assert rebuttal is not None and rebuttal.phase == "rebuttal"
    echoed = {t.id: t.text for t in variants["mirror-1-transcript.echo.con"].record.turns}
    before = source.turns[: source.turns.index(rebuttal)]
    assert echoed[rebuttal.id] == next(t.text for t in reversed(before) if t.side == "pro")
    faithful = variants["mirror-1-transcript.faithful.con"].record.turns
    strawman = variants["mirror-1-transcript.strawman.con"]
    assert strawman.reference == "mirror-1-transcript.faithful.con"
    assert any("in their own words" in t.text for t in faithful)
    assert strawman.must_fall == ("steelman_fidelity",)


def test_an_edit_that_changes_nothing_is_not_built() -> None:
    _, skipped = build_variants(load_sources(), load_spec(dimensions=DIMENSIONS))
    # SmolLM2 already copied its opponent in that debate: copying again changes nothing.
    assert skipped == ["smollm2-carbon-tax-transcript.echo.pro: the edit would leave the "
                       "side's text unchanged"]  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("must_fall: [clarity]", "must_fall: [charm]", "degradations.shuffled.must_fall"),
        ("must_fall: [clarity]", "must_fall: []", "degradations.shuffled.must_fall"),
        ("faithful: 'My opponent''s case, in their own words, is this: \"{quote}\"'",
         "faithful: 'no placeholder'", "faithful"),
        ("      strawman: \"My opponent's whole case is that we should",
         "      straw: \"My opponent's whole case is that we should", ".pro.strawman"),
    ],
)  # fmt: skip
def test_a_bad_edits_file_is_named_by_entry_and_field(
    tmp_path: Path, old: str, new: str, where: str
) -> None:
    path = tmp_path / "edits.yaml"
    text = bundled_spec_file().read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ConfigError) as error:
        load_spec(path, dimensions=DIMENSIONS)
    assert error.value.where.startswith(str(path)) and where in error.value.where


def test_bad_task_arguments_are_one_message() -> None:
    with pytest.raises(ConfigError, match="-T degradations"):
        judge_sensitivity(degradations="[truncated, worse]")
    with pytest.raises(ConfigError, match="-T limit_sources"):
        judge_sensitivity(limit_sources=0)
    task = judge_sensitivity(degradations="[truncated]", limit_sources=2)
    assert len(task.dataset) == 2 * 3 and task.metadata["judge_sensitivity"]["complete"] is False


# ------------------------------------------------------------------ statistics


def value(pro: dict[str, float], con: dict[str, float], pro_win: float) -> dict[str, float]:
    out = {f"pro_{d}": pro[d] for d in DIMENSIONS} | {f"con_{d}": con[d] for d in DIMENSIONS}
    return out | {"pro_total": sum(pro.values()), "con_total": sum(con.values()),
                  "pro_win": pro_win}  # fmt: skip


def test_a_pair_by_hand() -> None:
    even = dict.fromkeys(DIMENSIONS, 5.0)
    worse = {**even, "clarity": 3.0}
    reference = value(even, even, 1.0)
    outcome = pair_outcome("p", "shuffled", "con", ["clarity"], DIMENSIONS, reference,
                           value(even, worse, 1.0))  # fmt: skip
    assert outcome.detected and not outcome.unchanged_moved and outcome.unchanged_shift == 0
    moved = pair_outcome("p", "shuffled", "con", ["clarity"], DIMENSIONS, reference,
                         value({**even, "argument_quality": 6.0}, worse, 0.0))  # fmt: skip
    assert moved.unchanged_moved and moved.unchanged_shift == 1 and not moved.lost


def test_chance_is_what_a_uniform_judge_gets() -> None:
    one = chance_detection(["clarity"], MAXIMA, "steelman_fidelity")
    two = chance_detection(["argument_quality", "rebuttal_effectiveness"], MAXIMA,
                           "steelman_fidelity")  # fmt: skip
    # P(a mean of two uniform draws falls) is a little under 1/2; losing halves it again.
    assert 0.2 < one < 0.3 and two < one


def test_the_oracle_judge_reaches_one(judged: dict[str, EvalLog]) -> None:
    found = metrics(judged["oracle"])
    assert found["pairs"] == found["pairs_judged"] == 139
    for name in (
        "sensitivity",
        "loss_rate",
        "parse_rate",
        *(f"sensitivity.{d}" for d in DEGRADATIONS),
    ):
        assert found[name] == 1.0, name
    assert found["unchanged_moved"] == 0 and found["swap_flip_rate"] == 0
    assert_printed_whole(found)
    assert any(name.startswith("fell.") for name in found)


def test_the_random_judge_sits_at_chance(judged: dict[str, EvalLog]) -> None:
    found = metrics(judged["random"])
    assert found["sensitivity_low"] <= found["chance.all"] <= found["sensitivity_high"]
    assert found["sensitivity_high"] < 0.8
    assert found["unchanged_moved"] > 0.9 and found["unchanged_mean_abs_shift"] > 5


def test_a_reread_of_the_log_gives_the_metric(judged: dict[str, EvalLog]) -> None:
    log = judged["random"]
    scores = [s.scores["rubric_sensitivity"] for s in log.samples or [] if s.scores]
    defined = {k: v for k, v in summarise_scores(scores).as_metrics().items() if v is not None}
    assert defined == pytest.approx(metrics(log), nan_ok=True)


def test_a_figure_no_pair_defines_is_left_out_of_the_results_but_the_headline_stays() -> None:
    # Inspect leaves a None out of its results: no `nan` row in the terminal table.
    figures = summarise_scores([]).as_metrics()
    assert figures["loss_rate"] is None and figures["unchanged_mean_abs_shift"] is None
    nan_rows = [k for k, v in figures.items() if isinstance(v, float) and math.isnan(v)]
    assert nan_rows == ["sensitivity"]


def test_a_debate_left_unscored_leaves_its_pairs_out(tmp_path: Path) -> None:
    oracle = oracle_judge()

    def reply(n: int, messages: list[Any], config: Any) -> Any:
        if "bicycle" in str(messages[1].content):  # the off-topic rebuttal
            from support.scripted import output

            return output("judge", "No.")
        assert oracle.reply is not None
        return oracle.reply(n, messages, config)

    log = run(tmp_path, Script("judge", reply), degradations="[off_topic, shuffled]",
              limit_sources=2)  # fmt: skip
    found = metrics(log)
    assert found["pairs"] == 8 and found["pairs_judged"] == 4  # the off-topic ones are out
    assert found["parse_rate"] == pytest.approx(6 / 10) and found["sensitivity"] == 1.0


def test_each_sample_says_what_it_is() -> None:
    task = judge_sensitivity(degradations="[echo]", limit_sources=1)
    inputs = {str(s.id): str(s.input) for s in task.dataset}
    assert inputs["mirror-1-transcript"].endswith("Reference.")
    line = "echo: CON degraded; must fall: argument_quality, rebuttal_effectiveness; compared"
    assert f"{line} with mirror-1-transcript." in inputs["mirror-1-transcript.echo.con"]
