"""Build judge replies for scripted judges: valid rubric and fact-check JSON."""

from __future__ import annotations

import json
import re
from typing import Any

from debatebench_eval.judging.rubric import default_rubric

MAXIMA = {d.name: d.max for d in default_rubric().dimensions}
_TURN_IDS = re.compile(r"^\[(t[0-9a-f]{8})\] \w+ — Side ([AB])$", re.MULTILINE)


def side_scores(fraction: float) -> dict[str, int]:
    """Every dimension at the same fraction of its maximum (rounded)."""
    return {name: round(top * fraction) for name, top in MAXIMA.items()}


def rubric_reply(
    a: dict[str, int],
    b: dict[str, int],
    *,
    ledger: bool = True,
    stances: tuple[str, str] = ("held", "held"),
) -> str:
    """A rubric reply scoring Side A with `a` and Side B with `b` (stances: A's, B's)."""

    def side(scores: dict[str, int], label: str, stance: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in scores.items():
            out[name] = {"score": value, "justification": f"Side {label} {name} reason."}
        if ledger:
            out["rebuttal_effectiveness"]["hit_ledger"] = [
                {"point": f"point against {label}", "status": "rebutted"}
            ]
        out["stance"] = stance
        return out

    return json.dumps({"side_a": side(a, "A", stances[0]), "side_b": side(b, "B", stances[1])})


# Passed as the value to `changed_reply`: remove the field instead.
DELETE = object()


def changed_reply(path: str, value: Any) -> dict[str, Any]:
    """A valid rubric reply (Side A at 80%, B at 60%) with the field at a dotted
    path such as "side_a.clarity.score" set to `value`, or removed by DELETE."""
    reply: dict[str, Any] = json.loads(rubric_reply(side_scores(0.8), side_scores(0.6)))
    *parents, last = path.split(".")
    node = reply
    for key in parents:
        node = node[key]
    if value is DELETE:
        del node[last]
    else:
        node[last] = value
    return reply


def turn_ids(prompt: str) -> dict[str, str]:
    """The turn ids the judge was shown, with the blind label of each."""
    return dict(_TURN_IDS.findall(prompt))


def is_rubric_call(messages: list[Any]) -> bool:
    return "impartial judge" in str(messages[0].content)


def is_fact_check_call(messages: list[Any]) -> bool:
    return "fact-checker" in str(messages[0].content)


# Why a side listed no claim, in a fact-check reply.
NO_CLAIMS = "Its speeches state only opinions."
# A fact-check reply listing neither side's claims, with the reason for each.
NONE_MADE = {"side_a": {"no_claims": NO_CLAIMS}, "side_b": {"no_claims": NO_CLAIMS}}


def ledger_reply(claims: list[dict[str, Any]], labels: dict[str, str]) -> str:
    """A fact-check reply with each claim under the side of its turn (`labels`: turn id
    to "A" or "B", as `turn_ids` reads them); a side with no claim says why."""
    reply: dict[str, Any] = {}
    for label in "AB":
        own = [claim for claim in claims if labels.get(claim["turn"]) == label]
        reply[f"side_{label.lower()}"] = {"claims": own} if own else {"no_claims": NO_CLAIMS}
    return json.dumps(reply)
