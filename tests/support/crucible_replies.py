"""Scripted crucible participants: a reply for each call, read off the prompt it answers.

A well-behaved side or judge, built from what the prompt shows (the search
hits' numbered lines, the claim ids, the blind labels), so its citations are
real lines of whatever corpus is debated. Tests change one behaviour at a
time through `Behaviour` (or answer a schema themselves). Used both by the
scripted Inspect models (`CrucibleScript`) and by the stub server's `respond`
hook, which sees the same prompts on the wire.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.model import GenerateConfig, Model, ModelOutput

from support.paths import FIXTURES
from support.scripted import Script, output

# A small topic: three classes, one file in Traditional Chinese, one with CRLF and a BOM.
FIXTURE_TOPIC = FIXTURES / "crucible" / "topic.yaml"

HIT_LINE = re.compile(r"^\s*(\d+)\| (.*)$")
HIT_HEAD = re.compile(r"^\[(.+?), lines (\d+)-(\d+)\] \(class (\w+), (\w+)\)$")
DIMENSIONS = ("factuality", "validity", "evidence", "responsiveness", "novelty", "robustness")
BIAS = (
    "loaded_language",
    "presupposition",
    "leading_direction",
    "false_dichotomy",
    "burden_asymmetry",
    "scope_vagueness",
)
# Answers a call: (schema name, system prompt, user prompt, schema) -> reply text, or
# None to fall back to the default.
Responder = Callable[[str, str, str, dict[str, Any]], str | None]


@dataclass
class Behaviour:
    """What the scripted participants do, one switch per behaviour a test varies."""

    convergence: float = 0.2
    # Score of every dimension of a claim, from the claim's shown text and its label.
    score: Callable[[str, str], int] = lambda text, label: 4
    # Per schema name: replaced replies (tests of the failure paths).
    overrides: dict[str, Responder] = field(default_factory=dict)
    # Audit: ask judge J<n> to rescore the first flagged claim.
    rescore: int | None = None
    # A word each side's claims carry, so a test's judge can score by content, blind.
    marker: dict[str, str] = field(default_factory=lambda: {"pro": "firmly", "con": "plainly"})
    # Completion tokens each reply reports (a server ignoring the budget reports more).
    output_tokens: int = 12


def side_of(system: str) -> str:
    return "pro" if "You are the PRO advocate" in system else "con"


def cited_lines(prompt: str) -> list[tuple[str, int, str]]:
    """(file, line number, text) of every numbered line of the search hits shown."""
    found, file = [], None
    for line in prompt.splitlines():
        head = HIT_HEAD.match(line)
        if head:
            file = head.group(1)
            continue
        hit = HIT_LINE.match(line)
        if hit and file is not None and len(hit.group(2).split()) >= 6:
            found.append((file, int(hit.group(1)), hit.group(2)))
    return found


def claims_reply(system: str, prompt: str, behaviour: Behaviour) -> str:
    count = int(re.search(r"File exactly (\d+) claims", prompt).group(1))  # type: ignore[union-attr]
    lines = cited_lines(prompt)
    side = side_of(system)
    # Each side cites its own stretch of the hits, so the two sides' claims differ.
    start = 0 if side == "pro" else len(lines) // 2
    chosen = (lines[start:] + lines[:start])[:count]
    claims = [
        {
            "claim": f"{side.upper()} claim {i}, {behaviour.marker[side]}: {text}",
            "logic_chain": [f"The corpus says: {text}", "So the position follows."],
            "evidence": [{"file": file, "line_start": number, "line_end": number, "excerpt": text}],
            "vulnerability": f"It rests on one line ({file} line {number}).",
            "confidence": 0.6,
        }
        for i, (file, number, text) in enumerate(chosen, 1)
    ]
    return json.dumps({"claims": claims})


def ids_of(prompt: str, label: str) -> list[str]:
    return sorted(set(re.findall(rf"\bC-{label}-\d\d\b", prompt)))


def turn_reply(system: str, prompt: str, schema: dict[str, Any]) -> str:
    side = side_of(system).upper()
    other = "CON" if side == "PRO" else "PRO"
    own, targets = ids_of(prompt, side), ids_of(prompt, other)
    if "position swap" in prompt:  # arguing the other position with the opponent's claims
        own, targets = targets, own
    reply: dict[str, Any] = {}
    if "steelman" in schema.get("properties", {}):
        reply["steelman"] = {"claim": targets[0], "restatement": "Their best point, put well."}
    reply["attacks"] = [{"from": own[0], "target": targets[0], "argument": "It overreaches."}]
    reply["defends"] = [{"claim": own[0], "reply": "The lines say exactly this."}]
    reply["speech"] = f"{side} speaks: our evidence holds and theirs overreaches."
    return json.dumps(reply)


def labels_of(prompt: str) -> list[str]:
    return list(dict.fromkeys(re.findall(r"^\[(K\d+)\]", prompt, flags=re.MULTILINE)))


def sides_of_labels(prompt: str) -> dict[str, str]:
    return dict(re.findall(r"^\[(K\d+)\] Side ([AB])", prompt, flags=re.MULTILINE))


def conflicts_reply(prompt: str) -> str:
    sides = sides_of_labels(prompt)
    a = next(k for k, s in sides.items() if s == "A")
    b = next(k for k, s in sides.items() if s == "B")
    conflict = {
        "claims": [a, b],
        "question": "Which effect is larger?",
        "nature": "empirical",
        "crux": "A year of counts on a comparison street.",
    }
    return json.dumps({"conflicts": [conflict], "none_reason": ""})


def review_reply(prompt: str, behaviour: Behaviour) -> str:
    turns = re.findall(r"^\[(R\d+\.\d)\][^\n]*\n  steelman of", prompt, flags=re.MULTILINE)
    reply: dict[str, Any] = {}
    if turns:  # the review's schema asks for grades only when a turn opened with a steelman
        reply["steelman"] = {t: {"fidelity": 4, "reason": "Faithful."} for t in turns}
    reply.update(
        convergence=behaviour.convergence, reason="Both sides still give reasons.", conceded=[]
    )
    return json.dumps(reply)


def scores_reply(prompt: str, behaviour: Behaviour) -> str:
    blocks = re.split(r"^(?=\[K\d+\] )", prompt, flags=re.MULTILINE)[1:]
    scores = {}
    for block in blocks:
        label = block[1 : block.index("]")]
        value = behaviour.score(block.split("\n", 1)[0], label)
        scores[label] = {d: {"score": value, "comment": f"{d} seen."} for d in DIMENSIONS}
    return json.dumps({"scores": scores})


def audit_reply(prompt: str, behaviour: Behaviour) -> str:
    none = {"judge": "", "claims": [], "reason": ""}
    if behaviour.rescore is None:
        return json.dumps({"consistent": True, "reason": "Spread within reason.", "rescore": none})
    first = labels_of(prompt)[0]
    ask = {"judge": f"J{behaviour.rescore}", "claims": [first], "reason": "Out of line."}
    return json.dumps({"consistent": False, "reason": "One judge misread.", "rescore": ask})


def neutral_reply() -> str:
    dims = {d: {"score": 0, "phrase": "", "note": "None seen."} for d in BIAS}
    return json.dumps(
        {
            "dimensions": dims,
            "neutral_question": "Is the lane better?",
            "neutral_pro_position": "Build it.",
            "neutral_con_position": "Keep parking.",
        }
    )


def respond(
    name: str, system: str, prompt: str, schema: dict[str, Any], behaviour: Behaviour
) -> str:
    override = behaviour.overrides.get(name)
    if override is not None:
        text = override(name, system, prompt, schema)
        if text is not None:
            return text
    if name == "crucible_queries":
        return json.dumps({"queries": ["cycle counts collisions", "takings footfall"]})
    if name == "crucible_claims":
        return claims_reply(system, prompt, behaviour)
    if name == "crucible_turn":
        return turn_reply(system, prompt, schema)
    if name == "crucible_conflicts":
        return conflicts_reply(prompt)
    if name == "crucible_review":
        return review_reply(prompt, behaviour)
    if name == "crucible_scores":
        return scores_reply(prompt, behaviour)
    if name == "crucible_audit":
        return audit_reply(prompt, behaviour)
    if name == "crucible_neutral":
        return neutral_reply()
    raise AssertionError(f"no scripted reply for schema {name!r}")


@dataclass
class CrucibleScript:
    """Scripted Inspect models for the crucible's roles, every call recorded by role."""

    behaviour: Behaviour = field(default_factory=Behaviour)
    # A role's own behaviour (one judge of a panel, say), else `behaviour`.
    behaviours: dict[str, Behaviour] = field(default_factory=dict)
    scripts: dict[str, Script] = field(default_factory=dict)

    def model(self, role: str) -> Model:
        def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
            schema = config.response_schema
            assert schema is not None, "every crucible call asks for structured output"
            # The stage's prompt is the first user message; a repair re-ask comes after it.
            system, prompt = str(messages[0].content), str(messages[1].content)
            body = schema.json_schema.model_dump(exclude_none=True)
            behaviour = self.behaviours.get(role, self.behaviour)
            text = respond(schema.name, system, prompt, body, behaviour)
            return output(role, text, tokens=behaviour.output_tokens)

        # Debaters get names no side label contains ("pro" would be masked as a model name).
        name = f"debater-{role}" if role in ("pro", "con") else role
        self.scripts[role] = Script(name, reply=reply)
        return self.scripts[role].model()

    def roles(self, *judges: str) -> dict[str, Any]:
        """pro, con and the judge role (a panel when several judge names are given)."""
        panel = [self.model(name) for name in judges or ("judge",)]
        return {
            "pro": self.model("pro"),
            "con": self.model("con"),
            "judge": panel if len(panel) > 1 else panel[0],
        }

    def calls(self, role: str, schema: str | None = None) -> list[Any]:
        calls = self.scripts[role].calls
        if schema is None:
            return calls
        return [c for c in calls if c.config.response_schema.name == schema]


def wire_responder(behaviour: Behaviour) -> Callable[[dict[str, Any]], str | None]:
    """The same participants for the stub server: an OpenAI chat request in, reply text out."""

    def answer(request: dict[str, Any]) -> str | None:
        fmt = request.get("response_format") or {}
        schema = fmt.get("json_schema") or {}
        if not schema.get("name", "").startswith("crucible_"):
            return None
        messages = request.get("messages") or []
        system, prompt = str(messages[0].get("content")), str(messages[1].get("content"))
        return respond(schema["name"], system, prompt, schema.get("schema") or {}, behaviour)

    return answer


def replace(
    make: Callable[[str, str, dict[str, Any]], str], *, side: str | None = None, times: int = 1
) -> Responder:
    """An override answering its first `times` calls (of one side, if given) with
    `make(system, prompt, schema)`; later calls get the default reply."""
    seen = [0]

    def respond_(name: str, system: str, prompt: str, schema: dict[str, Any]) -> str | None:
        if side is not None and side_of(system) != side:
            return None
        seen[0] += 1
        return make(system, prompt, schema) if seen[0] <= times else None

    return respond_
