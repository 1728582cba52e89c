"""The fact-check: claims tied to real turns, citations verified, never a silent drop."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from inspect_ai.model import GenerateConfig, ModelOutput
from inspect_ai.util import Store

from debatebench_eval.core.reply_model import text_pattern
from debatebench_eval.judging.blind import Orientation
from debatebench_eval.judging.fact_check import FACT_CHECK_KEYS
from debatebench_eval.judging.ledger import (
    MAX_CLAIMS_PER_TURN,
    REPLY_SHAPE,
    SHAPE_PLACEHOLDERS,
    VERDICTS,
    Citation,
    Claim,
    check_fact_check,
    check_ledger,
    check_quote,
    quote_match,
    reply_schema,
    verify_citation,
)
from debatebench_eval.record.store import DebateRecord, Passage, Turn, TurnUsage

from support.judge_replies import LISTED, NONE_MADE, is_fact_check_call, turn_ids
from support.scripted import Script, output

PRO_TEXT = "Car-free centres cut road deaths by forty percent in Pontevedra."
CON_TEXT = "Shops in car-free zones lost customers, and deliveries became slower."


def turn(id: str, side: str, text: str) -> Turn:
    return Turn(
        id=id, phase_index=0, phase="opening", side=side, order=0, role=side, team_id=side,
        text=text, model=side, usage=TurnUsage(), budget=100, hit_budget=False,
        finish_reason="stop", latency_ms=1, started_at="now",
    )  # fmt: skip


def record() -> DebateRecord:
    rec = DebateRecord(store=Store())  # its own store: the default one is shared process-wide
    rec.turns = [turn("t00000001", "pro", PRO_TEXT), turn("t00000002", "con", CON_TEXT)]
    evidence = "Pontevedra saw road deaths fall sharply after the ban."
    rec.passages = [Passage(id="P1", pool="args-me", row_id="r1", side="pro", text=evidence)]
    return rec


def claim(turn: str = "t00000001", verdict: str = "supported", **extra: Any) -> dict[str, Any]:
    return {"turn": turn, "claim": "Road deaths fell.", "verdict": verdict,
            "citations": [], "reason": "because", **extra}  # fmt: skip


def test_claims_take_their_side_from_the_turn_they_name() -> None:
    claims, problems = check_ledger(
        {"claims": [claim(), claim("t00000002", "unsupported")]}, record()
    )
    assert problems == [] and [c.side for c in claims or []] == ["pro", "con"]


BAD_LEDGERS = [
    ([], "the reply is an array of 0; expected an object"),
    ({}, '"claims" is missing'),
    ({"claims": "none"}, '"claims" is \'none\'; expected an array'),
    ({"claims": ["x"]}, '"claims[0]" is \'x\'; expected an object'),
    ({"claims": [claim("t99999999")]},
     '"claims[0].turn" is \'t99999999\'; expected the id of a turn in the record: t00000001, '
     "t00000002"),
    ({"claims": [claim(claim="")]}, '"claims[0].claim" is \'\'; expected at least 3 characters'),
    ({"claims": [claim(claim="...")]}, '"claims[0].claim" is \'...\'; it has no words'),
    ({"claims": [claim(verdict="true")]},
     "\"claims[0].verdict\" is 'true'; expected one of 'supported', 'contradicted', "
     "'unsupported' or 'not_checkable'"),
    ({"claims": [claim(citations="P1")]}, '"claims[0].citations" is \'P1\'; expected an array'),
    ({"claims": [claim(citations=[{"quote": "x"}])]}, '"claims[0].citations[0].id" is missing'),
    ({"claims": [claim(citations=[{"id": "P1", "quote": 3}])]},
     '"claims[0].citations[0].quote" is 3; expected a string'),
    ({"claims": [claim(reason=["r"])]}, '"claims[0].reason" is an array of 1; expected a string'),
    ({"claims": [claim(reason="<turn id>")]},
     '"claims[0].reason" is \'<turn id>\'; it is a placeholder from the reply shape'),
    ({"claims": [claim(source="P1")]},
     'unexpected key "claims[0].source"; expected only turn, claim, verdict, citations, reason'),
    ({"claims": [claim()] * 11}, '"claims" is an array of 11; expected at most 10 item(s)'),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "expected"), BAD_LEDGERS)
def test_a_malformed_ledger_is_rejected_naming_the_field(reply: Any, expected: str) -> None:
    claims, problems = check_ledger(reply, record())
    assert claims is None and any(expected in p for p in problems), problems


def test_every_problem_of_every_claim_and_citation_is_reported_word_for_word() -> None:
    bad_citations = [{"quote": "x"}, {"id": "P1", "quote": 3}]
    reply = {
        "claims": [
            claim(verdict="true"),
            claim(citations=bad_citations),
            claim(citations=[{"id": 7, "quote": ""}]),
            claim(citations=[{"id": "P1", "quote": ""}] * 3),
        ]
    }
    assert check_ledger(reply, record()) == (
        None,
        [
            "\"claims[0].verdict\" is 'true'; expected one of 'supported', 'contradicted', "
            "'unsupported' or 'not_checkable'",
            '"claims[1].citations[0].id" is missing',
            '"claims[1].citations[1].quote" is 3; expected a string',
            '"claims[2].citations[0].id" is 7; expected a string',
            '"claims[3].citations" is an array of 3; expected at most 2 item(s)',
        ],
    )


def test_a_claim_gives_its_reason_and_citations_and_a_citation_its_quote() -> None:
    # The schema sent has always required them (OpenAI's strict mode requires every
    # property), so the check requires them too: the two cannot disagree.
    bare = {"turn": "t00000001", "claim": "Road deaths fell.", "verdict": "supported"}
    no_quote = claim("t00000002", "unsupported", citations=[{"id": "P1"}])
    assert check_ledger({"claims": [bare, no_quote]}, record()) == (
        None,
        ['"claims[0].citations" is missing', '"claims[0].reason" is missing',
         '"claims[1].citations[0].quote" is missing'],
    )  # fmt: skip
    id_only = claim("t00000002", "unsupported", citations=[{"id": "P1", "quote": ""}])
    assert check_ledger({"claims": [id_only]}, record()) == (
        [Claim("t00000002", "con", "Road deaths fell.", "unsupported", "because",
               (Citation("P1", "", "passage", None, None),))],
        [],
    )  # fmt: skip


def test_only_whitespace_and_brackets_are_trimmed_from_ids() -> None:
    stray = claim("t00000001X")
    assert check_ledger({"claims": [stray]}, record()) == (
        None,
        [
            "\"claims[0].turn\" is 't00000001X'; expected the id of a turn in the record: "
            "t00000001, t00000002"
        ],
    )
    imported = record()  # an imported transcript names its evidence as it likes
    evidence = imported.passages[0].text
    imported.passages = [Passage(id="XREF-X", pool="file", row_id="r1", side="pro", text=evidence)]
    cited = claim(citations=[{"id": " [XREF-X] ", "quote": "road deaths fell sharply"}])
    claims, problems = check_ledger({"claims": [cited]}, imported)
    assert problems == [] and claims is not None
    assert claims[0].citations == (
        Citation("XREF-X", "road deaths fell sharply", "passage", 95.8, None),
    )


def cite(id: str, quote: str, on: str = "t00000001") -> Citation:
    claims, _ = check_ledger(
        {"claims": [claim(on, citations=[{"id": id, "quote": quote}])]}, record()
    )
    assert claims is not None
    return claims[0].citations[0]


def test_citations_are_verified_against_the_text_they_cite() -> None:
    assert cite("P1", "road deaths fall sharply").verified
    assert cite("[P1]", "Road deaths fell sharply after the ban").verified  # paraphrase tolerated
    unknown = cite("P7", "anything")
    assert not unknown.verified and unknown.problem == "no turn or passage has this id"
    wrong = cite("t00000002", "road deaths fell by half")
    assert wrong.kind == "turn" and wrong.problem == "quote not found in the cited turn"
    own = cite("t00000001", "forty percent")
    assert own.problem == "cites the claim's own turn"
    assert cite("t00000002", "deliveries became slower", on="t00000001").verified


def test_each_citation_keeps_its_id_and_quote_and_gets_its_kind_match_and_problem() -> None:
    assert cite("P7", "anything") == Citation(
        "P7", "anything", None, None, "no turn or passage has this id"
    )
    assert cite("t00000001", "forty percent") == Citation(
        "t00000001", "forty percent", "turn", None, "cites the claim's own turn"
    )
    # The match is kept to one decimal: partial_ratio gives 95.8333... here.
    assert cite("P1", "road deaths fell sharply") == Citation(
        "P1", "road deaths fell sharply", "passage", 95.8, None
    )


def test_quote_matching_threshold_is_between_paraphrase_and_topic_words() -> None:
    text = "Pontevedra saw road deaths fall sharply after the ban."
    assert quote_match("road deaths fell sharply", text) >= 85
    assert quote_match("pollution in Pontevedra doubled", text) < 85
    kept = verify_citation(Citation("P1", "", None, None, None), "passage", text, own_turn=False)
    assert kept.verified and kept.match is None  # no quote: the id alone was checked


def test_a_quote_scoring_exactly_the_threshold_is_accepted() -> None:
    # ratio of 23 and 17 characters, 6 of them added: 100 * (1 - 6 / 40).
    assert check_quote("cars cause deaths daily", "Cars cause deaths.") == (85.0, None)


def test_a_quote_as_long_as_its_text_is_aligned_not_compared_whole() -> None:
    # Both normalise to 33 characters; the quote drops the first word and adds one at
    # the end. Aligned it matches at 91.8; compared whole (ratio) it would score 84.8.
    match, problem = check_quote(
        "deaths fell by forty percent here", "Road deaths fell by forty percent."
    )
    assert problem is None and match == pytest.approx(91.803, abs=0.001)


def fact_judge(make: Any) -> Script:
    """A judge whose fact-check replies come from `make(turn ids shown, fact-check call number)`."""
    count = 0

    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        nonlocal count
        if not is_fact_check_call(messages):
            return output("judge", "{}")
        count += 1
        return output("judge", json.dumps(make(turn_ids(str(messages[1].content)), count)))

    return Script("judge", reply=reply)


def debaters() -> dict[str, Any]:
    return {
        "pro": Script("pro", reply=lambda n, m, c: output("pro", PRO_TEXT)).model(),
        "con": Script("con", reply=lambda n, m, c: output("con", CON_TEXT)).model(),
    }


def a_ledger(ids: dict[str, str], n: int) -> dict[str, Any]:
    first, second = list(ids)[:2]
    return {
        "claims": [
            claim(first, "contradicted",
                  citations=[{"id": second, "quote": "placeholder words only"}]),
            claim(second, "unsupported"),
        ],
        "no_claims": LISTED,
    }  # fmt: skip


def fact_score(log: Any) -> Any:
    return ((log.samples or [])[0].scores or {})["fact_check"]


def test_the_fact_check_scores_counts_rates_and_keeps_the_ledger(run_debate: Any) -> None:
    judge = fact_judge(a_ledger)
    log = run_debate(roles={**debaters(), "judge": judge.model()}, phases="[opening]")
    score = fact_score(log)
    assert list(score.value) == list(FACT_CHECK_KEYS)
    assert score.value["citations"] == 1 and score.value["unverifiable_citation_pct"] == 100
    sides = [c["side"] for c in score.metadata["ledger"]]
    assert sorted(sides) == ["con", "pro"]
    first_side = sides[0]
    assert score.value[f"{first_side}_contradicted"] == 1
    assert score.value[f"{first_side}_contradicted_rate"] == 1
    assert score.metadata["ledger"][0]["citations"][0]["verified"] is False
    # Turns are named as the transcript heads them, and every claim's reason is shown.
    assert "*Cites:* 1. Opening — CON ✗ quote not found in the cited turn" in score.explanation
    assert "- **1. Opening — CON** — Road deaths fell. → **unsupported**. because" in (
        score.explanation
    )


def test_a_side_with_no_claims_has_nan_rates_not_zero(run_debate: Any) -> None:
    judge = fact_judge(lambda ids, n: {"claims": [], "no_claims": NONE_MADE})
    log = run_debate(roles={**debaters(), "judge": judge.model()}, phases="[opening]")
    value = fact_score(log).value
    assert value["pro_claims"] == 0 and math.isnan(value["pro_supported_rate"])
    assert math.isnan(value["unverifiable_citation_pct"])
    score = fact_score(log)
    assert score.metadata["no_claims"] == {"pro": NONE_MADE["A"], "con": NONE_MADE["B"]}
    assert "**PRO** made no factual claim: Its speeches state only opinions." in score.explanation


@pytest.mark.parametrize(
    ("no_claims", "problem"),
    [
        (None, '"no_claims" is missing'),
        ({"A": "", "B": ""}, 'no claim of Side A is listed and "no_claims.A" does not say why'),
        ({"A": "none", "B": "n/a"}, '"no_claims.B" does not say why'),
        ({"A": "Only opinions here.", "B": 3}, '"no_claims.B" is 3; expected a string'),
    ],
)
def test_an_empty_ledger_without_reasons_is_repaired_then_unscored(
    run_debate: Any, no_claims: Any, problem: str
) -> None:
    reply = {"claims": []} if no_claims is None else {"claims": [], "no_claims": no_claims}
    log = run_debate(roles={**debaters(), "judge": fact_judge(lambda ids, n: reply).model()},
                     phases="[opening]")  # fmt: skip
    score = fact_score(log)
    assert math.isnan(score.value) and problem in score.reason
    assert len(score.metadata["exchange"]["replies"]) == 2


def test_a_reason_for_no_claims_beside_listed_claims_is_malformed() -> None:
    orientation = Orientation(a="pro", b="con")
    reply = {"claims": [claim()], "no_claims": {"A": "It made no claims at all.", "B": "None."}}
    assert check_fact_check(reply, record(), orientation) == (
        None,
        [
            '"no_claims.A" gives a reason, but claims of Side A are listed; '
            'leave it "" when the side\'s claims are listed',
            'no claim of Side B is listed and "no_claims.B" does not say why; list the '
            "factual claims Side B made, or say in a sentence why it made none",
        ],
    )
    fine = {"claims": [claim()], "no_claims": {"A": "", "B": "It only gave its opinion."}}
    ledger, problems = check_fact_check(fine, record(), orientation)
    assert (
        problems == []
        and ledger is not None
        and ledger.no_claims == {"con": fine["no_claims"]["B"]}
    )


def test_a_reason_of_three_words_is_enough() -> None:
    three = {"claims": [claim()], "no_claims": {"A": "", "B": " Only opinions stated. "}}
    ledger, problems = check_fact_check(three, record(), Orientation(a="pro", b="con"))
    assert problems == [] and ledger is not None
    assert ledger.no_claims == {"con": "Only opinions stated."}


def test_a_ledger_naming_an_unknown_turn_is_repaired_then_unscored(run_debate: Any) -> None:
    judge = fact_judge(lambda ids, n: {"claims": [claim("t12345678")]})
    log = run_debate(roles={**debaters(), "judge": judge.model()}, phases="[opening]")
    score = fact_score(log)
    assert math.isnan(score.value) and "expected the id of a turn in the record" in score.reason
    assert len(score.metadata["exchange"]["replies"]) == 2


def test_a_repaired_ledger_is_scored(run_debate: Any) -> None:
    def make(ids: dict[str, str], n: int) -> dict[str, Any]:
        return {"claims": [claim("t12345678")]} if n == 1 else a_ledger(ids, n)

    judge = fact_judge(make)
    log = run_debate(
        roles={**debaters(), "judge": judge.model()}, phases="[opening]", swap_judging=False
    )
    assert fact_score(log).value["repairs"] == 1


@pytest.mark.parametrize(
    ("quote", "problem"),
    [
        ("Pontevedra saw road deaths fall sharply after the ban, and crime fell by ninety "
         "percent in every city since 1950", "quote not found in the cited passage"),
        ("deaths", "quote shorter than 3 words"),
        ("road deaths", "quote shorter than 3 words"),
        ("road deaths never fall sharply", "quote not found in the cited passage"),
        ("Pontevedra saw road deaths not fall sharply after the ban",
         "quote adds a negation the cited passage lacks"),
    ],
)  # fmt: skip
def test_invented_trivial_or_reversed_quotes_are_not_verified(quote: str, problem: str) -> None:
    citation = cite("P1", quote)
    assert not citation.verified and citation.problem == problem


def test_a_turn_named_in_brackets_or_as_a_list() -> None:
    claims, problems = check_ledger({"claims": [claim("[t00000001]")]}, record())
    assert problems == [] and claims and claims[0].turn == "t00000001"
    claims, problems = check_ledger({"claims": [claim(["t00000001"])]}, record())  # type: ignore[arg-type]
    assert claims is None and "expected the id of a turn in the record" in problems[0]


def test_the_fact_checker_sees_no_side_team_or_model_names(run_debate: Any) -> None:
    judge = fact_judge(lambda ids, n: {"claims": [], "no_claims": NONE_MADE})
    leak = (
        "As the PRO side, Reform Advocate (mockllm/pro) says the CON side and Cautious Skeptic err."
    )
    leaky = {
        "pro": Script("pro", reply=lambda n, m, c: output("pro", leak)).model(),
        "con": Script("con", reply=lambda n, m, c: output("con", leak)).model(),
    }
    run_debate(roles={**leaky, "judge": judge.model()}, phases="[opening]")
    prompts = [str(c.messages[1].content) for c in judge.calls if is_fact_check_call(c.messages)]
    assert prompts
    for prompt in prompts:
        for secret in ("mockllm", "Reform Advocate", "Cautious Skeptic", " PRO", " CON"):
            assert secret not in prompt, secret
        assert "As the [withheld] side, [withheld] ([withheld]) says" in prompt  # masked, kept


def the_shapes_no_claims() -> dict[str, str]:
    """The reply shape's own `no_claims`, as a judge that copies its template gives it."""
    return {
        label: next(p for p in SHAPE_PLACEHOLDERS if f"Side {label}'s claims" in p)
        for label in ("A", "B")
    }


def test_the_shapes_placeholder_is_no_reason_for_listing_no_claims() -> None:
    # issue 30 item 6: the reason used to be counted only by its words.
    template = the_shapes_no_claims()
    assert template["A"] in REPLY_SHAPE and template["B"] in REPLY_SHAPE
    ledger, problems = check_fact_check(
        {"claims": [], "no_claims": template}, record(), Orientation(a="pro", b="con")
    )
    assert ledger is None and problems == [
        f'"no_claims.{label}" is {template[label]!r}; it is a placeholder from the reply shape, '
        "not an answer"
        for label in ("A", "B")
    ]
    bare = {label: text.strip("<>") for label, text in template.items()}  # copied, brackets lost
    _, problems = check_fact_check(
        {"claims": [], "no_claims": bare}, record(), Orientation(a="pro", b="con")
    )
    assert problems == [
        f'"no_claims.{label}" is {bare[label]!r}; it repeats the reply shape\'s placeholder '
        "instead of answering"
        for label in ("A", "B")
    ]


def test_a_judge_that_feeds_the_template_back_is_re_asked_naming_it(run_debate: Any) -> None:
    template = the_shapes_no_claims()
    judge = fact_judge(lambda ids, n: {"claims": [], "no_claims": template})
    log = run_debate(roles={**debaters(), "judge": judge.model()}, phases="[opening]")
    score = fact_score(log)
    assert math.isnan(score.value) and "it is a placeholder from the reply shape" in score.reason
    calls = [c for c in judge.calls if is_fact_check_call(c.messages)]
    repair = str(calls[1].messages[-1].content)
    assert f'"no_claims.A" is {template["A"]!r}; it is a placeholder from the reply shape' in repair


def test_the_fact_check_schema_carries_the_records_ids_verdicts_and_count() -> None:
    schema = reply_schema(record())
    claim_schema = schema["properties"]["claims"]["items"]["properties"]
    assert claim_schema["turn"]["enum"] == ["t00000001", "t00000002"]
    citation = claim_schema["citations"]["items"]["properties"]
    assert citation["id"]["enum"] == ["t00000001", "t00000002", "P1"]
    assert claim_schema["verdict"]["enum"] == list(VERDICTS)
    assert schema["properties"]["claims"]["maxItems"] == 2 * MAX_CLAIMS_PER_TURN
    assert set(schema["properties"]["no_claims"]["required"]) == {"A", "B"}
    for text in (claim_schema["claim"], claim_schema["reason"]):
        assert text["pattern"] == text_pattern(200) and text["minLength"] == 3
    assert schema["properties"]["no_claims"]["properties"]["A"]["pattern"] == (
        text_pattern(200, empty=True)
    )
