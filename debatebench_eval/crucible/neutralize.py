"""Topic neutralisation: a six-dimension bias check of the question, and a neutral wording.

`diagnose` records the check and changes nothing; `rewrite` debates the
neutral wording when any dimension scores 2 (clear) or more, and keeps the
original wording in the record, the report and the score. A dimension scored
1 or more must quote the words that show it, and the quote must be in the
question or a position (else the reply is repaired): a bias that cannot be
pointed at is not recorded.
"""

from __future__ import annotations

import json
from typing import Any

from debatebench_eval.crucible.record import Diagnosis, DimensionCheck
from debatebench_eval.crucible.replies import INTEGER, TEXT, obj, whole
from debatebench_eval.judging.ledger import check_quote, normalise

REWRITE_AT = 2  # a clear bias or worse


def neutral_schema(dimensions: list[str]) -> dict[str, Any]:
    check = obj({"score": INTEGER, "phrase": TEXT, "note": TEXT})
    return obj(
        {"dimensions": obj(dict.fromkeys(dimensions, check)), **dict.fromkeys(_WORDING, TEXT)}
    )


_WORDING = ("neutral_question", "neutral_pro_position", "neutral_con_position")


def neutral_shape(dimensions: list[str]) -> str:
    dims = {d: {"score": 0, "phrase": "", "note": "..."} for d in dimensions}
    return json.dumps({"dimensions": dims, **{key: "..." for key in _WORDING}}, indent=2)


def check_neutral(
    reply: Any, dimensions: list[str], wording: str
) -> tuple[dict[str, Any] | None, list[str]]:
    """The checked reply (dimensions and neutral wording), or its problems. `wording` is
    the question and positions as given, where each quoted phrase must be found."""
    if not isinstance(reply, dict) or not isinstance(reply.get("dimensions"), dict):
        return None, ['the reply must be an object with a "dimensions" object']
    problems: list[str] = []
    checks = {}
    for name in dimensions:
        item = reply["dimensions"].get(name)
        check = _dimension(item, name, wording, problems)
        if check is not None:
            checks[name] = check
    extra = sorted(set(reply["dimensions"]) - set(dimensions))
    if extra:
        problems.append(f'"dimensions" has unknown {", ".join(extra)}; expected {dimensions}')
    for key in _WORDING:
        if not isinstance(reply.get(key), str) or not reply[key].strip():
            problems.append(f'"{key}" is missing or empty')
    if problems:
        return None, problems
    return {"dimensions": checks, **{key: reply[key].strip() for key in _WORDING}}, []


def _dimension(item: Any, name: str, wording: str, problems: list[str]) -> DimensionCheck | None:
    at = f"dimensions.{name}"
    if not isinstance(item, dict):
        problems.append(f'"{at}" is missing')
        return None
    score, phrase = whole(item.get("score"), 0, 3), item.get("phrase", "")
    if score is None:
        problems.append(f'"{at}.score" is {item.get("score")!r}; expected a whole number 0-3')
        return None
    if not isinstance(phrase, str):
        problems.append(f'"{at}.phrase" is not a string')
        return None
    if score >= 1 and not quoted(phrase, wording):
        problems.append(f'"{at}.phrase" {phrase!r} is not words of the question or positions')
        return None
    return DimensionCheck(
        score=score, phrase=phrase.strip(), note=str(item.get("note", "")).strip()
    )


def quoted(phrase: str, wording: str) -> bool:
    """The phrase is in the wording: verbatim after normalising (short phrases), or by
    the fact-check's quote check (longer ones, which may trim a word)."""
    short, text = normalise(phrase), normalise(wording)
    if not short:
        return False
    return f" {short} " in f" {text} " or check_quote(phrase, wording)[1] is None


def diagnosis(mode: str, checked: dict[str, Any], judge: str) -> Diagnosis:
    worst = max((c.score for c in checked["dimensions"].values()), default=0)
    applied = mode == "rewrite" and worst >= REWRITE_AT
    if mode == "diagnose":
        note = "diagnosis only: the original wording was debated"
    elif applied:
        note = f"rewritten: the highest bias score was {worst} (rewrite at {REWRITE_AT} or more)"
    else:
        note = f"no rewrite needed: the highest bias score was {worst} (rewrite at {REWRITE_AT})"
    return Diagnosis(mode=mode, applied=applied, note=note, judge=judge, **checked)
