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
from functools import lru_cache
from typing import Any

from pydantic import Field, ValidationInfo

from debatebench_eval.core.reply_model import Prose, ReplyModel, reply_schema
from debatebench_eval.judging.ledger import check_quote, normalise
from debatebench_eval.truth_crucible.record import Diagnosis, DimensionCheck
from debatebench_eval.truth_crucible.replies import MODELS_KEPT, keyed, model, parsed

REWRITE_AT = 2  # a clear bias or worse


_WORDING = ("neutral_question", "neutral_pro_position", "neutral_con_position")
_NEUTRAL_DOC = (
    "The bias check and a neutral wording. In the schema: every dimension, each scored "
    "as the enum 0-3, text bounds on the notes and the wording. Not in the schema (no "
    "grammar can carry it): that a dimension scored 1 or more quotes words of the "
    'question or positions (checked on its "phrase").'
)


@lru_cache(maxsize=MODELS_KEPT)
def neutral_model(dimensions: tuple[str, ...], wording: str) -> type[ReplyModel]:
    """The reply for these dimensions; `wording` is the question and positions as
    given, where each quoted phrase must be found."""

    def quotes(value: str, info: ValidationInfo) -> str:
        score = info.data.get("score")
        if score is not None and score >= 1 and not quoted(value, wording):
            raise ValueError(
                "expected words of the question or positions (a score of 1 or more quotes them)"
            )
        return value.strip()

    check = model(
        "DimensionCheck",
        "One bias dimension: 0 none, 1 mild, 2 clear, 3 severe; the words that show it.",
        {"phrase": quotes},
        score=(int, Field(ge=0, le=3)),
        phrase=str,
        note=Prose,
    )
    return model(
        "CrucibleNeutral",
        _NEUTRAL_DOC,
        dimensions=keyed("BiasDimensions", dict.fromkeys(dimensions, check)),
        neutral_question=Prose,
        neutral_pro_position=Prose,
        neutral_con_position=Prose,
    )


def neutral_schema(dimensions: list[str], wording: str) -> dict[str, Any]:
    return reply_schema(neutral_model(tuple(dimensions), wording))


def neutral_shape(dimensions: list[str]) -> str:
    dims = {d: {"score": 0, "phrase": "", "note": "..."} for d in dimensions}
    return json.dumps({"dimensions": dims, **{key: "..." for key in _WORDING}}, indent=2)


def check_neutral(
    reply: Any, dimensions: list[str], wording: str
) -> tuple[dict[str, Any] | None, list[str]]:
    """The checked reply (dimensions and neutral wording), or its problems. `wording` is
    the question and positions as given, where each quoted phrase must be found."""
    value, problems = parsed(neutral_model(tuple(dimensions), wording), reply)
    if value is None:
        return None, problems
    checks = {name: DimensionCheck(**value["dimensions"][name]) for name in dimensions}
    return {"dimensions": checks, **{key: value[key] for key in _WORDING}}, []


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
