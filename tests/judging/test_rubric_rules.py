"""The judging rules as plain functions: reply checks, winner arithmetic, aggregation."""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai.scorer import Score
from inspect_ai.util import Store

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.judging.blind import (
    Orientation,
    blind_orientation,
    mask,
    masked_terms,
    render_evidence,
    side_lines,
    view_fields,
)
from debatebench_eval.judging.metrics import panel_units
from debatebench_eval.judging.rubric import (
    check_judgment,
    default_rubric,
    load_rubric,
    reply_schema,
)
from debatebench_eval.judging.structured import parse_json_reply
from debatebench_eval.judging.verdict import (
    SideScores,
    decide,
    margin_tier,
    mean_scores,
    median_scores,
    stance_violations,
)
from debatebench_eval.record.store import (
    DebateRecord,
    Passage,
    RunSettings,
    SideSettings,
    Turn,
    TurnUsage,
)

from support.judge_replies import DELETE, MAXIMA, changed_reply, rubric_reply, side_scores

RUBRIC = default_rubric()


def valid() -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(rubric_reply(side_scores(0.8), side_scores(0.6)))
    return reply


def test_a_valid_reply_parses_into_both_sides() -> None:
    judgments, problems = check_judgment(valid(), RUBRIC)
    assert problems == []
    assert judgments["A"].total == sum(side_scores(0.8).values())
    assert judgments["B"].scores["clarity"].score == 6
    assert judgments["A"].ledger[0].status == "rebutted"
    assert judgments["A"].stance == judgments["B"].stance == "held"


def _mutate(path: str, value: Any) -> dict[str, Any]:
    return changed_reply(path, DELETE if value is KeyError else value)


_LEDGER = "side_a.rebuttal_effectiveness.hit_ledger"
_SIDE_KEYS = (
    "argument_quality, evidence_grounding, steelman_fidelity, rebuttal_effectiveness, clarity, "
    "stance"
)
_STATUSES = "one of 'open', 'conceded', 'rebutted' or 'dodged'"
# Each message names the field, the value found and what was expected (the
# reply model's words, `core.reply_model`), every problem of a reply at once.
MALFORMED = [
    ("missing side", _mutate("side_b", KeyError), ['"side_b" is missing']),
    ("extra key", {**valid(), "winner": "A"},
     ['unexpected key "winner"; expected only side_a, side_b']),
    ("extra key in a dimension", _mutate("side_a.clarity.weight", 2),
     ['unexpected key "side_a.clarity.weight"; expected only score, justification']),
    ("ledger outside its dimension", _mutate("side_a.clarity.hit_ledger", []),
     ['unexpected key "side_a.clarity.hit_ledger"; expected only score, justification']),
    ("side not object", _mutate("side_a", [1, 2]),
     ['"side_a" is an array of 2; expected an object']),
    ("missing dimension", _mutate("side_a.clarity", KeyError), ['"side_a.clarity" is missing']),
    ("unknown dimension", _mutate("side_a.charisma", {"score": 1, "justification": "x"}),
     [f'unexpected key "side_a.charisma"; expected only {_SIDE_KEYS}']),
    ("dimension not object", _mutate("side_b.clarity", 7),
     ['"side_b.clarity" is 7; expected an object']),
    ("missing score", _mutate("side_a.clarity.score", KeyError),
     ['"side_a.clarity.score" is missing']),
    ("string score", _mutate("side_a.clarity.score", "7"),
     ['"side_a.clarity.score" is \'7\'; expected a whole number from 0 to 10']),
    ("float score", _mutate("side_a.clarity.score", 7.5),
     ['"side_a.clarity.score" is 7.5; expected a whole number from 0 to 10']),
    ("whole float score", _mutate("side_a.clarity.score", 7.0),
     ['"side_a.clarity.score" is 7.0; expected a whole number from 0 to 10']),
    ("boolean score", _mutate("side_a.clarity.score", True),
     ['"side_a.clarity.score" is true; expected a whole number from 0 to 10']),
    ("negative score", _mutate("side_a.clarity.score", -1),
     ['"side_a.clarity.score" is -1; expected a whole number from 0 to 10']),
    ("score above max", _mutate("side_b.argument_quality.score", 31),
     ['"side_b.argument_quality.score" is 31; expected a whole number from 0 to 30']),
    ("missing justification", _mutate("side_a.clarity.justification", KeyError),
     ['"side_a.clarity.justification" is missing']),
    ("empty justification", _mutate("side_a.clarity.justification", "  "),
     ['"side_a.clarity.justification" is \'  \'; expected at least 3 characters']),
    ("placeholder justification", _mutate("side_b.clarity.justification", "..."),
     ['"side_b.clarity.justification" is \'...\'; it has no words (a placeholder such as ... '
      'is not an answer)']),
    ("a shape's placeholder as justification", _mutate("side_b.clarity.justification", "<why>"),
     ['"side_b.clarity.justification" is \'<why>\'; it is a placeholder from the reply shape, '
      'not an answer']),
    ("a justification of more than two sentences' length",
     _mutate("side_a.clarity.justification", "Clear. " * 43),
     ['"side_a.clarity.justification" is ' + repr("Clear. " * 43)[:77] + '...; expected at '
      'most 300 characters']),
    ("ledger missing", _mutate(_LEDGER, KeyError), [f'"{_LEDGER}" is missing']),
    ("more ledger points than a side could make",
     _mutate(_LEDGER, [{"point": f"point {n}", "status": "open"} for n in range(11)]),
     [f'"{_LEDGER}" is an array of 11; expected at most 10 item(s)']),
    ("ledger not a list", _mutate(_LEDGER, "none"),
     [f'"{_LEDGER}" is \'none\'; expected an array']),
    ("ledger bad status", _mutate(_LEDGER, [{"point": "cost claim", "status": "won"}]),
     [f'"{_LEDGER}[0].status" is \'won\'; expected {_STATUSES}']),
    ("ledger empty point", _mutate(_LEDGER, [{"point": " ", "status": "open"}]),
     [f'"{_LEDGER}[0].point" is \' \'; expected at least 3 characters']),
    ("ledger point not text", _mutate(_LEDGER, [{"point": 3, "status": "open"}]),
     [f'"{_LEDGER}[0].point" is 3; expected a string']),
    ("ledger items not objects, every one named", _mutate(_LEDGER, ["p", None, True, {}]),
     [f'"{_LEDGER}[0]" is \'p\'; expected an object',
      f'"{_LEDGER}[1]" is null; expected an object',
      f'"{_LEDGER}[2]" is true; expected an object',
      f'"{_LEDGER}[3].point" is missing',
      f'"{_LEDGER}[3].status" is missing']),
    ("not an object", [1, 2, 3], ["the reply is an array of 3; expected an object"]),
    ("a string", "A wins", ["the reply is 'A wins'; expected an object"]),
    ("null", None, ["the reply is null; expected an object"]),
    ("an object-less side", _mutate("side_b", {"x": 1}) | {"side_a": "A"},
     ['"side_a" is \'A\'; expected an object',
      *[f'"side_b.{name}" is missing' for name in MAXIMA], '"side_b.stance" is missing',
      f'unexpected key "side_b.x"; expected only {_SIDE_KEYS}']),
    ("every side's problems, not the first's only",
     {"side_b": {**valid()["side_b"], "clarity": []}},
     ['"side_a" is missing', '"side_b.clarity" is an array of 0; expected an object']),
    ("every dimension's problems, not the first's only",
     valid() | {"side_a": {**valid()["side_a"], "argument_quality": "strong",
                           "clarity": {"score": 11}}},
     ['"side_a.argument_quality" is \'strong\'; expected an object',
      '"side_a.clarity.score" is 11; expected a whole number from 0 to 10',
      '"side_a.clarity.justification" is missing']),
    ("missing stance", _mutate("side_a.stance", KeyError), ['"side_a.stance" is missing']),
    ("bad stance", _mutate("side_b.stance", "pro"),
     ['"side_b.stance" is \'pro\'; expected one of \'held\', \'switched\' or \'unclear\'']),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "expected"), [(r, e) for _, r, e in MALFORMED],
                         ids=[name for name, _, _ in MALFORMED])  # fmt: skip
def test_every_malformed_reply_is_rejected_naming_the_field(
    reply: Any, expected: list[str]
) -> None:
    judgments, problems = check_judgment(reply, RUBRIC)
    assert judgments == {}, "a partial reply must never be used"
    assert problems == expected


def test_scores_at_zero_and_at_the_maximum_are_in_range() -> None:
    reply = rubric_reply(
        {**MAXIMA, "clarity": 0}, side_scores(0.5), stances=("switched", "unclear")
    )
    judgments, problems = check_judgment(json.loads(reply), RUBRIC)
    assert problems == []
    assert {n: s.score for n, s in judgments["A"].scores.items()} == {**MAXIMA, "clarity": 0}
    assert (judgments["A"].stance, judgments["B"].stance) == ("switched", "unclear")


def test_justifications_and_ledger_points_are_kept_stripped() -> None:
    reply = _mutate("side_a.clarity.justification", "  Clear enough.  ")
    reply["side_a"]["rebuttal_effectiveness"]["hit_ledger"] = [
        {"point": "  cost claim ", "status": "open"}
    ]
    judgments, _ = check_judgment(reply, RUBRIC)
    assert judgments["A"].scores["clarity"].justification == "Clear enough."
    assert [(e.point, e.status) for e in judgments["A"].ledger] == [("cost claim", "open")]


@pytest.mark.parametrize(
    ("text", "stop", "expected"),
    [
        ("", "stop", "the reply is empty"),
        ("The winner is Side A.", "stop", "not valid JSON"),
        ('{"side_a": {"clarity": ', "max_tokens", "cut off at the token budget"),
        ("<think>long thought</think>", "stop", "the reply is empty"),
    ],
)
def test_unparsable_text_names_why(text: str, stop: str, expected: str) -> None:
    value, problems = parse_json_reply(text, stop)
    assert value is None and expected in problems[0]


def test_json_is_found_inside_reasoning_fences_and_prose() -> None:
    body = rubric_reply(side_scores(1), side_scores(0))
    for text in (f"<think>hmm {{x}}</think>\n```json\n{body}\n```", f"Here it is: {body} Done."):
        value, problems = parse_json_reply(text)
        assert problems == [] and value["side_a"]["clarity"]["score"] == 10


def scores(pro: dict[str, float], con: dict[str, float]) -> SideScores:
    return {"pro": pro, "con": con}


def dims(total_shift: float = 0, steelman: float = 10) -> dict[str, float]:
    return {
        "argument_quality": 20 + total_shift,
        "evidence_grounding": 15,
        "steelman_fidelity": steelman,
        "rebuttal_effectiveness": 10,
        "clarity": 5,
    }


def test_winner_is_the_higher_total() -> None:
    verdict = decide(scores(dims(0), dims(3)), "steelman_fidelity", seed=0)
    assert (verdict.winner, verdict.reason, verdict.margin) == ("con", "total", 3)


def test_a_tied_total_goes_to_the_better_steelman() -> None:
    pro = {**dims(-2), "steelman_fidelity": 12.0}
    verdict = decide(scores(pro, dims(0)), "steelman_fidelity", seed=0)
    assert (verdict.winner, verdict.reason) == ("pro", "steelman_tiebreak")


@pytest.mark.parametrize(("seed", "winner"), [(0, "pro"), (7, "con"), (42, "pro")])
def test_a_full_tie_is_a_coin_toss_from_the_seed(seed: int, winner: str) -> None:
    verdict = decide(scores(dims(), dims()), "steelman_fidelity", seed=seed)
    assert (verdict.winner, verdict.reason, verdict.tier) == (winner, "coin_toss", "UNRESOLVED")


@pytest.mark.parametrize(
    ("margin", "tier"),
    [(15, "RESOLVED"), (14.5, "CONTESTED_BUT_LEANING"), (5, "CONTESTED_BUT_LEANING"),
     (4.5, "UNRESOLVED"), (0, "UNRESOLVED")],
)  # fmt: skip
def test_margin_tiers_and_their_boundaries(margin: float, tier: str) -> None:
    assert margin_tier(margin) == tier


def test_margin_tiers_are_configurable() -> None:
    assert margin_tier(9, resolved=8, leaning=2) == "RESOLVED"
    assert margin_tier(1.5, resolved=8, leaning=2) == "UNRESOLVED"


def test_floating_noise_never_decides_a_debate() -> None:
    pro = {**dims(), "argument_quality": 0.1 + 0.2, "evidence_grounding": 15 + 19.7}
    con = {**dims(), "argument_quality": 0.3, "evidence_grounding": 34.7}
    assert decide(scores(pro, con), "steelman_fidelity", seed=1).reason != "total"


def test_half_points_from_averaged_readings_decide_and_are_the_margin() -> None:
    verdict = decide({"pro": {"a": 60.5}, "con": {"a": 60.0}}, "a", seed=1)
    assert (verdict.winner, verdict.reason, verdict.margin) == ("pro", "total", 0.5)
    assert verdict.totals == {"pro": 60.5, "con": 60.0}


@pytest.mark.parametrize(("pro", "con", "winner"), [(14.5, 14.0, "pro"), (10.0, 12.0, "con")])
def test_the_steelman_tiebreak_goes_either_way_by_half_points(
    pro: float, con: float, winner: str
) -> None:
    tied = {"pro": {"a": 40.0 - pro, "s": pro}, "con": {"a": 40.0 - con, "s": con}}
    verdict = decide(tied, "s", seed=1)
    assert (verdict.winner, verdict.reason) == (winner, "steelman_tiebreak")


def test_a_pro_side_that_switched_forfeits_to_con() -> None:
    verdict = decide({"pro": {"a": 30.0}, "con": {"a": 10.0}}, "a", 0, switched=frozenset({"pro"}))
    assert (verdict.winner, verdict.reason) == ("con", "stance_forfeit")


def test_decide_uses_the_tiers_it_is_given() -> None:
    verdict = decide({"pro": {"a": 13.0}, "con": {"a": 10.0}}, "a", 0, resolved=8, leaning=2)
    assert verdict.tier == "CONTESTED_BUT_LEANING"  # the default leaning (5) says UNRESOLVED


def test_one_reading_is_its_own_mean() -> None:
    reading = scores({"clarity": 7.0}, {"clarity": 4.0})
    assert mean_scores([reading]) == reading


def test_aggregation_averages_orientations_before_the_panel_median() -> None:
    def reading(value: float) -> SideScores:
        return scores({"clarity": value}, {"clarity": 5})

    judges = [(10, 20), (14, 14), (30, 0)]
    ours = median_scores([mean_scores([reading(a), reading(b)]) for a, b in judges])
    other_order = mean_scores([median_scores([reading(j[i]) for j in judges]) for i in range(2)])
    assert ours["pro"]["clarity"] == 15
    assert other_order["pro"]["clarity"] == 14  # the order matters, and ours is fixed


def panel_score(ratings: list[tuple[float, float]]) -> Score:
    readings = [
        {
            "valid": True,
            "orientations": [
                {"scores": {"pro": {"clarity": p}, "con": {"clarity": c}}} for p, c in [pair]
            ],
        }
        for pair in ratings
    ]
    sides = {"pro": {"dimensions": {"clarity": {"max": 10}}}}
    return Score(value=1.0, metadata={"readings": readings, "sides": sides})


def test_panel_units_are_each_judges_rating_as_a_fraction_of_max() -> None:
    units = panel_units(panel_score([(8, 4), (6, 4)]))
    assert units == [[0.8, 0.6], [0.4, 0.4]]
    assert panel_units(panel_score([(8, 4)])) == []  # one judge: no agreement to measure


def test_the_rubric_schema_matches_the_dimensions() -> None:
    schema = reply_schema(RUBRIC)
    side = schema["properties"]["side_a"]["properties"]
    dimensions = {name: side[name] for name in side if name != "stance"}
    assert {name: d["properties"]["score"]["maximum"] for name, d in dimensions.items()} == MAXIMA
    assert side["stance"]["enum"] == ["held", "switched", "unclear"]
    assert "hit_ledger" in side["rebuttal_effectiveness"]["properties"]


def write_rubric(tmp_path: Path, **changes: Any) -> Path:
    data = yaml.safe_load(Path(RUBRIC.file).read_text(encoding="utf-8"))
    data.update(changes)
    data = {k: v for k, v in data.items() if v is not None}
    path = tmp_path / "rubric.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_a_custom_rubric_file_loads(tmp_path: Path) -> None:
    dimensions = [
        {"name": "logic", "max": 60, "description": "Sound reasoning."},
        {"name": "fairness", "max": 40, "description": "Fair to the opponent."},
    ]
    rubric = load_rubric(
        write_rubric(tmp_path, dimensions=dimensions, tiebreak="fairness", ledger=None,
                     evidence=None)
    )  # fmt: skip
    assert rubric.names == ("logic", "fairness") and rubric.ledger is None
    side = {"logic": {"score": 60, "justification": "Sound."}, "stance": "held",
            "fairness": {"score": 0, "justification": "Unfair."}}  # fmt: skip
    judgments, problems = check_judgment({"side_a": side, "side_b": side}, rubric)
    assert problems == [] and judgments["A"].ledger == () and judgments["B"].total == 60
    assert math.isclose(sum(d.max for d in rubric.dimensions), 100)


BAD_RUBRICS = [
    ({"dimensions": []}, "dimensions"),
    ({"dimensions": [{"name": "x", "max": 100}]}, "dimensions[0].description: missing"),
    ({"dimensions": [{"name": "Bad Name", "max": 100, "description": "d"}]}, "lower-case"),
    ({"dimensions": [{"name": "x", "max": 50, "description": "d"}]}, "add up to 50"),
    ({"dimensions": [{"name": "x", "max": 50, "description": "d"},
                     {"name": "x", "max": 50, "description": "d"}]}, "appears twice"),
    ({"tiebreak": "charisma"}, "tiebreak"),
    ({"prompt": "Judge this: {transcript}"}, "no {motion} placeholder"),
    ({"repair": "Try again."}, "no {problems} placeholder"),
    ({"colour": "blue"}, "unknown key"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "expected"), BAD_RUBRICS)
def test_a_bad_rubric_file_is_one_clear_error(
    tmp_path: Path, change: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ConfigError, match=r"rubric\.yaml") as info:
        load_rubric(write_rubric(tmp_path, **change))
    assert expected in str(info.value)


def test_masking_keeps_ordinary_words_and_rewrites_labels() -> None:
    text = "Weigh the pros and cons: a pro-growth tax, pro bono. PRO is wrong; the con side agrees."
    masked = mask(text, [("Reform Advocate", True), ("greens", True)], Orientation("con", "pro"))
    assert masked == (
        "Weigh the pros and cons: a pro-growth tax, pro bono. Side B is wrong; Side A agrees."
    )
    assert mask(
        "Reform Advocate says greens.", [("Reform Advocate", True)], Orientation("pro", "con")
    ) == ("[withheld] says greens.")


def test_dimension_names_cannot_collide_with_score_keys(tmp_path: Path) -> None:
    dimensions = [
        {"name": "win", "max": 60, "description": "d"},
        {"name": "logic", "max": 40, "description": "d"},
    ]
    with pytest.raises(ConfigError, match="'win' is a score key"):
        load_rubric(write_rubric(tmp_path, dimensions=dimensions, tiebreak="logic", ledger=None,
                                 evidence=None))  # fmt: skip


def test_a_literal_brace_in_a_template_is_refused_at_load(tmp_path: Path) -> None:
    prompt = RUBRIC.prompt + '\nExample: {"score": 3}\n'
    with pytest.raises(ConfigError, match=r'unknown placeholder \{"score"\}'):
        load_rubric(write_rubric(tmp_path, prompt=prompt))
    doubled = RUBRIC.prompt + '\nExample: {{"score": 3}}\n'
    assert "{{" in load_rubric(write_rubric(tmp_path, prompt=doubled)).prompt


def test_a_side_that_switched_position_forfeits_whatever_its_scores() -> None:
    scores = {"pro": {"a": 10.0}, "con": {"a": 30.0}}
    verdict = decide(scores, "a", seed=0, switched=frozenset({"con"}))
    assert (verdict.winner, verdict.reason, verdict.tier) == ("pro", "stance_forfeit", "RESOLVED")
    assert verdict.totals == {"pro": 10.0, "con": 30.0} and verdict.margin == 20
    both = decide(scores, "a", seed=0, switched=frozenset({"pro", "con"}))
    assert (both.winner, both.reason) == ("con", "total")


def test_a_stance_violation_needs_a_strict_majority_of_readings() -> None:
    held, switched = {"pro": "held", "con": "held"}, {"pro": "held", "con": "switched"}
    unclear = {"pro": "held", "con": "unclear"}
    assert stance_violations([switched, switched]) == {"pro": False, "con": True}
    assert stance_violations([switched, held]) == {"pro": False, "con": False}
    assert stance_violations([switched, unclear, switched]) == {"pro": False, "con": True}
    assert stance_violations([switched, unclear]) == {"pro": False, "con": False}


# The judge's blind view (judging/blind.py): orientation, masked terms, evidence, fields.

# blind_orientation(seed).a for seeds 0..23, computed once from the rule: a re-judge of
# a sample must show it the same way, so the draw is pinned, not just "some orientation".
SEED_ORIENTATIONS = "PCCCPPPPPPPCCCPCCPPCCCPP"


def test_the_blind_orientation_is_pinned_by_the_seed_and_balanced() -> None:
    drawn = "".join("P" if blind_orientation(s).a == "pro" else "C" for s in range(24))
    assert drawn == SEED_ORIENTATIONS
    assert blind_orientation(4) == Orientation(a="pro", b="con")
    assert blind_orientation(1) == Orientation(a="con", b="pro")
    pro_first = sum(blind_orientation(s).a == "pro" for s in range(200))
    assert 80 <= pro_first <= 120, pro_first


def test_side_lines_say_which_blind_side_argues_for_the_motion() -> None:
    assert side_lines(Orientation(a="pro", b="con")) == (
        "Side A argues for the motion.",
        "Side B argues against the motion.",
    )
    assert side_lines(Orientation(a="con", b="pro")) == (
        "Side A argues against the motion.",
        "Side B argues for the motion.",
    )


def test_a_team_name_is_masked_with_its_case_and_a_model_name_without() -> None:
    # mask runs on every judge call: no deprecated regex flag may warn (a warning
    # is raised when a pattern is compiled, so the cache is emptied first).
    re.purge()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        masked = mask(
            "Greens beat the greens; QWEN3-8B lost.",
            [("Greens", True), ("Qwen3-8B", False)],
            Orientation(a="pro", b="con"),
        )
    assert masked == "[withheld] beat the greens; [withheld] lost."


def blind_record(*, passages: bool = True) -> DebateRecord:
    """PRO: a named team with a masked id and a nested model path; CON: no name, a plain
    id, a model without a provider; one turn each; PRO's two passages if `passages`."""
    record = DebateRecord(store=Store())  # its own store: the default one is shared
    teams = {"pro": {"name": "Greens", "id": "team-7"}, "con": {"id": "blues"}}
    models = {"pro": "ollama/library/Qwen3-8B", "con": "gpt-4o-mini"}
    record.run = RunSettings(
        motion_id="m1", motion="Cities should ban cars.", topic="cities", phases=["opening"],
        initiative=["pro"], seed=4, seed_source="sample", paired=False, swapped=False,
        sides=[SideSettings(side=s, role=s, model=models[s], budget=100, team=teams[s],
                            team_file=f"{s}.yaml") for s in ("pro", "con")],
    )  # fmt: skip
    record.turns = [
        Turn(id=f"t{n}", phase_index=0, phase="opening", side=side, order=n, role=side,
             team_id=side, text=text, model=models[side], usage=TurnUsage(), budget=100,
             hit_budget=False, finish_reason="stop", latency_ms=1, started_at="now")
        for n, (side, text) in enumerate(
            [("pro", " TEAM-7 says the con side is wrong. "), ("con", "Blues: gpt-4o-MINI.")]
        )
    ]  # fmt: skip
    if passages:
        record.passages = [
            Passage(id="P1", pool="x", row_id="1", side="pro", text="  Greens: PRO cities gain. "),
            Passage(id="P2", pool="x", row_id="2", side="pro", text="Qwen3-8B wrote this."),
        ]
    return record


def test_masked_terms_are_names_ids_and_models_each_with_its_case_rule() -> None:
    assert masked_terms(blind_record()) == [
        ("ollama/library/Qwen3-8B", False),
        ("gpt-4o-mini", False),
        ("Qwen3-8B", False),
        ("Greens", True),
        ("team-7", False),
    ]  # "blues" could be a word and CON has no name: neither is masked


def test_evidence_lists_each_blind_sides_passages_masked_side_a_first() -> None:
    record = blind_record()
    pro_block = "[P1] [withheld]: Side {} cities gain.\n[P2] [withheld] wrote this."
    assert render_evidence(record, Orientation(a="pro", b="con")) == (
        f"Side A:\n{pro_block.format('A')}\n\nSide B:\n(no passages)"
    )
    assert render_evidence(record, Orientation(a="con", b="pro")) == (
        f"Side A:\n(no passages)\n\nSide B:\n{pro_block.format('B')}"
    )
    assert render_evidence(blind_record(passages=False), Orientation(a="pro", b="con")) == (
        "None: this debate had no prep phase, so there are no evidence passages."
    )


def test_the_view_fields_are_the_blind_view_of_the_whole_record() -> None:
    orientation = Orientation(a="con", b="pro")
    assert view_fields(blind_record(), orientation) == {
        "motion": "Cities should ban cars.",
        "side_a": "Side A argues against the motion.",
        "side_b": "Side B argues for the motion.",
        "evidence": render_evidence(blind_record(), orientation),
        "transcript": "[t0] Opening — Side B\n[withheld] says Side A is wrong.\n\n"
        "[t1] Opening — Side A\nBlues: [withheld].",
    }
