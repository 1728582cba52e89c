"""Repeat-run judging (`judge_repeats`), the swap rule (`swap_rule`) and the model-family
gate (`strict_judge: family`), end to end with scripted debaters and judges."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai.model import GenerateConfig, ModelOutput
from inspect_ai.scorer import SampleScore, Score

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import scorer_taker
from debatebench_eval.core.seeds import repeat_seed
from debatebench_eval.judging.families import family
from debatebench_eval.judging.figures import figures_of
from debatebench_eval.judging.metrics import judge_reliability
from debatebench_eval.judging.options import JudgingOptions
from debatebench_eval.judging.repeats import flip_rate, judge_groups, outcome
from debatebench_eval.judging.verdict import SWAP_DISAGREED

from support.judge_replies import is_rubric_call, rubric_reply, side_scores
from support.rubric_runs import (
    all_metrics,
    content_judge,
    debaters,
    judge_only,
    prompt_of,
    rubric_score,
    strong_label,
)
from support.scripted import Script, output


def seeded_judge(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
    """The strong (pro) side's scores follow the call's seed: an odd seed rates it above
    the other side, an even one below, so repeats disagree when their seeds' parities do."""
    strong = 0.9 if (config.seed or 0) % 2 else 0.3
    a, b = (strong, 0.6) if strong_label(prompt_of(messages)) == "A" else (0.6, strong)
    return output("judge", rubric_reply(side_scores(a), side_scores(b)))


def rubric_calls(script: Script) -> list[Any]:
    return [call for call in script.calls if is_rubric_call(call.messages)]


def test_repeats_judge_k_times_with_distinct_recorded_seeds_and_report_the_spread(
    run_debate: Any,
) -> None:
    judge = Script("judge", reply=judge_only(content_judge()))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, fact_check=False,
                     judge_repeats=3)  # fmt: skip
    score = rubric_score(log)
    calls = rubric_calls(judge)
    assert len(calls) == 3 * 2  # k x the two orientations
    seeds = score.metadata["judge_repeats"]["seeds"]
    assert len(set(seeds)) == 3 and {c.config.seed for c in calls} == set(seeds)
    assert seeds[0] == score.metadata["readings"][0]["seed"] == repeat_seed(seeds[0], 1)
    assert [r["repeat"] for r in score.metadata["readings"]] == [1, 2, 3]
    figures = figures_of(score)
    # The scripted judge reads content only: every repeat agrees, no spread.
    assert figures["repeat_flip_rate"] == 0 and figures["repeat_stable"] == 1
    assert figures["repeat_spread.clarity"] == 0
    # The cost is in the run's usage: six calls of 50 input tokens each.
    assert log.stats.model_usage["mockllm/judge"].input_tokens == 6 * 50
    metrics = all_metrics(log)
    assert metrics["repeat_stable"] == 1 and "panel_alpha" not in metrics
    # The explanation names each repeat: a table column and each justification's source.
    assert "k3" in score.explanation and "repeat 2, reading 1" in score.explanation


def test_a_judge_that_follows_its_seed_flips_across_repeats(run_debate: Any) -> None:
    judge = Script("judge", reply=judge_only(seeded_judge))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, fact_check=False,
                     judge_repeats=4, seed=11)  # fmt: skip
    score = rubric_score(log)
    parities = [seed % 2 for seed in score.metadata["judge_repeats"]["seeds"]]
    winners = ["pro" if p else "con" for p in parities]
    figures = figures_of(score)
    assert figures["repeat_flip_rate"] == pytest.approx(flip_rate(winners))
    assert figures["repeat_stable"] == float(len(set(winners)) == 1)
    assert len(set(winners)) == 2, "the seeds chosen give both parities"
    assert figures["repeat_spread.argument_quality"] > 0


def test_one_repeat_is_todays_judging() -> None:
    assert repeat_seed(1234, 1) == 1234 and repeat_seed(1234, 2) != repeat_seed(1234, 3)
    records = [{"judge": "a"}, {"judge": "b"}]
    assert judge_groups(records) == [[records[0]], [records[1]]]
    repeated = [
        {"judge": "a", "repeat": 1},
        {"judge": "a", "repeat": 2},
        {"judge": "a", "repeat": 1},
    ]
    assert judge_groups(repeated) == [repeated[:2], repeated[2:]]
    equal = {"pro": {"x": 1.0}, "con": {"x": 1.0}}
    assert outcome(equal) == "tie"  # type: ignore[arg-type]


def biased_to_a(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
    return output("judge", rubric_reply(side_scores(0.9), side_scores(0.5)))


def test_survive_makes_a_swap_flipped_verdict_a_tie_with_its_reason(run_debate: Any) -> None:
    roles = {**debaters(), "judge": Script("judge", reply=judge_only(biased_to_a)).model()}
    mean = rubric_score(run_debate(roles=roles, fact_check=False))
    assert mean.metadata["winner"] in ("pro", "con") and "swap_rule" not in mean.metadata
    log = run_debate(roles=roles, fact_check=False, swap_rule="survive")
    score = rubric_score(log)
    assert score.metadata["winner"] == "tie" and score.metadata["winner_reason"] == SWAP_DISAGREED
    assert score.metadata["swap_rule"] == "survive"
    survival = score.metadata["swap_survival"]
    assert not survival["survived"]
    assert {w["winner"] for w in survival["orientation_winners"]} == {"pro", "con"}
    assert figures_of(score)["pro_win"] == 0.5 and score.answer.startswith("tie")
    assert score.metadata["margin_tier"] == "UNRESOLVED"


def test_survive_keeps_a_winner_both_orientations_name(run_debate: Any) -> None:
    roles = {**debaters(), "judge": Script("judge", reply=judge_only(content_judge())).model()}
    score = rubric_score(run_debate(roles=roles, fact_check=False,
                                    swap_rule="survive"))  # fmt: skip
    assert score.metadata["winner"] == "pro" and score.metadata["swap_survival"]["survived"]


def test_survive_needs_the_swap_and_repeats_are_bounded() -> None:
    taker = scorer_taker("rubric")
    with pytest.raises(ConfigError, match="swap_judging true"):
        JudgingOptions.parse({"swap_rule": "survive", "swap_judging": False}, taker)
    with pytest.raises(ConfigError, match="mean or survive"):
        JudgingOptions.parse({"swap_rule": "majority"}, taker)
    with pytest.raises(ConfigError, match="at most 25"):
        JudgingOptions.parse({"judge_repeats": 100}, taker)
    assert JudgingOptions.parse({"judge_repeats": "3"}, taker).judge_repeats == 3


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("ollama/qwen3:8b", "qwen"), ("qwen2.5", "qwen"), ("openai/gpt-4o", "openai"),
        ("ollama/gpt-oss:20b", "openai"), ("openai/ft-custom", "openai"), ("o3-mini", "openai"),
        ("gemma4:12b", "google"), ("anthropic/claude-3-5-haiku", "anthropic"),
        ("openai-api/local/smollm2-135m", "huggingface"), ("mockllm/judge0", "judge"),
        ("OpenAI/GPT-4o", "openai"), ("openai/ft/custom-model", "openai"),
        ("ollama/7b-chat", "7b-chat"), ("ollama/custom", "custom"), ("mistral", "mistral"),
    ],
)  # fmt: skip
def test_a_models_family_comes_from_its_name(model: str, expected: str) -> None:
    assert family(model) == expected


def test_a_same_family_judge_is_flagged_and_refused_with_strict_family(run_debate: Any) -> None:
    kin = Script("pro-judge", reply=judge_only(content_judge()))
    roles = {**debaters(), "judge": kin.model()}  # mockllm/pro vs mockllm/pro-judge: "pro"
    score = rubric_score(run_debate(roles=roles, fact_check=False))
    assert score.metadata["judge_warnings"] == []  # not the same model: not self-judged
    assert "pro side's model family" in score.metadata["judge_family_warnings"][0]
    strict = Script("pro-judge", reply=judge_only(content_judge()))
    log = run_debate(roles={**debaters(), "judge": strict.model()}, fact_check=False,
                     strict_judge="family")  # fmt: skip
    sample = (log.samples or [])[0]
    assert sample.error is not None and "strict_judge=family" in sample.error.message
    assert strict.calls == []


def test_a_run_reports_side_bias_self_preference_and_effective_judges(run_debate: Any) -> None:
    # Two judges reading content alike (one of the pro model's family): one effective
    # judge, no self-preference, and pro won the one debate.
    kin = Script("pro-kin", reply=judge_only(content_judge())).model()
    other = Script("other", reply=judge_only(content_judge(0.8, 0.4))).model()
    log = run_debate(roles={**debaters(), "judge": [kin, other]}, fact_check=False)
    metrics = all_metrics(log)
    assert metrics["side_bias"] == 1 and 0 < metrics["side_bias_low"] < 0.5
    assert metrics["self_preference.mockllm/pro-kin"] == 0
    assert "self_preference.mockllm/other" not in metrics
    # One debate: each judge gave one answer, so no correlation is defined.
    assert "effective_judges" not in metrics


def panel_score(winners: dict[str, str], models: dict[str, str]) -> Any:
    """A scored rubric score whose judges each gave one reading won by `winners[judge]`."""

    def reading(winner: str) -> dict[str, Any]:
        high, low = {"clarity": 8.0}, {"clarity": 4.0}
        return {
            "scores": {"pro": high, "con": low} if winner == "pro" else {"pro": low, "con": high}
        }

    readings = [
        {"judge": j, "valid": True, "orientations": [reading(w)]} for j, w in winners.items()
    ]
    first = next(iter(winners.values()))
    return Score(value={"pro_total": 1.0}, metadata={
        "readings": readings, "winner": first, "totals": {"pro": 8.0, "con": 4.0},
        "models": models, "sides": {"pro": {"role": "pro"}, "con": {"role": "con"}},
    })  # fmt: skip


def test_the_run_metric_reads_each_judges_verdict_from_the_score_metadata() -> None:
    models = {"pro": "ollama/qwen3:8b", "con": "ollama/gemma3:4b"}
    rows = [("pro", "pro"), ("con", "pro"), ("pro", "pro"), ("con", "pro")]
    scores = [
        SampleScore(score=panel_score({"ollama/phi4": a, "ollama/qwen2.5": b}, models), sample_id=i)
        for i, (a, b) in enumerate(rows)
    ]
    found = judge_reliability()(scores)
    # qwen2.5 always picks the qwen (pro) side; phi4 half the time: +1/2 self-preference.
    assert found["self_preference.ollama/qwen2.5"] == pytest.approx(0.5)
    assert "self_preference.ollama/phi4" not in found  # not a debater's family
    # qwen2.5's verdicts never vary: no pair has a correlation, so no effective size.
    assert found["effective_judges"] is None
    assert found["side_bias"] == pytest.approx(0.5)  # the first judge's verdict, as recorded
    # Two judges whose verdicts are uncorrelated are worth two.
    rows = [("pro", "pro"), ("con", "con"), ("pro", "con"), ("con", "pro")]
    scores = [
        SampleScore(score=panel_score({"ollama/phi4": a, "ollama/llama3": b}, models), sample_id=i)
        for i, (a, b) in enumerate(rows)
    ]
    found = judge_reliability()(scores)
    assert found["verdict_correlation"] == pytest.approx(0.0)
    assert found["effective_judges"] == found["effective_judges_decisive"] == pytest.approx(2.0)
