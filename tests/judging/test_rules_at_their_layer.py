"""Rules README states, each tested at the layer it states them, so that a one-line
break of the rule fails here: through the scorer, through the solver, with every
model's calls counted."""

from __future__ import annotations

import json
from typing import Any

from inspect_ai import score
from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.judging.figures import figures_of
from debatebench_eval.judging.rubric_scorer import rubric
from debatebench_eval.record.store import DebateRecord

from support.judge_replies import MAXIMA, NONE_MADE, is_rubric_call, rubric_reply, side_scores
from support.scripted import Script, output


def speakers() -> dict[str, Script]:
    return {
        "pro": Script("pro", reply=lambda n, m, c: output("pro", "Ban the cars.")),
        "con": Script("con", reply=lambda n, m, c: output("con", "Keep the cars.")),
    }


def panel_judge(name: str, pro_clarity: tuple[int, int]) -> Script:
    """PRO's clarity is `pro_clarity[0]` when Side A is PRO and `[1]` when A is CON; every
    other score is fixed, so only clarity tells the aggregation orders apart."""

    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        prompt = str(messages[1].content)
        if not is_rubric_call(messages):
            return output(name, json.dumps(NONE_MADE))
        a_is_pro = "Side A argues for the motion." in prompt
        pro = side_scores(0.5) | {"clarity": pro_clarity[0 if a_is_pro else 1]}
        con = side_scores(0.5)
        a, b = (pro, con) if a_is_pro else (con, pro)
        return output(name, rubric_reply(a, b))

    return Script(name, reply=reply)


def test_a_panel_averages_each_judges_readings_before_the_median(run_debate: Any) -> None:
    # Judges' means 5, 8 and 9: their median is 8. The other order (each reading's
    # median across judges, then their mean) would give (8 + 9) / 2 = 8.5.
    judges = [panel_judge("j1", (0, 10)), panel_judge("j2", (8, 8)), panel_judge("j3", (9, 9))]
    roles = {side: s.model() for side, s in speakers().items()}
    log = run_debate(roles={**roles, "judge": [j.model() for j in judges]}, fact_check=False,
                     phases="[opening]")  # fmt: skip
    value = figures_of(((log.samples or [])[0].scores or {})["rubric"])
    assert value["pro_clarity"] == 8 and value["con_clarity"] == round(MAXIMA["clarity"] * 0.5)


def test_the_trust_gate_refuses_before_any_model_call(run_debate: Any) -> None:
    debaters = speakers()
    judge = Script("gatekeeper", reply=lambda n, m, c: output("j", "{}"))
    roles = {side: s.model() for side, s in debaters.items()}
    log = run_debate(roles={**roles, "judge": judge.model()}, phases="[opening]",
                     require_validated_judge=True)  # fmt: skip
    sample = (log.samples or [])[0]
    assert sample.error and "require_validated_judge" in sample.error.message
    assert judge.calls == [] and debaters["pro"].calls == [] and debaters["con"].calls == []


def test_no_partial_debate_is_scored_even_when_a_saved_log_is_rescored(run_debate: Any) -> None:
    def con_fails_late(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        return output("con", "Keep the cars." if n == 1 else "")

    debaters = speakers() | {"con": Script("con", reply=con_fails_late)}
    judge = Script("judge", reply=lambda n, m, c: output("j", "{}"))
    roles = {side: s.model() for side, s in debaters.items()}
    log = run_debate(roles={**roles, "judge": judge.model()}, phases="[opening, conclusion]",
                     empty_retries=0, fact_check=False)  # fmt: skip
    sample = (log.samples or [])[0]
    assert sample.error is not None and not sample.store_as(DebateRecord).complete
    # `inspect score` scores every sample, failed ones too: the scorer must refuse it.
    rescored = score(log, rubric(), model_roles={"judge": judge.model()}, display="none")
    assert "rubric" not in ((rescored.samples or [])[0].scores or {})
    assert judge.calls == []
