"""What a reader sees of a judged debate log: the sample list, the headline, the explanations."""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.judging.explain import relabel

from support.judge_replies import is_rubric_call, ledger_reply, rubric_reply, side_scores, turn_ids
from support.scripted import Script, output

VISIBLE = [
    "sampleId", "input", "answer", "score__rubric__pro_total", "score__rubric__con_total",
    "score__rubric__margin", "score__rubric__swap_flipped", "score__rubric__stance_violations",
    "score__fact_check__pro_contradicted", "score__fact_check__con_contradicted",
    "score__fact_check__unverifiable_citation_pct", "tokens", "error",
]  # fmt: skip


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
    hidden = {c.id for c in columns if not c.visible}
    assert "score__rubric__pro_clarity" in hidden and "score__turn_stats__turns" in hidden
    assert "score__fact_check__pro_supported_rate" in hidden
    assert view.score_labels and view.score_labels["unverifiable_citation_pct"] == "Bad cites %"
    score = ((log.samples or [])[0].scores or {})["rubric"]
    assert score.answer == "PRO · RESOLVED"


def test_the_log_listing_leads_with_the_pro_roles_win_rate(run_debate: Any) -> None:
    log = run_debate(roles={**debaters(), "judge": judge().model()}, phases="[opening]")
    headline = log.eval.headline_metric
    assert headline is not None
    assert (headline.scorer, headline.score, headline.metric) == ("rubric", "pro_role_win", "mean")


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
