"""The fact-check: claims tied to real turns, citations verified, never a silent drop."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from inspect_ai.model import GenerateConfig, ModelOutput
from inspect_ai.util import Store

from debatebench_eval.core.reply_model import text_pattern, words_pattern
from debatebench_eval.debating.log_figures import log_figures
from debatebench_eval.judging.blind import Orientation
from debatebench_eval.judging.fact_check import FACT_CHECK_KEYS, FACT_CHECK_LISTED
from debatebench_eval.judging.figures import figures_of
from debatebench_eval.judging.ledger import (
    MAX_CLAIMS_PER_TURN,
    MIN_REASON_WORDS,
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
from debatebench_eval.record.store import DebateRecord, Passage

from support.judge_replies import NO_CLAIMS, NONE_MADE, is_fact_check_call, ledger_reply, turn_ids
from support.reply_models import opening_turn
from support.scripted import Script, output

PRO_TEXT = "Car-free centres cut road deaths by forty percent in Pontevedra."
CON_TEXT = "Shops in car-free zones lost customers, and deliveries became slower."


def record() -> DebateRecord:
    rec = DebateRecord(store=Store())  # its own store: the default one is shared process-wide
    rec.turns = [
        opening_turn("t00000001", "pro", PRO_TEXT),
        opening_turn("t00000002", "con", CON_TEXT),
    ]
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
    claims = [
        claim(first, "contradicted", citations=[{"id": second, "quote": "placeholder words only"}]),
        claim(second, "unsupported"),
    ]
    ledger: dict[str, Any] = json.loads(ledger_reply(claims, ids))
    return ledger


def pro_only(*claims: dict[str, Any], b: Any = NO_CLAIMS) -> dict[str, Any]:
    """A reply with Side A (PRO in `record()` read as Side A) listing `claims`, Side B
    excused by `b`."""
    return {"side_a": {"claims": list(claims)}, "side_b": {"no_claims": b}}


def fact_score(log: Any) -> Any:
    return ((log.samples or [])[0].scores or {})["fact_check"]


def test_the_fact_check_scores_counts_rates_and_keeps_the_ledger(run_debate: Any) -> None:
    judge = fact_judge(a_ledger)
    log = run_debate(roles={**debaters(), "judge": judge.model()}, phases="[opening]")
    score = fact_score(log)
    assert list(score.value) == list(FACT_CHECK_LISTED)
    assert sorted(figures_of(score)) == sorted(FACT_CHECK_KEYS)
    assert figures_of(score)["citations"] == 1 and score.value["unverifiable_citation_pct"] == 100
    assert log.results is not None
    row = {s.name: s.metrics for s in log.results.scores}["fact_check"]
    assert row["unverifiable_citation_pct"].value == 100
    sides = [c["side"] for c in score.metadata["ledger"]]
    assert sorted(sides) == ["con", "pro"]
    first_side = sides[0]
    assert figures_of(score)[f"{first_side}_contradicted"] == 1
    assert figures_of(score)[f"{first_side}_contradicted_rate"] == 1
    assert score.metadata["ledger"][0]["citations"][0]["verified"] is False
    # Turns are named as the transcript heads them, and every claim's reason is shown.
    assert "*Cites:* 1. Opening — CON ✗ quote not found in the cited turn" in score.explanation
    assert "- **1. Opening — CON** — Road deaths fell. → **unsupported**. because" in (
        score.explanation
    )


def test_a_side_with_no_claims_has_nan_rates_not_zero(run_debate: Any) -> None:
    judge = fact_judge(lambda ids, n: NONE_MADE)
    log = run_debate(roles={**debaters(), "judge": judge.model()}, phases="[opening]")
    value = figures_of(fact_score(log))
    assert value["pro_claims"] == 0 and math.isnan(value["pro_supported_rate"])
    assert math.isnan(value["unverifiable_citation_pct"])
    score = fact_score(log)
    assert score.metadata["no_claims"] == {"pro": NO_CLAIMS, "con": NO_CLAIMS}
    assert "**PRO** made no factual claim: Its speeches state only opinions." in score.explanation
    # What no debate of the run could compute is left out of the results, not shown as nan.
    assert log.results is not None
    shown = {
        f"{s.name}.{m.name}": m.value
        for s in log.results.scores
        if s.scorer == "fact_check"
        for m in s.metrics.values()
    }
    assert not [name for name, value in shown.items() if math.isnan(value)], shown
    # No claim: no share supported and no unverifiable share to show; the report says 0.
    assert not {"fact_check.supported", "fact_check.unverifiable_citation_pct"} & set(shown)
    figures = log_figures(log)["fact_check"]
    assert figures["pro_claims"] == 0 and "pro_supported_rate" not in figures
    assert not [name for name in figures if "unverifiable_citation_pct" in name]


EXCUSED = {"no_claims": NO_CLAIMS}
EITHER = (
    '; expected {"claims": [...]} with the factual claims of Side A, or {"no_claims": "..."} '
    "saying why it made none (one of the two, not both)"
)


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ({"claims": []}, '"side_a" is missing'),
        ({"side_a": {"claims": []}, "side_b": EXCUSED},
         '"side_a.claims" is an array of 0; expected at least 1 claim; if Side A made none, '
         'give "no_claims" with why in place of "claims"'),
        ({"side_a": {}, "side_b": EXCUSED}, '"side_a" is an empty object' + EITHER),
        ({"side_a": {"no_claims": "none"}, "side_b": {"no_claims": "n/a"}},
         '"side_b.no_claims" is \'n/a\'; expected a sentence of at least 3 words on why Side B '
         'made no factual claim, or its claims listed under "claims"'),
        ({"side_a": {"no_claims": "Only opinions here."}, "side_b": {"no_claims": 3}},
         '"side_b.no_claims" is 3; expected a string'),
    ],
)  # fmt: skip
def test_an_empty_ledger_without_reasons_is_repaired_then_unscored(
    run_debate: Any, reply: Any, problem: str
) -> None:
    log = run_debate(roles={**debaters(), "judge": fact_judge(lambda ids, n: reply).model()},
                     phases="[opening]")  # fmt: skip
    score = fact_score(log)
    assert math.isnan(score.value) and problem in score.reason
    assert len(score.metadata["exchange"]["replies"]) == 2
    assert score.answer.startswith("UNSCORED: fact-check: ")


def test_a_side_cannot_both_list_claims_and_excuse_itself() -> None:
    orientation = Orientation(a="pro", b="con")
    both = {"claims": [claim()], "no_claims": "It made no claims at all."}
    reply = {"side_a": both, "side_b": {"no_claims": "None."}}
    assert check_fact_check(reply, record(), orientation) == (
        None,
        [
            '"side_a" is an object' + EITHER,
            "\"side_b.no_claims\" is 'None.'; expected a sentence of at least 3 words on why "
            'Side B made no factual claim, or its claims listed under "claims"',
        ],
    )
    fine = pro_only(claim(), b="It only gave its opinion.")
    ledger, problems = check_fact_check(fine, record(), orientation)
    assert problems == [] and ledger is not None
    assert ledger.no_claims == {"con": "It only gave its opinion."}
    assert [c.side for c in ledger.claims] == ["pro"]


def test_a_claim_filed_under_the_other_side_is_refused_naming_the_sides_turns() -> None:
    reply = {"side_a": {"claims": [claim("t00000002")]}, "side_b": EXCUSED}
    assert check_fact_check(reply, record(), Orientation(a="pro", b="con"))[1] == [
        "\"side_a.claims[0].turn\" is 't00000002'; expected the id of a turn of Side A: t00000001"
    ]
    # Read the other way round, the same turn is Side A's.
    ledger, problems = check_fact_check(reply, record(), Orientation(a="con", b="pro"))
    assert problems == [] and ledger is not None and ledger.claims[0].side == "con"


def test_a_reason_of_three_words_is_enough() -> None:
    three = pro_only(claim(), b=" Only opinions stated. ")
    ledger, problems = check_fact_check(three, record(), Orientation(a="pro", b="con"))
    assert problems == [] and ledger is not None
    assert ledger.no_claims == {"con": "Only opinions stated."}


def test_a_ledger_naming_an_unknown_turn_is_repaired_then_unscored(run_debate: Any) -> None:
    judge = fact_judge(lambda ids, n: pro_only(claim("t12345678")))
    log = run_debate(roles={**debaters(), "judge": judge.model()}, phases="[opening]")
    score = fact_score(log)
    assert math.isnan(score.value) and "expected the id of a turn of Side A" in score.reason
    assert len(score.metadata["exchange"]["replies"]) == 2


def test_a_repaired_ledger_is_scored(run_debate: Any) -> None:
    def make(ids: dict[str, str], n: int) -> dict[str, Any]:
        return pro_only(claim("t12345678")) if n == 1 else a_ledger(ids, n)

    judge = fact_judge(make)
    log = run_debate(
        roles={**debaters(), "judge": judge.model()}, phases="[opening]", swap_judging=False
    )
    assert figures_of(fact_score(log))["repairs"] == 1


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
    judge = fact_judge(lambda ids, n: NONE_MADE)
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


# The reply shape's own placeholder for why a side made no claim.
SHAPE_REASON = next(p for p in SHAPE_PLACEHOLDERS if "no factual claim" in p)


def test_the_shapes_placeholder_is_no_reason_for_listing_no_claims() -> None:
    # issue 30 item 6: the reason used to be counted only by its words.
    assert SHAPE_REASON in REPLY_SHAPE
    copied = {"side_a": {"no_claims": SHAPE_REASON}, "side_b": {"no_claims": SHAPE_REASON}}
    ledger, problems = check_fact_check(copied, record(), Orientation(a="pro", b="con"))
    assert ledger is None and problems == [
        f'"side_{label}.no_claims" is {SHAPE_REASON!r}; it is a placeholder from the reply '
        "shape, not an answer"
        for label in ("a", "b")
    ]
    bare = SHAPE_REASON.strip("<>")  # copied, brackets lost
    stripped = {"side_a": {"no_claims": bare}, "side_b": EXCUSED}
    _, problems = check_fact_check(stripped, record(), Orientation(a="pro", b="con"))
    assert problems == [
        f'"side_a.no_claims" is {bare!r}; it repeats the reply shape\'s placeholder '
        "instead of answering"
    ]


def test_a_judge_that_feeds_the_template_back_is_re_asked_naming_it(run_debate: Any) -> None:
    copied = {"side_a": {"no_claims": SHAPE_REASON}, "side_b": {"no_claims": SHAPE_REASON}}
    judge = fact_judge(lambda ids, n: copied)
    log = run_debate(roles={**debaters(), "judge": judge.model()}, phases="[opening]")
    score = fact_score(log)
    assert math.isnan(score.value) and "it is a placeholder from the reply shape" in score.reason
    calls = [c for c in judge.calls if is_fact_check_call(c.messages)]
    repair = str(calls[1].messages[-1].content)
    assert f'"side_a.no_claims" is {SHAPE_REASON!r}; it is a placeholder from the reply' in repair


def test_the_fact_check_schema_carries_each_sides_ids_verdicts_and_count() -> None:
    schema = reply_schema(record(), Orientation(a="con", b="pro"))
    assert schema["required"] == ["side_a", "side_b"]
    for label, own in (("a", "t00000002"), ("b", "t00000001")):
        listed, excused = schema["properties"][f"side_{label}"]["anyOf"]
        assert listed["required"] == ["claims"] and excused["required"] == ["no_claims"]
        claims = listed["properties"]["claims"]
        assert claims["minItems"] == 1 and claims["maxItems"] == MAX_CLAIMS_PER_TURN
        claim_schema = claims["items"]["properties"]
        assert claim_schema["turn"] == {"type": "string", "enum": [own]}  # its side's turns
        citation = claim_schema["citations"]["items"]["properties"]
        assert citation["id"]["enum"] == ["t00000001", "t00000002", "P1"]
        assert claim_schema["verdict"]["enum"] == list(VERDICTS)
        for text in (claim_schema["claim"], claim_schema["reason"]):
            assert text["pattern"] == text_pattern(200) and text["minLength"] == 3
        reason = excused["properties"]["no_claims"]
        assert reason["pattern"] == words_pattern(200, MIN_REASON_WORDS)


def test_the_reply_model_is_built_once_per_record_and_orientation() -> None:
    from debatebench_eval.judging.ledger import reply_model

    orientation = Orientation(a="pro", b="con")
    built = reply_model(record(), orientation)
    assert reply_model(record(), orientation) is built  # the schema and the check share it
    assert reply_model(record(), orientation.swapped()) is not built
    other = record()
    other.turns = [*other.turns, opening_turn("t00000003", "pro", PRO_TEXT)]
    assert reply_model(other, orientation) is not built


def test_a_schema_handed_out_is_a_copy_the_caller_may_change() -> None:
    orientation = Orientation(a="pro", b="con")
    first = reply_schema(record(), orientation)
    first["properties"]["side_a"].clear()
    assert reply_schema(record(), orientation) != first
    assert reply_schema(record(), orientation)["properties"]["side_a"]
