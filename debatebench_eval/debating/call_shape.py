"""The calls one debate makes, and the most tokens each can cost, before any is made.

What a run of many debates will cost is asked before it starts (a tournament's
plan prints it). Every call's reply is capped (its budget, and its reasoning
budget on top), and what it is shown is its prompt's own text plus the turns
before it, each at most its cap. So each call has an upper bound on its output
and on its input, from the settings alone:

- a turn: its side's cap (the prep budget in prep); shown the debater's prompt
  text and every earlier speech (a side's own prep notes too);
- a judge's reading (once per orientation and repeat): the judge budget; shown the
  rubric's prompt text and every speech;
- the fact-check (the first judge, once): the judge budget; shown its prompt text
  and every speech.

A prompt's own text is counted at CHARS_PER_TOKEN characters a token (English
prose in the common tokenizers runs 3.5 to 4.5); prep's evidence passages are
not counted (their size is the corpus's). Replies usually stop well short of
their caps, so the bounds are a ceiling, not a forecast.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from debatebench_eval.debating.prompts import debater_prompts
from debatebench_eval.judging.ledger import REPLY_SHAPE, fact_check_prompts
from debatebench_eval.judging.rubric import Rubric, reply_shape, rubric_text
from debatebench_eval.record.protocol import Phase
from debatebench_eval.servers.calls import completion_cap

CHARS_PER_TOKEN = 4
# Keys of a debate task's metadata, read by whoever estimates a run's cost.
CALLS_KEY = "call_bounds"


@dataclass(frozen=True)
class CallBound:
    """One call of a debate: who makes it (`pro`, `con`, `judge` for each judge's
    reading, `fact_check` for the first judge's), how many times, and at most how many
    tokens in and out each time."""

    caller: str
    times: int
    input_tokens: int
    output_tokens: int

    def as_dict(self) -> dict[str, Any]:
        return {"caller": self.caller, "times": self.times, "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens}  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CallBound:
        return cls(str(data["caller"]), int(data["times"]), int(data["input_tokens"]),
                   int(data["output_tokens"]))  # fmt: skip


def tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def turn_bounds(phases: tuple[Phase, ...], caps: dict[str, dict[str, int]]) -> list[CallBound]:
    """Each turn in speaking order, `caps[side]` holding its `speech` and `prep` caps
    (reasoning included). Sides alternate who opens, which does not change the sum."""
    prompts = debater_prompts()
    fixed = tokens(prompts.system) + tokens(prompts.length) + tokens(prompts.cite)
    shown = 0
    found: list[CallBound] = []
    for phase in phases:
        instruction = tokens(prompts.phases[phase.name])
        spoken = 0
        for side in ("pro", "con"):
            cap = caps[side]["prep" if phase.is_prep else "speech"]
            found.append(CallBound(side, 1, fixed + instruction + shown, cap))
            spoken += cap
        shown += spoken
    return found


def judge_bounds(
    speeches: int, rubric: Rubric, budget: int, readings: int, fact_check: bool
) -> list[CallBound]:
    """A judge's readings of a debate whose speeches total at most `speeches` tokens,
    and the fact-check's."""
    rubric_fixed = sum(map(tokens, (rubric.system, rubric.prompt, rubric_text(rubric),
                                    reply_shape(rubric))))  # fmt: skip
    found = [CallBound("judge", readings, rubric_fixed + speeches, budget)]
    if fact_check:
        prompts = fact_check_prompts()
        fixed = sum(map(tokens, (prompts.system, prompts.prompt, REPLY_SHAPE)))
        found.append(CallBound("fact_check", 1, fixed + speeches, budget))
    return found


def debate_bounds(
    phases: tuple[Phase, ...],
    caps: dict[str, dict[str, int]],
    rubric: Rubric,
    judge_budget: int,
    readings: int,
    fact_check: bool,
) -> list[CallBound]:
    """Every call of one debate, turns first."""
    turns = turn_bounds(phases, caps)
    speeches = sum(t.output_tokens for t, p in zip(turns, _per_turn(phases), strict=True)
                   if not p.is_prep)  # fmt: skip
    return [*turns, *judge_bounds(speeches, rubric, judge_budget, readings, fact_check)]


def _per_turn(phases: tuple[Phase, ...]) -> list[Phase]:
    return [phase for phase in phases for _ in ("pro", "con")]


def settings_bounds(
    phases: tuple[Phase, ...],
    budgets: dict[str, int],
    prep_budgets: dict[str, int | None],
    reasoning_budgets: dict[str, int | None],
    judging: tuple[Rubric, int, int, bool],
) -> list[CallBound]:
    """`debate_bounds` from a debate's settings: each role's caps (reasoning on top),
    and (rubric, judge budget, readings per judge, fact-check)."""
    caps = {
        role: {
            "speech": completion_cap(budgets[role], reasoning_budgets.get(role)),
            "prep": completion_cap(prep_budgets.get(role) or budgets[role],
                                   reasoning_budgets.get(role)),
        }
        for role in ("pro", "con")
    }  # fmt: skip
    return debate_bounds(phases, caps, *judging)
