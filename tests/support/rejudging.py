"""Helpers for re-judging recorded debates offline: a scripted judge, transcript variants.

The judge reads the blind prompt the way a judge would: it finds which blind label
argues against the motion and scores that side higher, and it gives Side A a
one-point edge on clarity, so that swap judging averages to half points. The
fact-check reply names real turn ids taken from the prompt.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.interop.judge_task import judge
from debatebench_eval.judging.rubric import default_rubric

from support.judge_replies import ledger_reply, turn_ids
from support.paths import FIXTURES, RESULTS
from support.scripted import Script, output

# The nine mirror transcripts are frozen once, for the scoring regression;
# their debatebench score files are test fixtures.
REGRESSION_TRANSCRIPTS = RESULTS / "regression" / "transcripts"
MIRROR_TRANSCRIPTS = sorted(REGRESSION_TRANSCRIPTS.glob("mirror-*-transcript.json"))
MIRROR_SCORES = FIXTURES / "mirror"


def mirror_folder(tmp_path: Path) -> Path:
    """The nine transcripts with debatebench's score files beside them, as its runs leave them."""
    folder = tmp_path / "mirror"
    folder.mkdir(parents=True, exist_ok=True)
    for path in (*MIRROR_TRANSCRIPTS, *MIRROR_SCORES.glob("*-scores.json")):
        shutil.copyfile(path, folder / path.name)
    return folder


def debatebench_folder(tmp_path: Path) -> Path:
    """The mirror debates (one motion) with their models renamed: a and b argue it
    both ways, a and c too, and one debate stays self-play (gemma4:12b twice)."""
    folder = mirror_folder(tmp_path)
    casts = {1: ("a", "b"), 3: ("b", "a"), 4: ("a", "c"), 5: ("c", "a")}
    for number, (pro, con) in casts.items():
        path = folder / f"mirror-{number}-transcript.json"
        document = json.loads(path.read_text())
        for side in document["run"]["sides"]:
            side["model"] = pro if side["side"] == "pro" else con
        path.write_text(json.dumps(document))
    return folder


MAXIMA = {d.name: d.max for d in default_rubric().dimensions}
LEDGER = "rebuttal_effectiveness"
WINNER_SHARE, LOSER_SHARE = 0.9, 0.7
_TURN_ID = re.compile(r"^\[(t[0-9a-f]{8})\] ", re.MULTILINE)


def side_reply(share: float, label: str, bonus: int) -> dict[str, Any]:
    """One side's scores: every dimension at `share` of its maximum, clarity plus `bonus`."""
    reply: dict[str, Any] = {}
    for name, top in MAXIMA.items():
        score = round(top * share) + (bonus if name == "clarity" else 0)
        reply[name] = {"score": min(score, top), "justification": f"Side {label}: {name} noted."}
    reply[LEDGER]["hit_ledger"] = [
        {"point": f"the point put to Side {label}", "status": "rebutted"}
    ]
    reply["stance"] = "held"
    return reply


def rubric_reply(prompt: str) -> str:
    """Favour the side arguing against the motion; Side A gets a clarity point more."""
    con_label = "A" if "Side A argues against the motion." in prompt else "B"
    shares = {label: WINNER_SHARE if label == con_label else LOSER_SHARE for label in "AB"}
    return json.dumps(
        {
            f"side_{label.lower()}": side_reply(shares[label], label, int(label == "A"))
            for label in "AB"
        }
    )


def fact_check_reply(prompt: str, passage: str | None = None) -> str:
    """One claim per turn; the first cites the second turn by a quote, or a passage."""
    turns = _TURN_ID.findall(prompt)
    claims = [
        {"turn": turn, "claim": f"Claim made in {turn}.", "verdict": "unsupported",
         "citations": [], "reason": "The record says nothing either way."}
        for turn in turns
    ]  # fmt: skip
    if passage is not None:
        claims[0].update(verdict="supported", citations=[{"id": passage, "quote": ""}])
    return ledger_reply(claims, turn_ids(prompt))


def scripted_judge(passage: str | None = None) -> Script:
    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        prompt = str(messages[1].content)
        if "fact-checker" in str(messages[0].content):
            return output("judge", fact_check_reply(prompt, passage), tokens=200)
        return output("judge", rubric_reply(prompt), tokens=300)

    return Script("judge", reply)


def judge_log(
    tmp_path: Path,
    transcripts: Path,
    judge_script: Script | None = None,
    main_script: Script | None = None,
    **task_args: Any,
) -> EvalLog:
    """Run the judge task in-process with a scripted judge role (the main model should idle)."""
    logs = eval(
        judge(transcripts=str(transcripts), **task_args),
        model=(main_script or Script("main")).model(),
        model_roles={"judge": (judge_script or scripted_judge()).model()},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    return logs[0]


PASSAGES = {
    "pro": [{"id": "args-me:101", "source": "args-me", "text": "Data centres pay local taxes."}],
    "con": [{"id": "debatesum:7", "source": "debatesum", "text": "Cooling uses local water."}],
}


def mirror_document(number: int = 1) -> dict[str, Any]:
    path = REGRESSION_TRANSCRIPTS / f"mirror-{number}-transcript.json"
    return dict(json.loads(path.read_text()))


def with_prep(document: dict[str, Any]) -> dict[str, Any]:
    """The debate with a prep phase first, as debatebench records one: order 0 for both
    sides, the budget is prep_budget, no length, the passages as the turn's evidence."""
    out = copy.deepcopy(document)
    out["run"]["phases"] = ["prep", *out["run"]["phases"]]
    for side in out["run"]["sides"]:
        side["prep_budget"] = 500
    for turn in out["turns"]:
        turn["phase_index"] += 1
    prep = [
        {"phase_index": 0, "phase": "prep", "side_index": side["index"], "order": 0,
         "text": f"Notes of the {side['side']} side.",
         "usage": {"prompt_tokens": 90, "completion_tokens": 40}, "budget": 500,
         "hit_budget": False, "finish_reason": "stop", "latency_ms": 900,
         "started_at": out["started_at"], "evidence": PASSAGES[side["side"]]}
        for side in out["run"]["sides"]
    ]  # fmt: skip
    out["turns"] = prep + out["turns"]
    return out


def as_version_1(document: dict[str, Any]) -> dict[str, Any]:
    """The same debate as a schema_version 1 file: no per-turn length."""
    out = copy.deepcopy(document)
    out["schema_version"] = 1
    for turn in out["turns"]:
        turn.pop("length", None)
    return out


def write_json(path: Path, document: Any) -> Path:
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path
