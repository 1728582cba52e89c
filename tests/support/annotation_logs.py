"""Log folders for the labelling page's tests: rubric debates between scripted pairs of
models on a few motions, and known-answer debates, run through the real tasks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.debating.task import debate
from debatebench_eval.known_answer.task import oversight

from support.oversight_questions import question_file, text_of
from support.rubric_runs import STRONG, WEAK, content_judge, judge_only
from support.scripted import Script, output

# Logs a reader must pass over: one still being written, one that is not a log at all.
STARTED = "2026-01-01T00-00-00-00-00_debate_StillBeingWritten000000.eval"
BROKEN = "2026-01-01T00-00-00-00-00_debate_BrokenLog0000000000000000.eval"
# A speech that tries to inject markup into the page: it must show as text.
INJECTION = '<img src=x onerror="window.injected=1"><script>window.injected=2</script>'


def motion_file(folder: Path, n: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "motions.jsonl"
    rows = [f'{{"id": "m{i}", "motion": "Motion number {i} should pass."}}' for i in range(n)]
    path.write_text("\n".join(rows) + "\n")
    return path


def debate_log(
    folder: Path, pro: str, con: str, *, motions: int = 2, pro_text: str | None = None
) -> Path:
    """One log of `motions` rubric debates, `pro` against `con`, judged by content."""
    roles = {
        "pro": Script(pro, reply=lambda n, m, c: output(pro, pro_text or STRONG)).model(),
        "con": Script(con, reply=lambda n, m, c: output(con, WEAK)).model(),
        "judge": Script("judge", reply=judge_only(content_judge())).model(),
    }
    task = debate(motions=str(motion_file(folder / "data", motions)), fact_check=False)
    log = eval(task, model=Script("main").model(), model_roles=roles,
               log_dir=str(folder / "logs"), display="none")[0]  # fmt: skip
    assert log.status == "success", log.error
    return Path(log.location)


def oversight_log(
    folder: Path, script: Script, protocol: str = "debate", n: int = 4, **args: Any
) -> Path:
    args.setdefault("rounds", 1)
    task = oversight(protocol=protocol, questions=str(question_file(folder / "data", n)),
                     probe=False, **args)  # fmt: skip
    log = eval(task, model=script.model(), log_dir=str(folder / "logs"), display="none")[0]
    assert log.status == "success", log.error
    return Path(log.location)


def plain_oversight(confidence: int = 80) -> Script:
    """Speakers that argue in plain words; a judge that always picks answer A."""

    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        prompt = text_of(messages)
        if prompt.startswith("You are the judge of a consultancy"):
            return output("s", "Why should I believe you?")
        if prompt.startswith("You are the judge"):
            body = {"answer": "A", "confidence": confidence, "reason": "It sounded right."}
            return output("s", json.dumps(body))
        if "choose which answer" in prompt:
            return output("s", json.dumps({"answer": "A"}))
        return output("s", f"My answer is the right one (speech {n}).")

    return Script("s", reply)
