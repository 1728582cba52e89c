"""The schedule: its inputs, its identity and how it grows."""

from __future__ import annotations

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.record.motions import Motion
from debatebench_eval.tournament.debate_kind import Motions, debate_settings, motion_sha256
from debatebench_eval.tournament.schedule import (
    Schedule,
    Settings,
    first_difference,
    pair_task_name,
    parse_names,
    parse_task_args,
)

PHASES = ("opening:short", "conclusion")
SETTINGS = debate_settings(PHASES, "lightning", {"budget": 300}, 1, False, "r" * 64)
MOTIONS = tuple(Motion(f"q{i}", f"Motion {i} holds.", f"topic {i}") for i in range(3))


def schedule(models: tuple[str, ...], judges: tuple[str, ...] = ("ollama/j",),
             motions: tuple[Motion, ...] = MOTIONS,
             settings: Settings = SETTINGS) -> Schedule:  # fmt: skip
    return Schedule(models, judges, tuple(Motions().item(m) for m in motions), settings)


@pytest.mark.parametrize(
    ("text", "minimum", "message"),
    [
        ("ollama/a,ollama/a", 2, "--models: ollama/a is listed twice"),
        ("ollama/a", 2, "--models: 1 model(s) (ollama/a); expected at least 2"),
        ("ollama/a,,ollama/b", 2, "--models: an empty name"),
        ("ollama/a,qwen3", 2, "--models: 'qwen3' has no provider; expected PROVIDER/MODEL"),
        ("ollama/a:b,ollama/a-b", 2, "give the same task name"),
    ],
)
def test_model_lists_are_checked(text: str, minimum: int, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_names(text, "--models", minimum=minimum)


def test_model_names_are_kept_as_given() -> None:
    assert parse_names(" ollama/b , ollama/a ", "--models", minimum=2) == ("ollama/b", "ollama/a")


def test_identity_is_settings_and_judges_not_models_or_their_order() -> None:
    a = schedule(("ollama/b", "ollama/a"))
    b = schedule(("ollama/a", "ollama/b", "ollama/c"))
    assert a.models == ("ollama/a", "ollama/b")
    assert a.identity_hash == b.identity_hash
    assert a.schedule_hash != b.schedule_hash
    # A golden hash: canonical JSON of {schema, settings, judges}. If this changes,
    # every existing tournament folder would be refused as another tournament.
    assert a.identity_hash == ("9b33fb6be3844ff02c60c4baadcab26fbfd90640230abb31ae44a2ed2e82a085")
    assert a.eval_set_id == f"debatebench-{a.identity_hash[:16]}"
    # The first judge fact-checks, so the panel's order is part of the identity.
    assert (
        schedule(a.models, ("ollama/j1", "ollama/j2")).identity_hash
        != schedule(a.models, ("ollama/j2", "ollama/j1")).identity_hash
    )


def test_a_changed_setting_is_named() -> None:
    other = debate_settings(PHASES, "classic", {"budget": 300}, 1, False, "r" * 64)
    there, here = (
        schedule(("ollama/a", "ollama/b")),
        schedule(("ollama/a", "ollama/b"), settings=other),
    )
    assert (
        first_difference(there.identity(), here.identity())
        == "format is lightning there, classic here"
    )
    budget = debate_settings(PHASES, "lightning", {"budget": 500}, 1, False, "r" * 64)
    assert first_difference(
        there.identity(), schedule(there.models, settings=budget).identity()
    ) == ("-T budget is 300 there, 500 here")
    judged = schedule(there.models, ("ollama/k",))
    assert first_difference(there.identity(), judged.identity()) == (
        "judges is [ollama/j] there, [ollama/k] here"
    )


def test_the_schedule_only_grows() -> None:
    old = schedule(("ollama/a", "ollama/b"), motions=MOTIONS[:2])
    new_motion = Motion("q9", "Motion 9 holds.", "topic 9")
    grown = old.grown(schedule(("ollama/a", "ollama/c"), motions=(MOTIONS[1], new_motion)))
    assert grown.models == ("ollama/a", "ollama/b", "ollama/c")
    assert grown.item_ids == ("q0", "q1", "q9")  # old order kept, new appended
    assert old.grown(schedule(("ollama/a", "ollama/b"), motions=MOTIONS[:1])) == old


def test_a_changed_motion_text_is_refused() -> None:
    old = schedule(("ollama/a", "ollama/b"))
    edited = Motion("q1", "Motion 1 holds, mostly.", "topic 1")
    with pytest.raises(ConfigError, match=r"motion 'q1'.*differs from the one this tournament"):
        old.grown(schedule(old.models, motions=(edited,)))
    assert motion_sha256(Motion("q1", "Motion 1 holds.", "topic 1")) == motion_sha256(MOTIONS[1])
    assert motion_sha256(edited) != motion_sha256(MOTIONS[1])


def test_task_arguments() -> None:
    args = parse_task_args(["budget=300", "fact_check=false", "phases=[opening, conclusion]"],
                           ["budget", "fact_check", "phases"], {"seed": "--seed N"})  # fmt: skip
    assert args == {"budget": 300, "fact_check": False, "phases": ["opening", "conclusion"]}
    with pytest.raises(
        ConfigError, match="-T seed: set by the tournament itself; expected --seed N"
    ):
        parse_task_args(["seed=3"], ["budget"], {"seed": "--seed N"})
    with pytest.raises(ConfigError, match="-T budget: given twice"):
        parse_task_args(["budget=3", "budget=4"], ["budget"], {})
    with pytest.raises(ConfigError, match="-T nope: unknown option"):
        parse_task_args(["nope=1"], ["budget"], {})
    with pytest.raises(ConfigError, match="-T budget: no '='"):
        parse_task_args(["budget"], ["budget"], {})


def test_pair_task_names() -> None:
    assert (
        pair_task_name("ollama/qwen3:8b", "openai/gpt-4o-mini")
        == "ollama-qwen3-8b_vs_openai-gpt-4o-mini"
    )
