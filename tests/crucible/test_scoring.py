"""Blind per-claim scoring by a panel, the median, the meta-judge's one rescore, the verdict."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.debating.log_figures import log_figures
from debatebench_eval.judging.blind import blind_orientation
from debatebench_eval.trust.records import JudgeIdentity, save_record
from debatebench_eval.truth_crucible.blindview import reading_seed
from debatebench_eval.truth_crucible.outcome import decide, score_keys
from debatebench_eval.truth_crucible.prompts import judge_prompts
from debatebench_eval.truth_crucible.record import CrucibleRecord
from debatebench_eval.truth_crucible.task import crucible

from support.crucible_replies import (
    DIMENSIONS,
    FIXTURE_TOPIC,
    Behaviour,
    CrucibleScript,
    replace,
    scores_reply,
)
from support.validation_runs import speech_record

Run = Callable[..., EvalLog]


def by_content(high: int = 5, low: int = 2) -> Callable[[str, str], int]:
    """A judge that reads the claim (its side's marker word), not its label."""
    return lambda text, label: high if "firmly" in text else low


def score_of(log: EvalLog) -> Any:
    sample = (log.samples or [])[0]
    assert sample.error is None, sample.error
    return (sample.scores or {})["crucible_score"]


def judge_prompts_of(script: CrucibleScript, *roles: str) -> list[str]:
    return [str(c.messages[1].content) for r in roles for c in script.calls(r)]


def test_no_judge_prompt_reveals_sides_ids_models_or_class_folders(run_crucible: Run) -> None:
    # j2 scores everything 1, so every claim is flagged and the meta-judge (j1) sees them too.
    script = CrucibleScript(
        Behaviour(score=by_content()), behaviours={"j2": Behaviour(score=lambda t, lab: 1)}
    )
    run_crucible(script, "j1", "j2", topic=str(FIXTURE_TOPIC), rounds=2)
    seen = judge_prompts_of(script, "j1", "j2")
    assert len(seen) == 6  # conflicts, two reviews, two readings, the audit
    assert any(p.startswith("Several judges scored the same claims") for p in seen)
    for prompt in seen:
        assert not re.search(r"\b(PRO|CON)\b", prompt), prompt
        assert not re.search(r"C-(PRO|CON)-\d\d", prompt)
        assert "mockllm" not in prompt and "CRITICAL_OF_BOTH" not in prompt
        for folder in ("for/", "against/", "both/"):
            assert folder not in prompt
    scoring = [p for p in seen if "Score every claim shown" in p]
    assert scoring and all("source " in p and "[withheld]" not in p for p in scoring)


def test_each_reading_has_its_own_orientation_and_unblinds_correctly(run_crucible: Run) -> None:
    script = CrucibleScript(Behaviour(score=by_content()))
    log = run_crucible(script, "judge", judges=6)
    score = score_of(log)
    run = (log.samples or [])[0].store_as(CrucibleRecord).run
    assert run is not None
    seed = run.seed
    readings = score.metadata["readings"]
    expected = [blind_orientation(reading_seed(seed, r["reading"])).as_dict() for r in readings]
    assert [r["orientation"] for r in readings] == expected
    assert len({json.dumps(o) for o in expected}) == 2  # both orientations occur
    assert len({json.dumps(r["labels"]) for r in readings}) > 1  # and the order differs
    assert score.value["pro_mean"] == 5 and score.value["con_mean"] == 2
    assert score.answer == "PRO leads · RESOLVED" and score.metadata["leading"] == "pro"
    assert score.value["pro_leads"] == 1 and score.value["tier_resolved"] == 1
    # The end of the run prints the headline block only (one topic: no stderr).
    assert log.results is not None
    (row,) = [s for s in log.results.scores if s.scorer == "crucible_score"]
    shown = [name for name in row.metrics if name != "judge_alpha"]  # None with no spread
    assert shown == ["pro_mean", "con_mean", "gap", "tier_resolved", "tier_contested",
                     "tier_unresolved", "evidence_verified_rate"]  # fmt: skip
    assert row.metrics["gap"].value == 3 and row.metrics["tier_resolved"].value == 1
    # Every key's mean is the report's.
    assert log_figures(log)["crucible_score"]["pro_leads"] == 1


def drop_first(system: str, prompt: str, schema: dict[str, Any]) -> str:
    data = json.loads(scores_reply(prompt, Behaviour()))
    return json.dumps({"scores": dict(list(data["scores"].items())[1:])})


def test_a_reply_missing_a_claim_is_repaired(run_crucible: Run) -> None:
    script = CrucibleScript(Behaviour(overrides={"crucible_scores": replace(drop_first)}))
    score = score_of(run_crucible(script))
    exchange = score.metadata["readings"][0]["exchange"]
    assert exchange["repairs"] == 1 and re.fullmatch(
        r'"scores\.K\d" is missing', exchange["problems"][0][0]
    )
    assert score.value["judges"] == 1 and score.value["repairs"] == 1


def test_a_reading_still_missing_a_claim_is_invalid_and_short_of_quorum_unscored(
    run_crucible: Run,
) -> None:
    script = CrucibleScript(
        behaviours={"j2": Behaviour(overrides={"crucible_scores": replace(drop_first, times=2)})}
    )
    score = score_of(run_crucible(script, "j1", "j2"))
    assert math.isnan(score.value)  # never a partial reading, never a partial panel
    assert score.reason.startswith("1 of 2 readings were valid, 2 needed")
    invalid = score.metadata["readings"][1]
    assert not invalid["valid"] and invalid["scores"] == {}


def test_a_quorum_accepts_a_panel_with_an_invalid_reading(run_crucible: Run) -> None:
    script = CrucibleScript(
        behaviours={"j2": Behaviour(overrides={"crucible_scores": replace(drop_first, times=2)})}
    )
    score = score_of(run_crucible(script, "j1", "j2", judge_quorum=1))
    assert score.value["judges"] == 1 and score.metadata["readings"][1]["valid"] is False


def panel(third: Behaviour, **first: Any) -> CrucibleScript:
    return CrucibleScript(
        Behaviour(**first),
        behaviours={
            "j1": Behaviour(score=lambda t, lab: 4),
            "j2": Behaviour(score=lambda t, lab: 5),
            "j3": third,
        },
    )


def test_the_panel_takes_the_median_not_the_mean(run_crucible: Run) -> None:
    script = panel(Behaviour(score=lambda t, lab: 1))
    score = score_of(run_crucible(script, "j1", "j2", "j3", meta_judge=False))
    assert score.value["pro_mean"] == score.value["con_mean"] == 4  # mean would be 3.33
    assert all(c["weighted_total"] == 4 for c in score.metadata["claims"].values())
    assert score.metadata["audit"]["why_not"] == "meta_judge is off"


def test_claims_spread_across_readings_are_flagged_for_the_audit(run_crucible: Run) -> None:
    # Readings of 4, 5 and 2: every claim's totals span 3 points.
    score = score_of(
        run_crucible(panel(Behaviour(score=lambda t, lab: 2)), "j1", "j2", "j3", audit_spread=3.01)
    )
    assert score.metadata["audit"]["flagged"] == {}
    assert not score.metadata["audit"]["ran"]
    score = score_of(
        run_crucible(panel(Behaviour(score=lambda t, lab: 2)), "j1", "j2", "j3", audit_spread=3)
    )
    audit = score.metadata["audit"]
    assert audit["ran"] and audit["consistent"] and set(audit["flagged"].values()) == {3.0}
    assert len(audit["flagged"]) == 6 and score.value["rescored"] == 0


def rescoring_third(rescore_reply: Callable[..., str] | None) -> CrucibleScript:
    """j3 scores 1 everywhere at first; the meta-judge (the first judge) asks J3 to rescore."""
    calls = [0]

    def third(name: str, system: str, prompt: str, schema: dict[str, Any]) -> str | None:
        calls[0] += 1
        if calls[0] == 1:
            return scores_reply(prompt, Behaviour(score=lambda t, lab: 1))
        return rescore_reply(system, prompt, schema) if rescore_reply else None

    script = panel(Behaviour(overrides={"crucible_scores": third}, score=lambda t, lab: 4))
    script.behaviours["j1"] = Behaviour(score=lambda t, lab: 4, rescore=3)
    return script


def test_a_successful_rescore_replaces_that_reading_of_those_claims(run_crucible: Run) -> None:
    script = rescoring_third(None)
    score = score_of(run_crucible(script, "j1", "j2", "j3"))
    third = score.metadata["readings"][2]
    rescore = third["rescore"]
    assert rescore["replaced"] and len(rescore["claims"]) == 1
    claim = rescore["claims"][0]
    assert rescore["before"][claim] == dict.fromkeys(DIMENSIONS, 1)
    assert third["scores"][claim]["factuality"]["score"] == 4
    others = [c for c in third["scores"] if c != claim]
    assert all(third["scores"][c]["factuality"]["score"] == 1 for c in others)
    assert score.value["rescored"] == 1 and score.metadata["audit"]["rescored"] == 1
    assert rescore["seed"] != third["seed"]  # a fresh seed: a fresh anonymisation


def test_a_failed_rescore_keeps_the_originals_and_says_why(run_crucible: Run) -> None:
    script = rescoring_third(lambda *a: "not json at all")
    score = score_of(run_crucible(script, "j1", "j2", "j3"))
    rescore = score.metadata["readings"][2]["rescore"]
    assert not rescore["replaced"]
    assert "unusable reply after 1 repair(s): the reply is not valid JSON" in rescore["failure"]
    claim = rescore["claims"][0]
    assert score.metadata["readings"][2]["scores"][claim]["factuality"]["score"] == 1
    assert score.value["rescored"] == 1


def test_a_second_rescore_never_happens(run_crucible: Run) -> None:
    script = rescoring_third(lambda s, p, sc: scores_reply(p, Behaviour(score=lambda t, lab: 1)))
    score = score_of(run_crucible(script, "j1", "j2", "j3"))
    assert score.metadata["audit"]["flagged"]  # still spread after the rescore
    assert len(script.calls("j1", "crucible_audit")) == 1
    assert len(script.calls("j3", "crucible_scores")) == 2  # the reading and one rescore
    assert score.value["rescored"] == 1


@pytest.mark.parametrize(
    ("pro", "con", "tier", "leading"),
    [
        (4.5, 3.0, "RESOLVED", "pro"),
        (3.0, 3.5, "CONTESTED_BUT_LEANING", "con"),
        (3.49, 3.0, "UNRESOLVED", None),
        (2.0, 2.0, "UNRESOLVED", None),
    ],
)
def test_the_tier_boundaries_are_inclusive(
    pro: float, con: float, tier: str, leading: str | None
) -> None:
    outcome = decide({"pro": pro, "con": con}, 1.5, 0.5)
    assert (outcome.tier, outcome.leading) == (tier, leading)


@pytest.mark.parametrize(
    ("pro", "con", "resolved", "tier", "leading"),
    [
        (3.0, 3.0, 1.5, "UNRESOLVED", None),  # an exact tie leads nobody
        (3.0, 3.0, 0.0, "UNRESOLVED", None),  # whatever the margins
        (3.0001, 3.0, 1.5, "CONTESTED_BUT_LEANING", "pro"),  # the smallest gap leans
        (3.0, 3.0001, 1.5, "CONTESTED_BUT_LEANING", "con"),
        (3.0, 3.0001, 0.0, "RESOLVED", "con"),
    ],
)
def test_with_leaning_margin_zero_only_an_exact_tie_is_unresolved(
    pro: float, con: float, resolved: float, tier: str, leading: str | None
) -> None:
    outcome = decide({"pro": pro, "con": con}, resolved, 0.0)
    assert (outcome.tier, outcome.leading) == (tier, leading)


def test_a_tied_panel_is_unresolved_at_leaning_margin_zero(run_crucible: Run) -> None:
    score = score_of(run_crucible(CrucibleScript(), leaning_margin=0))  # every claim scores 4
    assert (score.answer, score.metadata["leading"]) == ("no side leads · UNRESOLVED", None)
    assert score.value["gap"] == 0 and math.isnan(score.value["pro_leads"])


def test_custom_margins_move_the_tiers_and_must_be_ordered() -> None:
    assert decide({"pro": 3.0, "con": 2.0}, 1.0, 0.2).tier == "RESOLVED"
    with pytest.raises(ConfigError, match=r"-T leaning_margin: 2\.0 is above resolved_margin 1\.0"):
        crucible(resolved_margin=1.0, leaning_margin=2.0)
    with pytest.raises(ConfigError, match="a number of points from 0 to 4"):
        crucible(resolved_margin=5)


def test_every_sample_has_the_same_score_keys(run_crucible: Run) -> None:
    log = run_crucible(CrucibleScript(), topic=["example", str(FIXTURE_TOPIC)])
    keys = score_keys(list(judge_prompts().dimensions))
    assert len(log.samples or []) == 2
    for sample in log.samples or []:
        assert tuple(sample.scores["crucible_score"].value) == keys  # type: ignore[index]


def test_the_meta_judge_passes_the_trust_gate_before_any_call(
    run_crucible: Run, private_trust_records: Path
) -> None:
    save_record(speech_record(JudgeIdentity("mockllm", "j1", None)), private_trust_records)
    script = CrucibleScript()
    roles = {**script.roles("j1"), "meta_judge": script.model("auditor")}
    log = run_crucible(script, roles=roles, require_validated_judge=True)
    sample = (log.samples or [])[0]
    assert sample.error is not None
    assert "require_validated_judge: judge mockllm/auditor is unvalidated" in sample.error.message
    assert all(not s.calls for s in script.scripts.values())


def test_the_trust_stamp_counts_the_meta_judge(
    run_crucible: Run, private_trust_records: Path
) -> None:
    save_record(speech_record(JudgeIdentity("mockllm", "j1", None)), private_trust_records)
    script = CrucibleScript()
    log = run_crucible(script, roles=script.roles("j1"))
    assert score_of(log).metadata["trust"]["status"] == "trusted"
    roles = {**script.roles("j1"), "meta_judge": script.model("auditor")}
    log = run_crucible(script, roles=roles, resume_cache=False)
    assert score_of(log).metadata["trust"]["status"] == "unvalidated"
    log = run_crucible(script, roles=roles, resume_cache=False, meta_judge=False)
    assert score_of(log).metadata["trust"]["status"] == "trusted"  # no audit: not scoring


def test_the_claims_table_keeps_claims_whole_and_marks_failures_in_red() -> None:
    from debatebench_eval.truth_crucible.display import claims_message
    from debatebench_eval.truth_crucible.record import Claim, EvidenceCheck

    long_claim = "The parser rejects an empty header line. " * 12  # about 500 characters
    good = EvidenceCheck(file="src/parse.py", line_start=11, line_end=11, excerpt="x",
                         verified=True)  # fmt: skip
    bad = EvidenceCheck(file="src/none.py", line_start=3, line_end=4, excerpt="y",
                        verified=False, problem="no such file")  # fmt: skip

    def claim(number: int, text: str, evidence: EvidenceCheck, confidence: float) -> Claim:
        return Claim(id=f"C-PRO-0{number}", side="pro", order=number, claim=text,
                     logic_chain=["a", "b"], vulnerability="v", confidence=confidence,
                     evidence=[evidence], verified=evidence.verified, model="m")  # fmt: skip

    text = claims_message("pro", [claim(1, long_claim, good, 0.6), claim(2, "Made up.", bad, 0.9)])
    first, second = text.splitlines()[-2:]
    assert first.startswith("| `C-PRO-01` | ✓ | 0.6 | The parser rejects")
    assert " ".join(long_claim.split()) in first  # not cut at 240
    assert first.endswith("| ✓ `src/parse.py` lines 11 to 11 |")
    assert second.startswith("| `C-PRO-02` | ❌ | 0.9 |")
    assert "❌ `src/none.py` lines 3 to 4: **no such file**" in second


def test_the_scores_table_is_aligned_text_in_the_viewer_and_markdown_in_the_report() -> None:
    from debatebench_eval.truth_crucible.record import Claim
    from debatebench_eval.truth_crucible.report_text import claims_table

    def claim(number: int, verified: bool) -> Claim:
        return Claim(id=f"C-PRO-0{number}", side="pro", order=number, claim="A claim.",
                     logic_chain=["a", "b"], vulnerability="v", confidence=0.5,
                     evidence=[], verified=verified, model="m")  # fmt: skip

    record = CrucibleRecord(claims=[claim(1, True), claim(2, False)])
    dims = list(judge_prompts().dimensions)
    scored = {"C-PRO-01": {"weighted_total": 4.0, "medians": dict.fromkeys(dims, 4)}}
    viewer = claims_table(record, scored, padded=True)
    # Inspect's viewer draws table cells with no padding: aligned text keeps them apart.
    assert viewer[0] == "```text" and viewer[3].startswith("C-PRO-02")
    assert viewer[1].split() == [
        "claim",
        "total",
        "fact",
        "valid",
        "evid",
        "resp",
        "novel",
        "robust",
        "ok",
    ]
    assert viewer[2].split() == ["C-PRO-01", "4.00", *["4"] * 6, "✓"]
    assert viewer[1].index("total") == viewer[2].index("4.00")
    assert viewer[3].endswith("❌ not verified") and viewer[4] == "```"
    report = claims_table(record, scored)
    assert report[0].startswith("| claim | total | fact | ") and report[1].startswith("|---|")
