"""What a reader sees of a judged debate log: the sample list, the headline, the explanations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.cli.main import main
from debatebench_eval.debating.log_figures import log_figures
from debatebench_eval.judging.explain import relabel

from support.judge_replies import is_rubric_call, ledger_reply, rubric_reply, side_scores, turn_ids
from support.scripted import Script, output

VISIBLE = [
    "sampleId", "input", "answer", "score__rubric__pro_total", "score__rubric__con_total",
    "score__rubric__margin", "score__rubric__swap_flipped", "score__rubric__stance_violations",
    "score__fact_check__pro_contradicted", "score__fact_check__con_contradicted",
    "score__fact_check__unverifiable_citation_pct", "score__turn_stats__hit_budget_rate", "error",
]  # fmt: skip
# What the sample list of inspect_ai 0.3.285 can show at 1600 px.
MOST_COLUMNS = 13


def debaters() -> dict[str, Any]:
    return {
        "pro": Script("pro", reply=lambda n, m, c: output("pro", "Cars kill; ban them.")).model(),
        "con": Script("con", reply=lambda n, m, c: output("con", "Bans hurt trade.")).model(),
    }


def judge(*, flip: bool = False) -> Script:
    """Scores PRO 80% and CON 60%, speaking of Side A and B; `flip`: Side A 80% whatever
    it is (a label bias), so the two readings disagree."""

    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        prompt = str(messages[1].content)
        if not is_rubric_call(messages):
            first, second = list(turn_ids(prompt))[:2]
            claim = {"turn": first, "claim": "Cars kill.", "verdict": "contradicted",
                     "citations": [{"id": second, "quote": "Bans hurt trade."}],
                     "reason": "The other speech says bans hurt."}  # fmt: skip
            claims = [claim, {**claim, "turn": second, "citations": [], "verdict": "unsupported"}]
            return output("judge", ledger_reply(claims, turn_ids(prompt)))
        a_is_pro = "Side A argues for the motion." in prompt
        a, b = (0.8, 0.6) if a_is_pro or flip else (0.6, 0.8)
        data = json.loads(rubric_reply(side_scores(a), side_scores(b)))
        data["side_a"]["clarity"]["justification"] = "Side A is clearer than Side B."
        return output("judge", json.dumps(data))

    return Script("judge", reply=reply)


def test_the_sample_list_shows_the_columns_a_reader_scans_and_hides_the_rest(
    run_debate: Any,
) -> None:
    log = run_debate(roles={**debaters(), "judge": judge().model()}, phases="[opening]")
    view = log.eval.viewer.task_samples_view if log.eval.viewer else None
    assert view is not None and not isinstance(view, list)
    columns = view.columns or []
    assert [c.id for c in columns if c.visible] == VISIBLE
    assert {"tokens", "target", "sampleStatus", "duration"} <= {
        c.id for c in columns if not c.visible
    }
    assert view.score_labels and view.score_labels["unverifiable_citation_pct"] == "Bad cites %"
    scores = (log.samples or [])[0].scores or {}
    assert scores["rubric"].answer == "mockllm/pro (PRO) · RESOLVED"


def test_every_score_key_the_viewer_draws_is_a_column_and_there_are_13_at_most(
    run_debate: Any,
) -> None:
    """The viewer draws every key of every score value, `visible: false` or not: the
    keys themselves must be the short list."""
    log = run_debate(roles={**debaters(), "judge": judge().model()}, phases="[opening]")
    scores = (log.samples or [])[0].scores or {}
    drawn = [
        f"score__{scorer}__{key}"
        for scorer, score in scores.items()
        if isinstance(score.value, dict)
        for key in score.value
    ]
    assert set(drawn) == set(VISIBLE) - {"sampleId", "input", "answer", "error"}
    assert len(VISIBLE) <= MOST_COLUMNS
    # the other numbers are figures in the metadata, their means in the report's figures
    # (`debatebench-eval report`), the headline in the results
    figures = scores["rubric"].metadata["figures"]  # type: ignore[index]
    assert figures["pro_clarity"] == 8 and figures["pro_win"] == 1
    assert "pro_claims" in scores["fact_check"].metadata["figures"]  # type: ignore[index]
    assert "turns" in scores["turn_stats"].metadata["figures"]  # type: ignore[index]
    reported = log_figures(log)
    assert reported["rubric"]["pro_clarity"] == 8 and reported["rubric"]["pro_total"] == 80
    assert reported["fact_check"]["pro_claims"] == 1 and reported["turn_stats"]["turns"] == 2
    results = {s.name: s.metrics for s in (log.results.scores if log.results else [])}
    assert "tier_resolved" in results["rubric"] and "pro_clarity" not in results["rubric"]
    assert results["turn_stats"]["hit_budget_rate"].value == 0 and "pro_total" not in results


def test_the_log_listing_leads_with_the_pro_roles_models_win_rate_by_name(
    run_debate: Any,
) -> None:
    log = run_debate(roles={**debaters(), "judge": judge().model()}, phases="[opening]")
    declared = log.eval.headline_metric
    assert declared is not None and (declared.scorer, declared.score) == ("rubric", "rubric")
    assert log.results is not None and log.results.headline is not None
    first = log.results.scores[0]
    assert (first.name, next(iter(first.metrics))) == ("rubric", "win_rate.mockllm/pro")
    assert first.metrics["win_rate.mockllm/pro"].value == 1
    assert first.metrics["win_rate.mockllm/con"].value == 0


def test_with_one_model_on_both_sides_the_headline_is_the_pro_sides_share(
    run_debate: Any,
) -> None:
    one = Script("m", reply=lambda n, m, c: output("m", "A speech.")).model()
    log = run_debate(roles={"pro": one, "con": one, "judge": judge().model()}, phases="[opening]")
    assert log.results is not None
    first = log.results.scores[0]
    assert next(iter(first.metrics)) == "pro_side_win_rate"
    assert first.metrics["pro_side_win_rate"].value == 1


def test_the_explanation_speaks_of_pro_and_con_and_says_when_readings_disagree(
    run_debate: Any,
) -> None:
    log = run_debate(roles={**debaters(), "judge": judge(flip=True).model()}, phases="[opening]")
    text = ((log.samples or [])[0].scores or {})["rubric"].explanation
    # Only the mapping of each reading still names the blind labels.
    assert "Side A is clearer" not in text and "Side B" not in text
    assert "PRO is clearer than CON." in text and "CON is clearer than PRO." in text
    assert "reading 1 (Side A = " in text and "reading 2 (Side A = " in text
    assert "**the readings disagree** (the swap flipped the winner)" in text
    assert "trust: unvalidated · JSON mode: true" in text


def test_the_fact_check_names_turns_as_the_transcript_heads_them(run_debate: Any) -> None:
    log = run_debate(roles={**debaters(), "judge": judge().model()}, phases="[opening]")
    sample = (log.samples or [])[0]
    text = (sample.scores or {})["fact_check"].explanation
    assert "→ **contradicted**. The other speech says bans hurt." in text
    assert "*Cites:* 1. Opening — CON ✓" in text
    # and each heading in the transcript carries the turn's id, for the other direction
    headings = [str(m.content) for m in sample.messages if m.role == "assistant"]
    assert all("*turn t" in heading for heading in headings)


def test_relabel_puts_back_each_readings_own_mapping() -> None:
    assert relabel("Side A beats side B; SIDE A wins.", {"A": "con", "B": "pro"}) == (
        "CON beats PRO; CON wins."
    )
    assert relabel("Sides Aside", {"A": "pro", "B": "con"}) == "Sides Aside"


# What the end of a debate run prints: one block a reader takes in at a glance.
HEADLINE = {
    "rubric": ["win_rate.mockllm/pro", "win_rate.mockllm/con", "margin", "swap_flipped",
               "tier_resolved", "tier_contested", "tier_unresolved"],
    "fact_check": ["supported", "unverifiable_citation_pct"],
    "turn_stats": ["hit_budget_rate"],
}  # fmt: skip


def test_the_results_screen_is_the_headline_block_and_the_report_has_the_rest(
    run_debate: Any, tmp_path: Path
) -> None:
    log = run_debate(roles={**debaters(), "judge": judge().model()}, phases="[opening]")
    assert log.results is not None
    shown = {s.name: list(s.metrics) for s in log.results.scores}
    assert shown == HEADLINE  # one debate: no interval, no stderr
    assert sum(map(len, shown.values())) <= 12
    fact = {s.name: s.metrics for s in log.results.scores}["fact_check"]
    assert fact["supported"].value == 0  # one claim contradicted, one unsupported
    # Everything else is in the report, computed from the samples by the same metrics.
    path = Path(log.location.removeprefix("file://"))
    assert main(["report", str(path), "-o", str(tmp_path / "report")]) == 0
    text = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert text.startswith("# Debate figures: debatebench_eval/debate")
    assert "Computed from a log of task debate, version 1." in text
    for row in ("| pro_total | 80 |", "| pro_clarity | 8 |", "| pro_claims | 1 |", "| turns | 2 |"):
        assert row in text


def test_two_or_more_debates_show_each_models_interval_and_the_margins_stderr(
    run_debate: Any, tmp_path: Path
) -> None:
    motions = tmp_path / "m.yaml"
    motions.write_text("- {id: one, motion: Ban cars.}\n- {id: two, motion: Tax cars.}\n")
    log = run_debate(roles={**debaters(), "judge": judge().model()}, phases="[opening]",
                     motions=str(motions), motion=None, fact_check=False)  # fmt: skip
    assert log.results is not None
    rubric = {s.name: s.metrics for s in log.results.scores}["rubric"]
    assert list(rubric) == [
        "win_rate.mockllm/pro", "win_rate.mockllm/con",
        "win_rate_low.mockllm/pro", "win_rate_high.mockllm/pro",
        "win_rate_low.mockllm/con", "win_rate_high.mockllm/con",
        "margin", "stderr.margin", "swap_flipped",
        "tier_resolved", "tier_contested", "tier_unresolved",
    ]  # fmt: skip
    assert rubric["win_rate_low.mockllm/pro"].value < 1 == rubric["win_rate.mockllm/pro"].value
