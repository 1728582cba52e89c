"""The debate's stages through the real task and solver, with scripted sides and judges:
claims and their repair, cite-or-lose exclusion, conflicts, rounds, convergence, neutralisation."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from inspect_ai.log import EvalLog

from debatebench_eval.truth_crucible.record import CrucibleRecord

from support.crucible_replies import (
    FIXTURE_TOPIC,
    Behaviour,
    CrucibleScript,
    claims_reply,
    conflicts_reply,
    neutral_reply,
    replace,
    review_reply,
    scores_reply,
    sides_of_labels,
    turn_reply,
)
from support.scripted import output

Run = Callable[..., EvalLog]


def record_of(log: EvalLog) -> CrucibleRecord:
    sample = (log.samples or [])[0]
    assert sample.error is None, sample.error
    return sample.store_as(CrucibleRecord)


def prompts(script: CrucibleScript, role: str, schema: str | None = None) -> list[str]:
    return [str(call.messages[1].content) for call in script.calls(role, schema)]


def script_with(**overrides: Any) -> CrucibleScript:
    return CrucibleScript(Behaviour(overrides=overrides))


def fewer_claims(system: str, prompt: str, schema: dict[str, Any]) -> str:
    data = json.loads(claims_reply(system, prompt, Behaviour()))
    return json.dumps({"claims": data["claims"][:1]})


def test_a_whole_debate_is_recorded_stage_by_stage(run_crucible: Run) -> None:
    script = CrucibleScript()
    log = run_crucible(script, rounds=2)
    record = record_of(log)
    assert record.complete and record.stage == "complete"
    assert [c.id for c in record.claims] == [
        "C-PRO-01",
        "C-PRO-02",
        "C-PRO-03",
        "C-CON-01",
        "C-CON-02",
        "C-CON-03",
    ]
    assert all(c.verified for c in record.claims) and len(record.conflicts) == 1
    assert [t.id for t in record.turns] == ["R1.1", "R1.2", "R2.1", "R2.2"]
    assert [s.side for s in record.searches] == ["pro", "con"]
    assert record.run is not None and record.run.seed_source.startswith("derived")
    stages = sorted((c.stage, c.actor) for c in record.calls)
    assert stages == sorted(
        [
            ("propose: queries", "pro"),
            ("propose: claims", "pro"),
            ("propose: queries", "con"),
            ("propose: claims", "con"),
            ("conflicts", "judge"),
            ("round 1 (push)", "pro"),
            ("round 1 (rebuttal)", "con"),
            ("review of round 1", "judge"),
            ("round 2 (push)", "con"),
            ("round 2 (rebuttal)", "pro"),
            ("review of round 2", "judge"),
        ]
    )
    assert all(c.usage.total_tokens == 62 and c.repairs == 0 for c in record.calls)
    said = stage_messages(log)
    assert [actor for _, actor, _ in said] == [
        "PRO side", "CON side", "judge", "PRO side", "CON side", "judge",
        "CON side", "PRO side", "judge",
    ]  # fmt: skip
    # The viewer heads a message by its role: each is a model's, the assistant's.
    assert {role for role, _, _ in said} == {"assistant"}
    assert [model for _, actor, model in said if actor.endswith("side")][2:6] == [
        t.model for t in record.turns
    ]


def stage_messages(log: EvalLog) -> list[tuple[str, str, str | None]]:
    """(role, actor, model) of each message the crucible said, in order."""
    messages = (log.samples or [])[0].messages
    return [
        (m.role, m.metadata["actor"], getattr(m, "model", None))
        for m in messages
        if m.metadata and "actor" in m.metadata
    ]


def test_a_wrong_claim_count_is_repaired(run_crucible: Run) -> None:
    script = script_with(crucible_claims=replace(fewer_claims, side="pro"))
    record = record_of(run_crucible(script))
    assert sum(c.side == "pro" for c in record.claims) == 3
    call = next(c for c in record.calls if c.stage == "propose: claims" and c.actor == "pro")
    assert call.repairs == 1 and call.problems == [
        ['"claims" is an array of 1; expected at least 3 item(s)']
    ]


def test_a_claim_list_still_wrong_after_its_repair_fails_the_sample(run_crucible: Run) -> None:
    script = script_with(crucible_claims=replace(fewer_claims, side="con", times=2))
    sample = (run_crucible(script).samples or [])[0]
    assert sample.error is not None
    message = sample.error.message
    assert "propose: claims, con" in message and "expected at least 3 item(s)" in message
    assert not sample.scores or sample.scores.get("crucible_score") is None


def fabricate_first(system: str, prompt: str, schema: dict[str, Any]) -> str:
    data = json.loads(claims_reply(system, prompt, Behaviour()))
    first = data["claims"][0]
    first["claim"] = "Invented claim about a secret ballot."
    first["evidence"][0]["excerpt"] = "the council held a secret ballot of every resident"
    return json.dumps(data)


def test_an_unverified_claim_is_kept_but_takes_no_part(run_crucible: Run) -> None:
    script = script_with(crucible_claims=replace(fabricate_first, side="con"))
    log = run_crucible(script, "j1", "j2", rounds=1)
    record = record_of(log)
    lost = record.claim("C-CON-01")
    assert lost is not None and not lost.verified
    assert (
        lost.failure == "no verified evidence (evidence 1: quote not found in the cited line range)"
    )
    for role in ("pro", "con", "j1", "j2"):
        for prompt in prompts(script, role):
            assert "secret ballot" not in prompt
    for prompt in prompts(script, "pro", "crucible_turn"):
        assert "C-CON-01" not in prompt
    score = (log.samples or [])[0].scores["crucible_score"]  # type: ignore[index]
    assert set(score.metadata["claims"]) == {
        "C-PRO-01",
        "C-PRO-02",
        "C-PRO-03",
        "C-CON-02",
        "C-CON-03",
    }
    assert score.value["con_claims"] == 3 and score.value["con_verified"] == 2


def test_a_side_left_without_verified_claims_ends_the_debate_unscored(run_crucible: Run) -> None:
    def all_fabricated(system: str, prompt: str, schema: dict[str, Any]) -> str:
        data = json.loads(claims_reply(system, prompt, Behaviour()))
        for claim in data["claims"]:
            claim["evidence"][0]["line_start"] = 900
            claim["evidence"][0]["line_end"] = 901
        return json.dumps(data)

    script = script_with(crucible_claims=replace(all_fabricated, side="pro"))
    log = run_crucible(script)
    record = record_of(log)
    assert record.complete and not record.turns and not record.conflicts
    assert record.skipped == (
        "no conflicts or rounds: the pro side had no claim with verified evidence"
    )
    score = (log.samples or [])[0].scores["crucible_score"]  # type: ignore[index]
    assert score.reason.startswith("the PRO side has no claim with verified evidence")
    assert not script.calls("judge", "crucible_scores")
    # Nothing scored: the results say so, with no row of `nan` per key.
    assert log.results is not None
    (row,) = [s for s in log.results.scores if s.scorer == "crucible_score"]
    assert {k: m.value for k, m in row.metrics.items()} == {"scored_samples": 0.0}
    # The crucible's own note is the user's (no model said it).
    assert stage_messages(log)[-1] == ("user", "crucible", None)


def test_a_conflict_naming_an_unknown_claim_is_repaired(run_crucible: Run) -> None:
    def unknown_claim(system: str, prompt: str, schema: dict[str, Any]) -> str:
        data = json.loads(conflicts_reply(prompt))
        data["conflicts"][0]["claims"] = ["K1", "K99"]
        return json.dumps(data)

    record = record_of(run_crucible(script_with(crucible_conflicts=replace(unknown_claim))))
    call = next(c for c in record.calls if c.stage == "conflicts")
    assert call.repairs == 1 and call.problems[0][0].startswith(
        "\"conflicts[0].claims[1]\" is 'K99'; expected one of 'K1',"
    )
    conflict = record.conflicts[0]
    assert conflict.id == "X1" and {c[:5] for c in conflict.claims} == {"C-PRO", "C-CON"}


def test_an_empty_conflict_list_needs_a_reason(run_crucible: Run) -> None:
    replies = iter(
        [
            {"conflicts": [], "none_reason": ""},
            {"conflicts": [], "none_reason": "The claims answer different questions."},
        ]
    )
    script = script_with(crucible_conflicts=replace(lambda *a: json.dumps(next(replies)), times=2))
    record = record_of(run_crucible(script))
    assert record.conflicts == []
    assert record.conflicts_note == "The claims answer different questions."
    call = next(c for c in record.calls if c.stage == "conflicts")
    assert call.problems[0] == [
        '"none_reason" is \'\'; "conflicts" is empty: say why here, or list the conflicts'
    ]


def test_a_missing_steelman_from_round_two_is_repaired(run_crucible: Run) -> None:
    def no_steelman(system: str, prompt: str, schema: dict[str, Any]) -> str | None:
        data = json.loads(turn_reply(system, prompt, schema))
        data.pop("steelman", None)
        return json.dumps(data)

    def in_round_two(name: str, system: str, prompt: str, schema: dict[str, Any]) -> str | None:
        return (
            no_steelman(system, prompt, schema)
            if prompt.startswith("Round 2") and first()
            else None
        )

    calls = iter([True])
    first = lambda: next(calls, False)  # noqa: E731
    record = record_of(run_crucible(script_with(crucible_turn=in_round_two), rounds=2))
    round_one = [t for t in record.turns if t.round == 1]
    assert all(t.steelman is None for t in round_one)
    assert all(t.steelman is not None for t in record.turns if t.round == 2)
    repaired = [c for c in record.calls if c.repairs]
    assert len(repaired) == 1 and repaired[0].stage == "round 2 (push)"
    assert repaired[0].problems[0][0] == '"steelman" is missing'


def test_an_attack_on_its_own_claim_is_repaired(run_crucible: Run) -> None:
    def own_target(system: str, prompt: str, schema: dict[str, Any]) -> str:
        data = json.loads(turn_reply(system, prompt, schema))
        data["attacks"][0]["target"] = data["attacks"][0]["from"]
        return json.dumps(data)

    record = record_of(run_crucible(script_with(crucible_turn=replace(own_target, side="pro"))))
    call = next(c for c in record.calls if c.repairs)
    assert call.actor == "pro" and re.fullmatch(
        r'"attacks\[0\]\.target" is \'C-PRO-0\d\'; expected one of \'C-CON-01\', .*',
        call.problems[0][0],
    )
    first = record.turns[0]
    assert first.attacks[0].claim.startswith("C-PRO") and first.attacks[0].target.startswith(
        "C-CON"
    )


def test_initiative_alternates_and_the_swap_round_argues_the_other_position(
    run_crucible: Run,
) -> None:
    record = record_of(run_crucible(CrucibleScript(), rounds=3, position_swap=True))
    order = [(t.round, t.side, t.kind) for t in record.turns]
    assert order == [
        (1, "pro", "push"),
        (1, "con", "rebuttal"),
        (2, "con", "push"),
        (2, "pro", "rebuttal"),
        (3, "pro", "push"),
        (3, "con", "rebuttal"),
        (4, "con", "swap"),
        (4, "pro", "swap"),
    ]
    for turn in record.turns[-2:]:
        assert turn.argues != turn.side
        own = f"C-{turn.side.upper()}"
        assert all(a.target.startswith(own) and not a.claim.startswith(own) for a in turn.attacks)
    assert [r.kind for r in record.reviews] == ["round", "round", "round", "swap"]


def test_convergence_at_the_threshold_stops_the_rounds_early(run_crucible: Run) -> None:
    log = run_crucible(CrucibleScript(Behaviour(convergence=0.8)), rounds=3, position_swap=True)
    record = record_of(log)
    assert record.stopped_early and record.stop_round == 1
    assert [t.round for t in record.turns] == [1, 1] and len(record.reviews) == 1
    assert 0 < record.reviews[0].lexical <= 1
    value = (log.samples or [])[0].scores["crucible_score"].value  # type: ignore[index]
    assert (value["rounds_run"], value["stopped_early"], value["convergence_max"]) == (1, 1, 0.8)


def test_convergence_below_the_threshold_lets_every_round_run(run_crucible: Run) -> None:
    record = record_of(run_crucible(CrucibleScript(Behaviour(convergence=0.79)), rounds=2))
    assert not record.stopped_early and len(record.reviews) == 2
    assert all(r.lexical > 0 for r in record.reviews)


def biased(system: str, prompt: str, schema: dict[str, Any]) -> str:
    data = json.loads(neutral_reply())
    data["dimensions"]["leading_direction"] = {
        "score": 2,
        "phrase": "open on Sundays",
        "note": "Invites yes.",
    }
    data["neutral_question"] = "What opening days should the village library keep?"
    return json.dumps(data)


def test_diagnose_records_the_check_and_changes_no_prompt(run_crucible: Run) -> None:
    script = script_with(crucible_neutral=replace(biased))
    record = record_of(run_crucible(script, topic=str(FIXTURE_TOPIC), neutralize="diagnose"))
    assert record.neutralization is not None and not record.neutralization.applied
    assert record.neutralization.dimensions["leading_direction"].score == 2
    for call in script.calls("pro"):
        assert "Should the village library open on Sundays?" in str(call.messages[0].content)


def test_rewrite_debates_the_neutral_wording_and_keeps_the_original(run_crucible: Run) -> None:
    script = script_with(crucible_neutral=replace(biased))
    log = run_crucible(script, topic=str(FIXTURE_TOPIC), neutralize="rewrite")
    record = record_of(log)
    assert record.run is not None and record.neutralization is not None
    assert record.neutralization.applied
    assert record.run.question == "What opening days should the village library keep?"
    assert record.run.question_original == "Should the village library open on Sundays?"
    for role in ("pro", "con"):
        for call in script.calls(role):
            assert "What opening days" in str(call.messages[0].content)
            assert "open on Sundays?" not in str(call.messages[0].content)
    later = [p for p in prompts(script, "judge") if "Check this debate question" not in p]
    assert later and all("What opening days" in p for p in later)
    meta = (log.samples or [])[0].scores["crucible_score"].metadata  # type: ignore[index]
    assert meta["question_original"] == "Should the village library open on Sundays?"


def test_a_bias_phrase_not_in_the_question_is_repaired(run_crucible: Run) -> None:
    def invented(system: str, prompt: str, schema: dict[str, Any]) -> str:
        data = json.loads(biased(system, prompt, schema))
        data["dimensions"]["leading_direction"]["phrase"] = "obviously right"
        return json.dumps(data)

    script = script_with(crucible_neutral=replace(invented))
    record = record_of(run_crucible(script, topic=str(FIXTURE_TOPIC), neutralize="rewrite"))
    call = next(c for c in record.calls if c.stage == "neutralize")
    assert (
        call.repairs == 1
        and call.problems[0][0]
        == "\"dimensions.leading_direction.phrase\" is 'obviously right'; expected words of "
        "the question or positions (a score of 1 or more quotes them)"
    )


def test_no_side_prompt_holds_a_claim_id_of_an_unverified_claim(run_crucible: Run) -> None:
    record = record_of(run_crucible(CrucibleScript()))
    ids = re.findall(r"C-(?:PRO|CON)-\d\d", json.dumps([t.model_dump() for t in record.turns]))
    assert set(ids) <= {c.id for c in record.verified()}


def test_a_side_whose_server_ignores_its_budget_is_refused(run_crucible: Run) -> None:
    # The debate's own check (servers.replies.check_budget): budget + 16 tokens pass, 17 fail.
    within = CrucibleScript(behaviours={"con": Behaviour(output_tokens=116)})
    assert record_of(run_crucible(within, budget=100, resume_cache=False)).complete
    over = CrucibleScript(behaviours={"con": Behaviour(output_tokens=117)})
    sample = (run_crucible(over, budget=100, resume_cache=False).samples or [])[0]
    assert sample.error is not None
    assert "propose: queries, con" in sample.error.message
    assert "117 completion tokens for a budget of 100" in sample.error.message
    assert not sample.scores
    recorded = sample.store_as(CrucibleRecord).calls
    assert any(c.actor == "con" and c.usage.output_tokens == 117 for c in recorded)


def test_roles_not_bound_fall_back_to_the_main_model_under_their_own_name(
    run_crucible: Run,
) -> None:
    # As in a debate: each role's calls are the main model's, attributed to the role.
    readings = [0]

    def first_low_then_high(text: str, label: str) -> int:  # every claim flagged for audit
        readings[0] += label == "K1"
        return 1 if readings[0] == 1 else 5

    script = CrucibleScript(Behaviour(score=first_low_then_high))
    log = run_crucible(script, roles={}, judges=2)
    record = record_of(log)
    assert record.run is not None
    assert {record.run.models[r]["model"] for r in ("pro", "con", "meta_judge")} == {"mockllm/main"}
    assert (log.stats.role_usage or {}).keys() == {"pro", "con", "judge", "meta_judge"}
    assert len(script.calls("main", "crucible_audit")) == 1


def speaks_of_side_a(prompt: str, reply: str) -> str:
    """A judge reply whose prose names Side A and one of Side A's claims by its label."""
    label = next(k for k, side in sides_of_labels(prompt).items() if side == "A")
    data = json.loads(reply)
    prose = f"Side A rests on {label}; Side B does not answer it."
    for item in data.get("conflicts", []):
        item["crux"] = prose
    if "convergence" in data:
        data["reason"] = prose
    for item in data.get("scores", {}).values():
        item["validity"]["comment"] = prose
    return json.dumps(data)


def test_the_judges_words_are_shown_with_the_real_sides_and_claim_ids(
    run_crucible: Run,
) -> None:
    script = script_with(
        crucible_conflicts=lambda n, s, p, sc: speaks_of_side_a(p, conflicts_reply(p)),
        crucible_review=lambda n, s, p, sc: speaks_of_side_a(p, review_reply(p, Behaviour())),
        crucible_scores=lambda n, s, p, sc: speaks_of_side_a(p, scores_reply(p, Behaviour())),
    )
    log = run_crucible(script)
    record = record_of(log)
    revealed = re.compile(r"^(PRO|CON) rests on C-\1-0\d; (PRO|CON) does not answer it\.$")
    reading = (log.samples or [])[0].scores["crucible_score"].metadata["readings"][0]  # type: ignore[index]
    comment = next(iter(reading["scores"].values()))["validity"]["comment"]
    texts = [record.conflicts[0].crux, record.reviews[0].reason, comment]
    assert all(revealed.match(t) for t in texts), texts
    assert {revealed.match(t).group(1) != revealed.match(t).group(2) for t in texts} == {True}  # type: ignore[union-attr]
    shown = "\n".join(str(m.content) for m in (log.samples or [])[0].messages)
    assert all(t in shown for t in texts[:2]) and "Side A" not in shown
    # A later judge sees that prose blinded again, in its own labels.
    for prompt in prompts(script, "judge", "crucible_scores"):
        assert "rests on K" in prompt and not re.search(r"\b(PRO|CON)\b|C-(PRO|CON)", prompt)


def test_a_failed_review_fails_the_topic_and_keeps_the_work_unscored(run_crucible: Run) -> None:
    unusable = replace(lambda system, prompt, schema: json.dumps({"no": "review"}), times=2)
    sample = (run_crucible(script_with(crucible_review=unusable)).samples or [])[0]
    assert sample.error is not None and "review of round 1, judge" in sample.error.message
    assert not sample.scores  # never a score from a partial debate
    record = sample.store_as(CrucibleRecord)
    assert not record.complete and len(record.claims) == 6 and record.conflicts
    assert [t.id for t in record.turns] == ["R1.1", "R1.2"]
    failed = record.calls[-1]
    assert failed.stage == "review of round 1" and failed.repairs == 1


def test_each_side_may_cite_only_the_files_its_search_showed_it(run_crucible: Run) -> None:
    script = CrucibleScript()
    record = record_of(run_crucible(script, rounds=1))
    for side in ("pro", "con"):
        (call,) = script.calls(side, "crucible_claims")
        sent = call.config.response_schema.json_schema.model_dump(exclude_none=True)
        evidence = sent["properties"]["claims"]["items"]["properties"]["evidence"]["items"]
        (search,) = [s for s in record.searches if s.side == side]
        shown = {i.rsplit(":", 1)[0] for ids in search.hits.values() for i in ids}
        assert shown and set(evidence["properties"]["file"]["enum"]) == shown


def test_a_side_s_prompt_too_long_for_its_context_names_the_side_s_options(
    run_crucible: Run,
) -> None:
    script = CrucibleScript()
    roles = script.roles()
    refused = "This model's maximum context length is 4096 tokens."
    script.scripts["con"].reply = lambda n, messages, config: output(
        "con", refused, stop="model_length"
    )
    log = run_crucible(script, roles=roles)
    error = (log.samples or [])[0].error
    assert error is not None and "the prompt and the debater budget do not fit the " in (
        error.message
    )
    assert "debater's context window" in error.message and "maximum context length" in error.message
    assert "lower -T budget (a side's reply), or -T hits" in error.message
    assert "judge_budget" not in error.message
