"""The rubric scorer end to end with scripted debaters and judges (offline)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, ModelOutput, get_model
from inspect_ai.util import Store

from debatebench_eval.judging.blind import Orientation
from debatebench_eval.judging.figures import figures_of
from debatebench_eval.judging.options import JudgingOptions
from debatebench_eval.judging.rubric import SideJudgment, check_judgment, default_rubric
from debatebench_eval.judging.score_schema import (
    RUBRIC_LISTED,
    SPEECH_FIGURES,
    answer,
    context,
    judge_record,
    rubric_keys,
    rubric_value,
    side_details,
    stance_summary,
    unblind,
)
from debatebench_eval.judging.structured import Exchange
from debatebench_eval.judging.verdict import SideScores, Verdict, mean_scores
from debatebench_eval.record.protocol import Side
from debatebench_eval.record.store import DebateRecord, Passage, RunSettings, SideSettings

from support.judge_replies import (
    MAXIMA,
    is_rubric_call,
    rubric_reply,
    side_scores,
    turn_ids,
)
from support.rubric_runs import (
    STRONG,
    WEAK,
    Reply,
    all_metrics,
    content_judge,
    debaters,
    judge_only,
    prompt_of,
    rubric_score,
    strong_label,
)
from support.scripted import Script, output
from support.terminal import assert_printed_whole


def test_a_judged_debate_has_every_key_the_winner_and_both_readings(run_debate: Any) -> None:
    judge = Script("judge", reply=judge_only(content_judge()))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, seed=3)
    score = rubric_score(log)
    figures = figures_of(score)
    assert list(score.value) == list(RUBRIC_LISTED)
    assert sorted(figures) == sorted((*rubric_keys(default_rubric()), *SPEECH_FIGURES))
    assert score.value["pro_total"] == 90 and score.value["con_total"] == 50
    answered = (score.answer, score.metadata["winner_reason"])
    assert answered == ("mockllm/pro (PRO) · RESOLVED", "total")
    assert score.metadata["margin_tier"] == "RESOLVED" and figures["tier_resolved"] == 1
    assert score.value["swap_flipped"] == 0 and figures["pro_win"] == 1
    clarity = score.metadata["sides"]["pro"]["dimensions"]["clarity"]
    assert clarity["score"] == 9 and clarity["max"] == 10 and len(clarity["justifications"]) == 2
    assert score.metadata["trust"]["status"] == "unvalidated"
    assert score.metadata["trust"]["record"] is None and len(score.metadata["trust"]["checks"]) == 4
    clarity_row = next(r for r in score.explanation.splitlines() if "clarity /10" in r)
    assert "**9**" in clarity_row and "**5**" in clarity_row
    # The judge's own words speak of Side A and B; the explanation of PRO and CON.
    assert "Side A clarity" not in score.explanation and "Side B clarity" not in score.explanation
    assert "PRO clarity reason." in score.explanation and "CON clarity reason." in score.explanation
    rubric_calls = [c for c in judge.calls if is_rubric_call(c.messages)]
    first, second = (prompt_of(c.messages) for c in rubric_calls)
    # The two readings present the sides under opposite labels.
    assert strong_label(first) != strong_label(second)
    blind = score.metadata["blind"]
    assert ("Side A argues for the motion" in first) == (blind["A"] == "pro")


def test_the_judge_sees_no_side_labels_team_names_or_model_names(run_debate: Any) -> None:
    leaky = "As the PRO side, Reform Advocate says mockllm/pro and the con side are wrong."
    judge = Script("judge", reply=judge_only(content_judge()))
    log = run_debate(roles={**debaters(STRONG + " " + leaky), "judge": judge.model()})
    sample = (log.samples or [])[0]
    assert sample.error is None
    teams = [str(s["team"]["name"]) for s in sample.store["DebateRecord:run"]["sides"]]
    for call in judge.calls:
        prompt = prompt_of(call.messages)
        assert not re.search(r"\b(PRO|CON)\b", prompt)
        assert not re.search(r"\b(pro|con) side\b", prompt, re.IGNORECASE)
        for secret in (*teams, "mockllm", "advocate", "skeptic"):
            assert secret.lower() not in prompt.lower(), secret
        assert "[withheld]" in prompt and set(turn_ids(prompt).values()) == {"A", "B"}


def test_a_judge_biased_to_side_a_is_caught_by_the_swap(run_debate: Any) -> None:
    def side_a_wins(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        return output("judge", rubric_reply(side_scores(0.9), side_scores(0.5)))

    judge = Script("judge", reply=judge_only(side_a_wins))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, seed=8)
    score = rubric_score(log)
    assert score.value["swap_flipped"] == 1
    # Averaged over both orientations the bias cancels: a full tie, settled by the coin.
    assert score.value["pro_total"] == score.value["con_total"] == 70
    seed = sample_seed(log)
    assert score.metadata["winner_reason"] == "coin_toss"
    assert score.metadata["winner"] == ("pro" if seed % 2 == 0 else "con")
    won = score.metadata["winner"]
    assert score.answer == f"mockllm/{won} ({won.upper()}) · tie, coin toss"


def sample_seed(log: EvalLog) -> int:
    return int((log.samples or [])[0].store["DebateRecord:run"]["seed"])


def test_swap_judging_off_judges_once(run_debate: Any) -> None:
    judge = Script("judge", reply=judge_only(content_judge()))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, swap_judging=False)
    assert sum(is_rubric_call(c.messages) for c in judge.calls) == 1
    assert math.isnan(rubric_score(log).value["swap_flipped"])


def test_a_malformed_reply_is_repaired_once_naming_the_problem(run_debate: Any) -> None:
    good = content_judge()

    def first_bad(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        reply = good(n, messages, config)
        if n == 1:
            return output("judge", reply.completion.replace('"clarity"', '"clearness"', 1))
        return reply

    judge = Script("judge", reply=judge_only(first_bad))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, fact_check=False)
    score = rubric_score(log)
    assert figures_of(score)["repairs"] == 1 and score.value["pro_total"] == 90
    (repaired,) = [c for c in judge.calls if len(c.messages) > 2]
    repair = str(repaired.messages[-1].content)
    assert '"side_a.clarity" is missing' in repair or '"side_b.clarity" is missing' in repair
    assert "clearness" in str(repaired.messages[-2].content)  # its own reply, shown back


def test_an_unusable_judge_leaves_the_sample_unscored_never_zero(run_debate: Any) -> None:
    judge = Script("judge", reply=judge_only(lambda n, m, c: output("judge", "Side A won.")))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, fact_check=False)
    score = rubric_score(log)
    assert isinstance(score.value, float) and math.isnan(score.value)
    assert "not valid JSON" in score.reason and "after 1 repair" in score.reason
    replies = score.metadata["readings"][0]["orientations"][0]["replies"]
    assert replies == ["Side A won.", "Side A won."]
    results = {s.name: s for s in (log.results.scores if log.results else [])}
    assert results["rubric"].unscored_samples == 1 and results["rubric"].scored_samples == 0
    # The list says so, and the scorer's results say it scored nothing.
    assert score.answer.startswith("UNSCORED: 0 of 1 judges gave a valid score, 1 needed")
    assert len(score.answer) <= len("UNSCORED: ") + 90
    assert results["rubric"].metrics["scored_samples"].value == 0
    # Nothing to average: the listed keys are left out, not a row of `nan` each.
    assert "pro_total" not in results and "pro_total" not in results["rubric"].metrics
    shown = [m.value for s in results.values() for m in s.metrics.values()]
    assert shown and not any(math.isnan(v) for v in shown)


def fails_when_a_is_con(good: Reply) -> Reply:
    """Good replies when Side A is PRO; prose (to the call and its repair) when A is CON."""

    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        if "Side A argues for the motion." in prompt_of(messages):
            return good(n, messages, config)
        return output("judge", "no")

    return reply


def test_one_failed_reading_leaves_the_swap_flip_undefined_and_named(run_debate: Any) -> None:
    judge = Script("judge", reply=judge_only(fails_when_a_is_con(content_judge())))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, fact_check=False, seed=3)
    score = rubric_score(log)
    judged = score.metadata["readings"][0]
    winners = {o["blind"]["A"]: o.get("winner") for o in judged["orientations"]}
    assert winners == {"pro": "pro", "con": None}
    assert judged["swap_flipped"] is None and not judged["valid"]
    number = 1 + [o["blind"]["A"] for o in judged["orientations"]].index("con")
    assert f"reading {number} (Side A = CON) by mockllm/judge: unusable" in score.reason


def failing(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
    return output("judge", "no")


def panel(*replies: Reply) -> list[Any]:
    return [Script(f"judge{i}", reply=judge_only(r)).model() for i, r in enumerate(replies)]


def test_a_panel_needs_every_judge_unless_a_quorum_is_set(run_debate: Any) -> None:
    judges = panel(content_judge(), content_judge(0.8, 0.4), failing)
    log = run_debate(roles={**debaters(), "judge": judges}, fact_check=False)
    assert "2 of 3 judges gave a valid score, 3 needed" in rubric_score(log).reason
    log = run_debate(roles={**debaters(), "judge": judges}, fact_check=False, judge_quorum=2)
    figures = figures_of(rubric_score(log))
    assert figures["judges"] == 2
    # Median of two judges per dimension is their mean: (27 + 24) / 2 on argument_quality.
    assert figures["pro_argument_quality"] == 25.5


def test_a_panel_takes_the_median_per_dimension_and_reports_alpha(run_debate: Any) -> None:
    judges = panel(content_judge(0.9, 0.5), content_judge(0.8, 0.4), content_judge(0.2, 0.9))
    log = run_debate(roles={**debaters(), "judge": judges}, fact_check=False)
    score = rubric_score(log)
    assert figures_of(score)["pro_clarity"] == 8 and figures_of(score)["con_clarity"] == 5
    # Each unit is a (side, dimension): the three judges' scores as fractions of the max.
    fractions = {"pro": (0.9, 0.8, 0.2), "con": (0.5, 0.4, 0.9)}
    units = [
        [round(top * f) / top for f in fractions[side]]
        for side in ("pro", "con")
        for top in MAXIMA.values()
    ]
    assert all_metrics(log)["panel_alpha"] == pytest.approx(interval_alpha(units), abs=1e-9)


def interval_alpha(units: list[list[float]]) -> float:
    """Krippendorff's alpha (interval metric) for complete data, written out."""
    values = [v for unit in units for v in unit]
    n = len(values)
    within = (
        sum(
            (a - b) ** 2 / (len(unit) - 1)
            for unit in units
            for i, a in enumerate(unit)
            for j, b in enumerate(unit)
            if i != j
        )
        / n
    )
    between = sum((a - b) ** 2 for a in values for b in values) / (n * (n - 1))
    return 1 - within / between


def test_a_judge_that_debated_is_flagged_and_refused_when_strict(run_debate: Any) -> None:
    same = Script("same", reply=judge_only(content_judge()))
    model = same.model()
    log = run_debate(roles={"pro": model, "con": debaters()["con"], "judge": model})
    warnings = rubric_score(log).metadata["judge_warnings"]
    assert warnings and "also the pro side's model" in warnings[0]
    strict = Script("strict", reply=judge_only(content_judge()))
    model = strict.model()
    log = run_debate(
        roles={"pro": model, "con": debaters()["con"], "judge": model}, strict_judge=True
    )
    sample = (log.samples or [])[0]
    assert sample.error is not None and "strict_judge" in sample.error.message
    assert strict.calls == []  # refused before any call, debaters included


def test_judging_options_reach_the_scorers(run_debate: Any) -> None:
    judge = Script("judge", reply=judge_only(content_judge(0.6, 0.5)))
    log = run_debate(
        roles={**debaters(), "judge": judge.model()},
        judge_budget=321,
        fact_check=False,
        resolved_margin=8,
        leaning_margin=2,
        judge_schema=False,
    )
    score = rubric_score(log)
    assert set((log.samples or [])[0].scores or {}) == {"rubric", "turn_stats"}
    assert {c.config.max_tokens for c in judge.calls} == {321}
    assert all(c.config.response_schema is None for c in judge.calls)
    assert score.metadata["margin_tier"] == "RESOLVED"  # margin 10 >= 8


def test_the_judge_asks_for_json_by_schema_by_default(run_debate: Any) -> None:
    judge = Script("judge", reply=judge_only(content_judge()))
    run_debate(roles={**debaters(), "judge": judge.model()})
    schemas = {c.config.response_schema.name for c in judge.calls if c.config.response_schema}
    assert schemas == {"judgment", "ledger"}


def test_win_rate_by_model_pools_a_models_two_sides(run_debate: Any) -> None:
    # The pro-role model speaks STRONG on whichever side it argues.
    judge = Script("judge", reply=judge_only(content_judge()))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, paired=True, fact_check=False)
    winners = [rubric_score(log, i).metadata["winner"] for i in range(2)]
    assert sorted(winners) == ["con", "pro"]
    metrics = all_metrics(log)
    assert metrics["win_rate.mockllm/pro"] == 1 and metrics["win_rate.mockllm/con"] == 0
    assert_printed_whole(metrics)
    # the answer names the winning model and its side, and marks the swapped half
    answers = sorted(rubric_score(log, i).answer for i in range(2))
    assert answers == [
        "mockllm/pro (CON, sides swapped) · RESOLVED",
        "mockllm/pro (PRO) · RESOLVED",
    ]


def test_win_rates_keep_to_pairs_with_both_halves_scored(run_debate: Any) -> None:
    content = content_judge()

    def first_debate_only(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        return content(n, messages, config) if n <= 2 else output("judge", "no")

    judge = Script("judge", reply=judge_only(first_debate_only))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, paired=True,
                     fact_check=False, eval_args={"max_samples": 1})  # fmt: skip
    scored = [isinstance(rubric_score(log, i).value, dict) for i in range(2)]
    assert sorted(scored) == [False, True]
    metrics = all_metrics(log)
    assert metrics["incomplete_pairs"] == 1
    assert not any(name.startswith("win_rate.") for name in metrics)


@pytest.mark.parametrize(
    ("arg", "value", "message"),
    [
        ("swap_judging", "maybe", "true or false"),
        ("judge_quorum", 0, "at least 1"),
        ("resolved_margin", "lots", "number of points"),
        ("rubric", "missing.yaml", "file not found"),
    ],
)
def test_bad_judging_options_fail_before_any_debate(
    run_debate: Any, arg: str, value: Any, message: str
) -> None:
    from debatebench_eval.core.errors import ConfigError

    with pytest.raises(ConfigError, match=message):
        run_debate(**{arg: value})


def test_object_mode_sends_json_object_with_the_schema_for_llama_cpp(run_debate: Any) -> None:
    judge = Script("judge", reply=judge_only(content_judge()))
    run_debate(roles={**debaters(), "judge": judge.model()}, judge_schema="object")
    formats = [(c.config.extra_body or {}).get("response_format") for c in judge.calls]
    assert all(f["type"] == "json_object" for f in formats)
    # The rubric's reading and the fact-check's ledger, whose sides are each one of two forms.
    assert {tuple(f["schema"]["required"]) for f in formats} == {("side_a", "side_b")}
    assert {"anyOf" in f["schema"]["properties"]["side_a"] for f in formats} == {True, False}
    assert all(c.config.response_schema is None for c in judge.calls)


def test_the_viewer_shows_totals_margin_and_swap_columns(run_debate: Any) -> None:
    judge = Script("judge", reply=judge_only(content_judge()))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, fact_check=False)
    view = log.eval.viewer.task_samples_view if log.eval.viewer else None
    assert view is not None and not isinstance(view, list)
    columns = [c.id for c in view.columns or []]
    assert "score__rubric__pro_total" in columns and "score__rubric__swap_flipped" in columns
    assert not any("fact_check" in c for c in columns)  # not run, so not shown
    assert view.score_labels and view.score_labels["margin"] == "Margin"


def test_a_quorum_larger_than_the_panel_is_refused_before_any_model_call(
    run_debate: Any,
) -> None:
    # Checked in the solver: found at scoring time, every debate would be spoken for nothing.
    judge = Script("judge", reply=judge_only(content_judge()))
    pro = Script("pro", reply=lambda n, m, c: output("pro", STRONG))
    con = Script("con", reply=lambda n, m, c: output("con", WEAK))
    roles = {"pro": pro.model(), "con": con.model(), "judge": judge.model()}
    log = run_debate(roles=roles, judge_quorum=2, fact_check=False)
    sample = (log.samples or [])[0]
    assert sample.error is not None
    assert "judge_quorum=2 but the judge role has 1 model" in sample.error.message
    assert (len(pro.calls), len(con.calls), len(judge.calls)) == (0, 0, 0)


def test_the_guard_knows_localhost_and_127_0_0_1_are_one_server() -> None:
    from debatebench_eval.judging.gate import _server

    assert _server("http://localhost:11434/v1") == _server("http://127.0.0.1:11434/v1/")
    assert _server("http://10.0.0.2:11434/v1") != _server("http://127.0.0.1:11434/v1")


# The score's fields from plain inputs: each test names a field a reader sees.

Reading = Exchange[dict[str, SideJudgment]]
ORIENTATIONS = [Orientation(a="pro", b="con"), Orientation(a="con", b="pro")]


def scored_record(*, passages: bool) -> DebateRecord:
    """A finished run's settings, PRO as the pro role; one prep passage if `passages`."""
    # Its own store: the default is one store shared by the whole process.
    record = DebateRecord(store=Store())
    record.run = RunSettings(
        motion_id="m1", motion="Cities should ban cars.", topic="cities",
        phases=["opening"], initiative=["pro"], seed=4, seed_source="sample", paired=False,
        swapped=False,
        sides=[
            SideSettings(side=side, role=side, model=f"mockllm/{side}", budget=100,
                         team={"name": side}, team_file=f"{side}.yaml")
            for side in ("pro", "con")
        ],
    )  # fmt: skip
    if passages:
        record.passages = [Passage(id="P1", pool="x", row_id="1", side="pro", text="Evidence.")]
    return record


def reading(judge: str, orientation: Orientation) -> Reading:
    """One parsed reading scoring PRO at 0.9 and CON at 0.5 of each maximum."""
    a, b = (0.9, 0.5) if orientation.a == "pro" else (0.5, 0.9)
    reply = rubric_reply(side_scores(a), side_scores(b))
    judgments, problems = check_judgment(json.loads(reply), default_rubric())
    assert problems == []
    return Exchange(model=judge, replies=[reply], result=judgments)


def judge_mean(readings: list[Reading]) -> SideScores:
    parsed = [(r.result, o) for r, o in zip(readings, ORIENTATIONS, strict=True)]
    return mean_scores([unblind(result, o) for result, o in parsed if result is not None])


@pytest.mark.parametrize(
    ("winner", "expected"),
    [("pro", "mockllm/pro (PRO) · CON forfeit"), ("con", "mockllm/con (CON) · PRO forfeit")],
)
def test_a_forfeit_answer_names_the_side_that_forfeited(winner: Side, expected: str) -> None:
    verdict = Verdict(winner, "stance_forfeit", {"pro": 40, "con": 60}, 20, "RESOLVED")
    assert answer(verdict, scored_record(passages=False)) == expected


def test_a_tie_answer_names_the_model_and_how_the_tie_was_broken() -> None:
    verdict = Verdict("con", "coin_toss", {"pro": 50, "con": 50}, 0, "UNRESOLVED")
    assert answer(verdict, scored_record(passages=False)) == "mockllm/con (CON) · tie, coin toss"


def test_the_stance_summary_counts_switched_and_unclear_readings() -> None:
    stances: list[dict[Side, str]] = [
        {"pro": "unclear", "con": "switched"},
        {"pro": "unclear", "con": "switched"},
        {"pro": "held", "con": "unclear"},
    ]
    summary = stance_summary(stances, {"pro": False, "con": True})
    assert summary == {
        "pro": {"violation": False, "switched": 0, "unclear": 2, "readings": 3},
        "con": {"violation": True, "switched": 2, "unclear": 1, "readings": 3},
    }


def test_swap_flipped_is_the_share_of_judges_whose_readings_flipped() -> None:
    rubric_ = default_rubric()
    combined: SideScores = {side: dict.fromkeys(rubric_.names, 5.0) for side in ("pro", "con")}
    verdict = Verdict("pro", "coin_toss", {"pro": 25, "con": 25}, 0, "UNRESOLVED")
    record, no_violation = scored_record(passages=False), {"pro": False, "con": False}
    flips = [True, False]
    value = rubric_value(rubric_, combined, verdict, record, flips, no_violation, judges=2,
                         repairs=0)  # fmt: skip
    assert value["swap_flipped"] == 0.5


@pytest.mark.parametrize("passages", [True, False])
def test_prep_grounding_is_in_the_context_and_on_the_evidence_dimension(passages: bool) -> None:
    record, judge = scored_record(passages=passages), Script("judge").model()
    readings = [reading("mockllm/judge", o) for o in ORIENTATIONS]
    records = [judge_record(judge, ORIENTATIONS, readings, default_rubric(), seed=4)]
    options = JudgingOptions(rubric=default_rubric())
    assert context(record, [judge], options, [], records, ORIENTATIONS[0])["prep_grounded"] is (
        passages
    )
    sides = side_details(
        record, default_rubric(), judge_mean(readings), records, [readings], ORIENTATIONS
    )
    dimensions = sides["pro"]["dimensions"]
    assert dimensions["evidence_grounding"]["prep_grounded"] is passages
    assert "prep_grounded" not in dimensions["clarity"]


def test_a_judges_readings_name_the_server_it_was_asked_on() -> None:
    judge = get_model("ollama/judge", base_url="http://127.0.0.1:9/v1", memoize=False)
    readings = [reading("ollama/judge", o) for o in ORIENTATIONS]
    record = judge_record(judge, ORIENTATIONS, readings, default_rubric(), seed=4)
    assert record["base_url"] == "http://127.0.0.1:9/v1"


def test_a_failed_judge_first_in_the_panel_keeps_the_next_judges_justifications() -> None:
    judges = [Script("broken").model(), Script("sound").model()]
    per_judge: list[list[Reading]] = [
        [Exchange(model="mockllm/broken", error="refused") for _ in ORIENTATIONS],
        [reading("mockllm/sound", o) for o in ORIENTATIONS],
    ]
    records = [
        judge_record(judge, ORIENTATIONS, readings, default_rubric(), seed=4)
        for judge, readings in zip(judges, per_judge, strict=True)
    ]
    assert [r["valid"] for r in records] == [False, True]
    record, combined = scored_record(passages=False), judge_mean(per_judge[1])
    sides = side_details(record, default_rubric(), combined, records, per_judge, ORIENTATIONS)
    clarity = sides["pro"]["dimensions"]["clarity"]["justifications"]
    assert [(j["judge"], j["reading"], j["score"]) for j in clarity] == [
        ("mockllm/sound", 1, 9),
        ("mockllm/sound", 2, 9),
    ]
