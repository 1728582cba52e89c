"""The judge's decision: its reply model, the check built from it, and what follows.

The record is ar-debate's decision record (final_decision, reasoning_summary,
competing_options, evidence for and against, unresolved concerns,
confidence) plus what its quality rules ask of a judge: the dissent it
acknowledges, the specific revisions a `revise` needs, and whether it asks
for another round (with the question for it). The JSON schema sent, the
keys the prompt lists and the check of the reply all come from one model
(`decision_model`), built per protocol because the allowed decisions are
the protocol's. A reply that breaks any rule gets one repair re-ask
(judging.structured); if that fails too the deliberation is undecided,
never given a default decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import Field, TypeAdapter, ValidationInfo, create_model, field_validator

from debatebench_eval.core.reply_model import Prose, ReplyModel, check_reply, reply_schema
from debatebench_eval.judging.structured import Check

REVISE = "revise"
_PROSE: TypeAdapter[str] = TypeAdapter(Prose)


class DecisionReply(ReplyModel):
    """ar-debate's decision record as the judge writes it.

    In the schema (every server keeps these): `final_decision` is one of the
    protocol's allowed decisions (an enum); the text fields and every list
    item are prose (a minimum length and a pattern that refuses `...` and
    `<placeholders>`); `confidence` is a number from 0 to 1 (an enum of steps
    where the server ignores `minimum`/`maximum`); every key is required and
    no other is allowed.

    In the check only, because each ties two keys together and no grammar
    carries that:
    - a `revise` lists at least one revision;
    - `request_round: true` comes with a `round_question` that says what to
      debate (otherwise the question may be empty).
    The check also refuses text that repeats a key's description from the
    prompt, which the schema cannot name.
    """

    # Redefined per protocol as the Literal of its allowed decisions.
    final_decision: str
    proposal: Prose = Field(description="a one-line summary of what was debated")
    reasoning_summary: Prose = Field(description="your reasoning, a few sentences")
    competing_options: list[Prose] = Field(description="the options that were weighed (strings)")
    supporting_evidence: list[Prose] = Field(description="points for the proposal (strings)")
    opposing_evidence: list[Prose] = Field(description="points against it (strings)")
    unresolved_concerns: list[Prose] = Field(description="concerns still open (strings)")
    confidence: float = Field(ge=0, le=1, allow_inf_nan=False, description="a number from 0 to 1")
    dissent: Prose = Field(description="the strongest dissent, acknowledged even when you accept")
    revisions: list[Prose] = Field(
        description=f'specific, actionable changes; required when "{REVISE}", else []'
    )
    request_round: bool = Field(
        description="true only if one more round of critique is needed to decide"
    )
    round_question: str = Field(description='the question for that round (else "")')

    @field_validator("revisions")
    @classmethod
    def _revise_lists_revisions(cls, value: list[str], info: ValidationInfo) -> list[str]:
        if info.data.get("final_decision") == REVISE and not value:
            raise ValueError(f'"{REVISE}" needs specific revisions (at least one)')
        return value

    @field_validator("round_question")
    @classmethod
    def _a_round_has_a_question(cls, value: str, info: ValidationInfo) -> str:
        if info.data.get("request_round") is True:
            try:
                _PROSE.validate_python(value, context=info.context)
            except ValueError:
                raise ValueError('"request_round" is true, so it must say what to debate') from None
        return value


@cache
def decision_model(allowed: tuple[str, ...]) -> type[DecisionReply]:
    """The decision reply for a protocol whose judge may decide one of `allowed`."""
    choice: Any = Literal.__getitem__(allowed)  # the allowed set, as the schema's enum
    described = Field(description=f"one of {', '.join(allowed)}", json_schema_extra=_as_enum)
    return create_model(
        "Decision",
        __base__=DecisionReply,
        __doc__=DecisionReply.__doc__,
        final_decision=(choice, described),
    )


def _as_enum(schema: dict[str, Any]) -> None:
    """A single allowed decision as an enum of one, like any other set: pydantic
    writes it as `const`, which not every structured-output server takes."""
    if "const" in schema:
        schema["enum"] = [schema.pop("const")]


def decision_schema(allowed: tuple[str, ...]) -> dict[str, Any]:
    """The reply as a strict JSON Schema (servers.schema_forms rewrites it per server)."""
    return reply_schema(decision_model(allowed))


def _descriptions(allowed: tuple[str, ...]) -> dict[str, str]:
    fields = decision_model(allowed).model_fields
    return {name: field.description or "" for name, field in fields.items()}


def decision_shape(allowed: tuple[str, ...]) -> str:
    """The reply's keys in words, for the prompt (every JSON mode gets them)."""
    return "\n".join(f'- "{key}": {says}' for key, says in _descriptions(allowed).items())


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


def decision_check(allowed: tuple[str, ...]) -> Check[Decision]:
    """The check for `ask_json`: the decision, or every problem with the reply.
    A key's description copied back as its value counts as no answer."""
    check = check_reply(decision_model(allowed), _descriptions(allowed).values())

    def decision(reply: Any) -> tuple[Decision | None, list[str]]:
        parsed, problems = check(reply)
        return (None, problems) if parsed is None else (Decision(parsed.model_dump()), [])

    return decision


def check_decision(reply: Any, allowed: tuple[str, ...]) -> tuple[Decision | None, list[str]]:
    """The decision, or every problem with the reply (then None)."""
    return decision_check(allowed)(reply)


def next_step(decision: Decision, extra_rounds_run: int, extra_max: int) -> str:
    """`decide`; `extra_round` (the judge asked and one is left); or `forced`
    (it asked again after its extra round: ar-debate's rule makes that the
    protocol's `unresolved` decision, `escalate`). A protocol without an extra
    round lets no judge ask for one: its decision stands."""
    if not decision.requests_round or extra_max == 0:
        return "decide"
    return "extra_round" if extra_rounds_run < extra_max else "forced"
