"""CI regression of scoring: recorded judge replies replayed through the real scorers.

results/regression/ holds frozen transcripts (the nine debatebench 0.1.2
mirror debates and one of ours), `replies.json` (the judge's replies, per
case, per blind orientation and attempt) and `baseline.json` (every field of
every score those replies produce). tests/test_regression.py replays the
replies through the `judge` task with a scripted judge and compares.

debatebench's files hold parsed scores, not raw replies, so the recorded
replies are those scores rendered as the JSON our judge is asked for, plus
malformed replies of every kind. Regenerate, and review the diff:

    python tests/support/regression.py replies    # rebuild replies.json from the sources
    python tests/support/regression.py baseline   # re-score and rewrite baseline.json
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the tests' `support` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, ModelOutput, ModelUsage, get_model

from debatebench_eval.interop.judge_task import judge
from debatebench_eval.interop.transcript_file import read_transcript
from debatebench_eval.judging.blind import blind_orientation
from debatebench_eval.record.store import DebateRecord

from support.judge_replies import NONE_MADE, ledger_reply
from support.paths import ROOT

REGRESSION = ROOT / "results" / "regression"
TRANSCRIPTS = REGRESSION / "transcripts"
REPLIES = REGRESSION / "replies.json"
BASELINE = REGRESSION / "baseline.json"
SCORES = ROOT / "tests" / "fixtures" / "mirror"  # debatebench score files (MIT)
MIRRORS = ("mirror-1", "mirror-3", "mirror-4", "mirror-5", "mirror-7", "mirror-8", "mirror-9",
           "mirror-10", "mirror-11")  # fmt: skip
ORIENTATIONS = ("A=pro", "A=con")


def orientation_of(prompt: str) -> str:
    return "A=pro" if "Side A argues for the motion." in prompt else "A=con"


# ---------------------------------------------------------------- recorded replies


def scores_reply(scores: dict[str, Any], a_side: str, switched: str | None = None) -> str:
    """A debatebench score file rendered as our judge's reply, `a_side` shown as Side A;
    every side's stance is "held" but the `switched` side's."""
    by_side = {side["side"]: side["dimensions"] for side in scores["sides"]}
    other = "con" if a_side == "pro" else "pro"

    def side(name: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for dimension, dim in by_side[name].items():
            out[dimension] = {"score": dim["score"], "justification": dim["justification"]}
            if "hit_ledger" in dim:
                out[dimension]["hit_ledger"] = dim["hit_ledger"]
        out["stance"] = "switched" if name == switched else "held"
        return out

    return json.dumps({"side_a": side(a_side), "side_b": side(other)})


def consistent(scores: dict[str, Any]) -> dict[str, list[str]]:
    """A judge that scores each side the same under either label."""
    return {o: [scores_reply(scores, o[2:])] for o in ORIENTATIONS}


def switched(scores: dict[str, Any], side: str) -> dict[str, list[str]]:
    """A consistent judge that finds `side` argued the other position."""
    return {o: [scores_reply(scores, o[2:], switched=side)] for o in ORIENTATIONS}


def biased_to_a(scores: dict[str, Any]) -> dict[str, list[str]]:
    """A judge that gives Side A the pro side's scores whatever Side A is: the swap catches it."""
    return {o: [scores_reply(scores, "pro")] for o in ORIENTATIONS}


def even(steelman: tuple[int, int] = (15, 15)) -> dict[str, Any]:
    """A score file of our own: equal totals, the given steelman scores (pro, con)."""
    sides = []
    for side, tie in zip(("pro", "con"), steelman, strict=True):
        shift = 15 - tie  # keep the totals equal by moving points into argument_quality
        dims = {
            "argument_quality": {"score": 20 + shift, "justification": "Holds together."},
            "evidence_grounding": {"score": 15, "justification": "Some support."},
            "steelman_fidelity": {"score": tie, "justification": "Restates the other side."},
            "rebuttal_effectiveness": {"score": 10, "justification": "Answers most points.",
                                       "hit_ledger": [{"point": "cost", "status": "dodged"}]},
            "clarity": {"score": 7, "justification": "Easy to follow."},
        }  # fmt: skip
        sides.append({"side": side, "dimensions": dims})
    return {"sides": sides}


def labels(record: DebateRecord) -> dict[str, str]:
    """Each turn's blind label in the fact-check, which reads the record one way only."""
    assert record.run is not None
    orientation = blind_orientation(record.run.seed)
    return {turn.id: orientation.label(turn.side) for turn in record.turns}


def fact_ledger(record: DebateRecord) -> str:
    """A well-formed ledger: one verified citation, one unknown id, one uncited claim."""
    pro = [t for t in record.turns if t.side == "pro"]
    con = [t for t in record.turns if t.side == "con"]
    quote = " ".join(con[-1].text.split()[:8])
    claims = [
            {"turn": pro[0].id, "claim": "The pro side's opening states its case.",
             "verdict": "supported", "citations": [{"id": con[-1].id, "quote": quote}],
             "reason": "The opponent's last turn restates it."},
            {"turn": con[0].id, "claim": "The con side cites a figure.",
             "verdict": "contradicted", "citations": [{"id": "P9", "quote": "a figure"}],
             "reason": "A passage opposes it."},
            {"turn": pro[-1].id, "claim": "The pro side predicts success.",
             "verdict": "not_checkable", "citations": [], "reason": "A prediction."},
    ]  # fmt: skip
    return ledger_reply(claims, labels(record))


def broken(reply: str, old: str, new: str) -> str:
    assert old in reply, old
    return reply.replace(old, new, 1)


def malformed_cases(scores: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    """Each malformed-reply kind, on mirror-1's scores: twice (unscored) or once (repaired)."""
    good = scores_reply(scores, "pro")
    clarity = (
        '"justification": "' + scores["sides"][0]["dimensions"]["clarity"]["justification"] + '"'
    )

    kinds = {
        "prose": "The con side clearly won this debate.",
        "empty": "",
        "truncated": good[: len(good) // 2],
        "array": "[" + good + "]",
        "missing-side": json.dumps({"side_a": json.loads(good)["side_a"]}),
        "out-of-range": broken(good, '"score": 9,', '"score": 19,'),
        "string-score": broken(good, '"score": 26,', '"score": "26",'),
        "float-score": broken(good, '"score": 26,', '"score": 25.5,'),
        "missing-dimension": broken(good, '"clarity"', '"clearness"'),
        "bad-ledger-status": broken(good, '"rebutted"', '"won"'),
        "bad-stance": broken(good, '"stance": "held"', '"stance": "yes"'),
        "placeholder-justification": broken(good, clarity, '"justification": "..."'),
        "extra-key": good[:-1] + ', "winner": "side_b"}',
    }  # fmt: skip
    cases: dict[str, dict[str, list[str]]] = {}
    for kind, bad in kinds.items():
        cases[f"unscored-{kind}"] = {o: [bad, bad] for o in ORIENTATIONS}
    repaired = consistent(scores)
    cases["repaired-missing-dimension"] = {
        o: [kinds["missing-dimension"], *repaired[o]] for o in ORIENTATIONS
    }
    cases["fenced-with-reasoning"] = {
        o: [f"<think>weighing it</think>\n```json\n{repaired[o][0]}\n```"] for o in ORIENTATIONS
    }
    return cases


def build_replies() -> dict[str, Any]:
    cases: dict[str, Any] = {}
    for name in MIRRORS:
        scores = json.loads((SCORES / f"{name}-scores.json").read_text(encoding="utf-8"))
        cases[name] = {"transcript": f"{name}-transcript.json", "rubric": consistent(scores)}
    mirror_1 = json.loads((SCORES / "mirror-1-scores.json").read_text(encoding="utf-8"))
    cases["biased-to-side-a"] = {"transcript": "mirror-3-transcript.json",
                                 "rubric": biased_to_a(mirror_1)}  # fmt: skip
    # mirror-1's con side won on scores; arguing the motion instead, it forfeits.
    cases["stance-forfeit"] = {"transcript": "mirror-1-transcript.json",
                               "rubric": switched(mirror_1, "con")}  # fmt: skip
    for name, rubric in malformed_cases(mirror_1).items():
        cases[name] = {"transcript": "mirror-1-transcript.json", "rubric": rubric}
    ours = "smollm2-carbon-tax-transcript.json"
    cases["ours-steelman-tiebreak"] = {"transcript": ours, "rubric": consistent(even((17, 13)))}
    cases["ours-coin-toss"] = {"transcript": ours, "rubric": consistent(even())}
    for name, case in cases.items():
        record = case_record(name, case["transcript"])
        case["fact_check"] = [fact_ledger(record)]
    claim = {"turn": "t00000000", "claim": "x", "verdict": "supported", "citations": [],
             "reason": "r"}  # fmt: skip
    bad_turn = json.dumps({"side_a": {"claims": [claim]}, "side_b": NONE_MADE["side_b"]})
    cases["ours-coin-toss"]["fact_check"] = ["not json", cases["ours-coin-toss"]["fact_check"][0]]
    cases["ours-steelman-tiebreak"]["fact_check"] = [bad_turn, bad_turn]
    # An empty ledger counts only with a reason per side; without one it is malformed.
    cases["mirror-10"]["fact_check"] = [json.dumps(NONE_MADE)]
    unexplained = json.dumps({"side_a": {"claims": []}, "side_b": {"claims": []}})
    cases["mirror-11"]["fact_check"] = [unexplained, unexplained]
    return cases


def case_record(case: str, transcript: str) -> DebateRecord:
    return read_transcript(TRANSCRIPTS / transcript, case)


# ---------------------------------------------------------------- replay


def replay_model(cases: dict[str, Any]) -> Any:
    """A scripted judge answering from the recorded replies, by case, orientation and attempt."""
    owners = {
        turn.id: name
        for name, case in cases.items()
        for turn in case_record(name, case["transcript"]).turns
    }

    def respond(
        input: list[Any], tools: Any, tool_choice: Any, config: GenerateConfig
    ) -> ModelOutput:
        prompt = str(input[1].content)
        case = cases[next(owner for tid, owner in owners.items() if f"[{tid}]" in prompt)]
        attempt = (len(input) - 2) // 2
        if "impartial judge" in str(input[0].content):
            text = case["rubric"][orientation_of(prompt)][attempt]
        else:
            text = case["fact_check"][attempt]
        out = ModelOutput.from_content("replay", text)
        out.usage = ModelUsage(input_tokens=100, output_tokens=50, total_tokens=150)
        return out

    return get_model("mockllm/replay", custom_outputs=respond)


def replay(work: Path) -> EvalLog:
    """Score every case with the recorded replies; each case is one transcript file."""
    cases = json.loads(REPLIES.read_text(encoding="utf-8"))
    folder = work / "cases"
    folder.mkdir(parents=True, exist_ok=True)
    for name, case in cases.items():
        shutil.copyfile(TRANSCRIPTS / case["transcript"], folder / f"{name}.json")
    model = replay_model(cases)
    # Trust is read from records: the user's own must not change the baseline.
    os.environ["DEBATEBENCH_EVAL_TRUST_DIR"] = str(work / "trust")
    logs = eval(
        judge(transcripts=str(folder), probe=False),
        model=model,
        model_roles={"judge": model},
        log_dir=str(work / "logs"),
        display="none",
    )
    return logs[0]


def snapshot(log: EvalLog) -> dict[str, Any]:
    """Every field of every score, per case: what the baseline freezes."""
    out: dict[str, Any] = {}
    for sample in sorted(log.samples or [], key=lambda s: str(s.id)):
        assert sample.error is None, f"{sample.id}: {sample.error.message}"
        out[str(sample.id)] = {
            name: json.loads(score.model_dump_json(exclude={"history"}))
            for name, score in sorted((sample.scores or {}).items())
        }
    return out


def differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Every path where two JSON values differ (NaN equals NaN)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        keys = sorted(set(expected) | set(actual))
        return [d for k in keys for d in differences(expected.get(k), actual.get(k), f"{path}.{k}")]
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [d for i, (e, a) in enumerate(zip(expected, actual, strict=True))
                for d in differences(e, a, f"{path}[{i}]")]  # fmt: skip
    same = expected == actual or (_nan(expected) and _nan(actual))
    return [] if same else [f"{path}: baseline {expected!r}, now {actual!r}"]


def _nan(value: Any) -> bool:
    return (isinstance(value, float) and math.isnan(value)) or value == "NaN"


def _write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    import tempfile

    commands: dict[str, Callable[[], None]] = {
        "replies": lambda: _write(REPLIES, build_replies()),
        "baseline": lambda: _write(BASELINE, snapshot(replay(Path(tempfile.mkdtemp())))),
    }
    if len(argv) != 1 or argv[0] not in commands:
        print(
            f"usage: python tests/support/regression.py {{{'|'.join(commands)}}}", file=sys.stderr
        )
        return 2
    commands[argv[0]]()
    print(f"wrote {REPLIES if argv[0] == 'replies' else BASELINE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
