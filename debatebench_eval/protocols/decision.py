"""The judge's decision: its JSON record, the strict check, and what follows.

The record is ar-debate's decision record (final_decision, reasoning_summary,
competing_options, evidence for and against, unresolved concerns,
confidence) plus what its quality rules ask of a judge: the dissent it
acknowledges, the specific revisions a `revise` needs, and whether it asks
for another round (with the question for it). A reply that breaks any rule
gets one repair re-ask (judging.structured); if that fails too the
deliberation is undecided, never given a default decision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

LIST_KEYS = ("competing_options", "supporting_evidence", "opposing_evidence", "unresolved_concerns")
TEXT_KEYS = ("proposal", "reasoning_summary", "dissent")
DECISION_KEYS = (
    "final_decision", "proposal", "reasoning_summary", *LIST_KEYS, "confidence", "dissent",
    "revisions", "request_round", "round_question",
)  # fmt: skip
REVISE = "revise"


def decision_schema(allowed: tuple[str, ...]) -> dict[str, Any]:
    """The reply as a strict JSON Schema, for providers with structured output."""
    strings = {"type": "array", "items": {"type": "string"}}
    props: dict[str, Any] = {
        "final_decision": {"type": "string", "enum": list(allowed)},
        "proposal": {"type": "string"},
        "reasoning_summary": {"type": "string"},
        **{key: strings for key in LIST_KEYS},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "dissent": {"type": "string"},
        "revisions": strings,
        "request_round": {"type": "boolean"},
        "round_question": {"type": "string"},
    }
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def decision_shape(allowed: tuple[str, ...]) -> str:
    """The reply's keys in words, for the prompt (every JSON mode gets them)."""
    return "\n".join(
        [
            f'- "final_decision": one of {", ".join(allowed)}',
            '- "proposal": a one-line summary of what was debated',
            '- "reasoning_summary": your reasoning, a few sentences',
            '- "competing_options": the options that were weighed (strings)',
            '- "supporting_evidence": points for the proposal (strings)',
            '- "opposing_evidence": points against it (strings)',
            '- "unresolved_concerns": concerns still open (strings)',
            '- "confidence": a number from 0 to 1',
            '- "dissent": the strongest dissent, acknowledged even when you accept',
            f'- "revisions": specific, actionable changes; required when "{REVISE}", else []',
            '- "request_round": true only if one more round of critique is needed to decide',
            '- "round_question": the question for that round (else "")',
        ]
    )


@dataclass(frozen=True)
class Decision:
    record: dict[str, Any]

    @property
    def value(self) -> str:
        return str(self.record["final_decision"])

    @property
    def requests_round(self) -> bool:
        return bool(self.record["request_round"])

    @property
    def question(self) -> str:
        return str(self.record["round_question"])

    @property
    def confidence(self) -> float:
        return float(self.record["confidence"])


def check_decision(reply: Any, allowed: tuple[str, ...]) -> tuple[Decision | None, list[str]]:
    """The decision, or every problem with the reply (then None)."""
    if not isinstance(reply, dict):
        return None, [f"the reply is {type(reply).__name__} in JSON, not an object"]
    problems = [f'missing key "{key}"' for key in DECISION_KEYS if key not in reply]
    problems += [f'unknown key "{key}"' for key in reply if key not in DECISION_KEYS]
    if problems:
        return None, problems
    problems += _value_problems(reply, allowed)
    return (None, problems) if problems else (Decision(dict(reply)), [])


def _value_problems(reply: dict[str, Any], allowed: tuple[str, ...]) -> list[str]:
    problems = []
    if reply["final_decision"] not in allowed:
        found = reply["final_decision"]
        problems.append(f'"final_decision" is {found!r}; it must be one of {", ".join(allowed)}')
    for key in TEXT_KEYS:
        if not isinstance(reply[key], str) or not reply[key].strip():
            problems.append(f'"{key}" must be a non-empty string')
    for key in (*LIST_KEYS, "revisions"):
        value = reply[key]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            problems.append(f'"{key}" must be a list of non-empty strings')
    confidence = reply["confidence"]
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, int | float)
        or not math.isfinite(confidence)
        or not 0 <= confidence <= 1
    ):
        problems.append(f'"confidence" is {confidence!r}; it must be a number from 0 to 1')
    if reply["final_decision"] == REVISE and not reply["revisions"]:
        problems.append(f'"{REVISE}" needs specific revisions in "revisions"')
    if not isinstance(reply["request_round"], bool):
        problems.append('"request_round" must be true or false')
    elif reply["request_round"] and (
        not isinstance(reply["round_question"], str) or not reply["round_question"].strip()
    ):
        problems.append('"request_round" is true, so "round_question" must say what to debate')
    if not isinstance(reply["round_question"], str):
        problems.append('"round_question" must be a string')
    return problems


def next_step(decision: Decision, extra_rounds_run: int, extra_max: int) -> str:
    """`decide`; `extra_round` (the judge asked and one is left); or `forced`
    (it asked again after its extra round: ar-debate's rule makes that the
    protocol's `unresolved` decision, `escalate`). A protocol without an extra
    round lets no judge ask for one: its decision stands."""
    if not decision.requests_round or extra_max == 0:
        return "decide"
    return "extra_round" if extra_rounds_run < extra_max else "forced"
