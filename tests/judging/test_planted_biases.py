"""Known answers for the reliability figures: judges built with one bias each, as scripted
Inspect models in real scored runs, are caught by that bias's figure and by no other.

The `judge` task re-judges eight debates (four motions, each argued twice with the
debaters exchanged) in which four things vary independently, as a full factorial:
which side opens, which side speaks longer, which side's case is stronger, and which
side the `alpha` debater argues. Each judge reads only the blind prompt:

- first speaker: scores the side whose turn comes first higher (position);
- longer side: the side with more words (length);
- own family (`alpha-self`): the side written in the alpha debater's style (self-preference);
- coin: a fresh coin on every call (run-to-run flips across repeats);
- fair: the stronger case, as the reference judge does.

Every planted judge sits in a panel beside a reference judge of a third family, so
self-preference is measurable for all of them, and is judged twice (`judge_repeats=2`),
so every judge's repeat consistency is measured. The figures are read from the run's
scores as the run's metric and the leaderboard read them (`judged_debate`, `diagnostics`).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.interop.judge_task import judge
from debatebench_eval.judging.figures import figures_of
from debatebench_eval.judging.metrics import judged_debate
from debatebench_eval.judging.reliability import diagnostics, flagged
from debatebench_eval.judging.score_schema import SPEECH_FIGURES

from support.judge_replies import rubric_reply, side_scores
from support.rejudging import mirror_document, write_json
from support.rubric_runs import all_metrics, debaters, judge_only, prompt_of, rubric_score
from support.scripted import Script, output

Reply = Callable[[int, list[Any], GenerateConfig], ModelOutput]
# Equal word counts, so only the filler decides a side's length.
STRONG, WEAK = "Evidence: decisive, sourced.", "Evidence: thin, unsourced."
ALPHA_STYLE, BETA_STYLE = "Moreover, consider this.", "Furthermore, consider this."
LONG, SHORT = 60, 20  # filler words per turn
REFERENCE = "mockllm/gamma"
_BLOCK = re.compile(r"^\[t[0-9a-f]{8}\] [^\n]* Side ([AB])\n([^\n]*)", re.MULTILINE)


def flip(side: str) -> str:
    return "con" if side == "pro" else "pro"


def turn_text(strong: bool, alpha: bool, long: bool) -> str:
    filler = " ".join(["point"] * (LONG if long else SHORT))
    return f"{STRONG if strong else WEAK} {ALPHA_STYLE if alpha else BETA_STYLE} {filler}"


def transcript(number: int, opener: str, longer: str, stronger: str, alpha: str) -> dict[str, Any]:
    """A four-phase debate (from a recorded one) with the four factors set."""
    document = mirror_document()
    document["run"]["topic"] = f"Motion {number // 2}: towns should plant more trees."
    # Each debate its own seed, as a run gives it. The coin judge is random: each of its
    # other figures is flagged at its interval's 5% rate. The seeds are fixed, so the test
    # checks one draw (a base of 1000 draws a coin whose 0 of 4 decided debates went to
    # the opener: flagged by position, as a coin may be).
    document["run"]["seed"] = 2000 + number
    for entry in document["run"]["sides"]:
        entry["model"] = "alpha" if entry["side"] == alpha else "beta"
    sides = {entry["index"]: entry["side"] for entry in document["run"]["sides"]}
    for turn in document["turns"]:
        side = sides[turn["side_index"]]
        leader = opener if turn["phase_index"] % 2 == 0 else flip(opener)
        turn["order"] = 0 if side == leader else 1
        turn["text"] = turn_text(side == stronger, side == alpha, side == longer)
    document["turns"].sort(key=lambda t: (t["phase_index"], t["order"]))
    return document


def debate_folder(tmp_path: Path) -> Path:
    """Eight debates; the alpha debater's side is the product of the other three factors,
    so all four are balanced and uncorrelated."""
    folder = tmp_path / "debates"
    folder.mkdir()
    signs = {"pro": 1, "con": -1}
    for number, (opener, longer, stronger) in enumerate(product(("pro", "con"), repeat=3)):
        alpha = "pro" if signs[opener] * signs[longer] * signs[stronger] > 0 else "con"
        document = transcript(number, opener, longer, stronger, alpha)
        write_json(folder / f"debate-{number}.json", document)
    return folder


def speeches(prompt: str) -> list[tuple[str, str]]:
    """(blind label, text) of every turn, in the order the judge reads them."""
    return _BLOCK.findall(prompt)


def favouring(choose: Callable[[list[tuple[str, str]], list[Any], GenerateConfig], str]) -> Reply:
    """A judge scoring the label `choose` picks 90%, the other 50%."""

    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        label = choose(speeches(prompt_of(messages)), messages, config)
        a, b = (0.9, 0.5) if label == "A" else (0.5, 0.9)
        return output("judge", rubric_reply(side_scores(a), side_scores(b)))

    return judge_only(reply)


def first_speaker(turns: list[tuple[str, str]], *_: Any) -> str:
    return turns[0][0]


def longer_side(turns: list[tuple[str, str]], *_: Any) -> str:
    words = {label: sum(len(text.split()) for who, text in turns if who == label) for label in "AB"}
    return max(words, key=lambda label: words[label])


def marked(marker: str) -> Callable[..., str]:
    def choose(turns: list[tuple[str, str]], *_: Any) -> str:
        return next(label for label, text in turns if marker in text)

    return choose


def coin(turns: list[tuple[str, str]], messages: list[Any], config: GenerateConfig) -> str:
    # Seeded by the call's seed (distinct per repeat) and the blind mapping: a fresh
    # coin on every call, the same one on every run of the test.
    mapping = "A=pro" if "Side A argues for" in prompt_of(messages) else "A=con"
    return random.Random(f"{config.seed}:{mapping}").choice("AB")


PLANTED: dict[str, tuple[Callable[..., str], list[str]]] = {
    "mockllm/beta-first": (first_speaker, ["position"]),
    "mockllm/beta-long": (longer_side, ["length"]),
    "mockllm/alpha-self": (marked(ALPHA_STYLE), ["self_preference"]),
    "mockllm/beta-coin": (coin, ["repeats"]),
    "mockllm/beta-fair": (marked(STRONG), []),
}


def judged_run(tmp_path: Path, planted: str) -> EvalLog:
    choose, _ = PLANTED[planted]
    panel = [
        Script(planted.removeprefix("mockllm/"), reply=favouring(choose)).model(),
        Script(REFERENCE.removeprefix("mockllm/"), reply=favouring(marked(STRONG))).model(),
    ]
    logs = eval(
        judge(transcripts=str(debate_folder(tmp_path)), judge_repeats=2,
              fact_check=False, probe=False),
        model=Script("main").model(), model_roles={"judge": panel},
        log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    return logs[0]


def figures_of_run(log: EvalLog) -> dict[str, Any]:
    debates = [judged_debate(rubric_score(log, i)) for i in range(len(log.samples or []))]
    assert all(d is not None for d in debates)
    return diagnostics([d for d in debates if d is not None])


@pytest.mark.parametrize("planted", list(PLANTED))
def test_a_planted_bias_is_flagged_by_its_figure_and_no_other(tmp_path: Path, planted: str) -> None:
    log = judged_run(tmp_path, planted)
    assert log.status == "success" and len(log.samples or []) == 8
    figures = figures_of_run(log)
    flags = flagged(figures)
    assert flags[planted] == PLANTED[planted][1], figures["by_judge"][planted]
    assert flags[REFERENCE] == []
    # Every figure was measurable for the planted judge: none passed by being absent.
    mine = figures["by_judge"][planted]
    assert all(mine[name] is not None for name in ("position", "side", "length", "repeats"))
    assert mine["self_preference"] is not None
    # The run's own metrics carry the panel's position and length figures: the judge
    # task's debates have either opener.
    metrics = all_metrics(log)
    for name in ("position_bias", "length_slope", "side_bias"):
        assert metrics[f"{name}_low"] <= metrics[name] <= metrics[f"{name}_high"]
    assert metrics["pro_opened"] == 0.5 and metrics["words.pro"] == metrics["words.con"]


def long_and_short() -> dict[str, Any]:
    long = " ".join(["point"] * LONG)
    return debaters(pro_text=f"{STRONG} {long}", con_text=f"{STRONG} point point")


def test_a_debate_runs_metrics_report_length_and_leave_position_out(
    tmp_path: Path, run_debate: Any
) -> None:
    """Paired over two motions, the role-pro debater speaking long: the longer-side judge's
    margin follows the length share exactly, and pro always opens, so there is no position
    figure (it would repeat the side figure)."""
    judge_ = Script("beta-long", reply=favouring(longer_side)).model()
    log = run_debate(roles={**long_and_short(), "judge": judge_}, fact_check=False,
                     motion=None, motions=str(motions_file(tmp_path)), paired=True)  # fmt: skip
    metrics = all_metrics(log)
    assert len(log.samples or []) == 4
    assert metrics["length_slope_low"] > 0 and "position_bias" not in metrics
    assert metrics["side_bias_low"] < 0.5 < metrics["side_bias_high"]
    score = rubric_score(log)
    figures = figures_of(score)
    assert set(SPEECH_FIGURES) <= set(figures)  # as the reference lists them
    assert figures["pro_opened"] == 1 and figures["words.pro"] != figures["words.con"]
    assert set(score.value) <= {"pro_total", "con_total", "margin", "swap_flipped",
                                "stance_violations"}  # fmt: skip


def motions_file(folder: Path) -> Path:
    path = folder / "motions.jsonl"
    lines = [{"id": f"m{i}", "motion": f"Motion {i}: towns should plant more trees."}
             for i in range(2)]  # fmt: skip
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    return path
