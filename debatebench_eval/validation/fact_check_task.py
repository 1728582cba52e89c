"""The `fact_check_validation` task: does a judge's fact-check give the planted verdicts?

One sample per debate of the bundled set (validation/fact_check/: 64 short
debates over the example evidence pool, 512 planted claims, 128 of each
verdict). Each debate is loaded into the DebateRecord store as the `judge`
task loads a transcript, and the `fact_check` scorer judges it, unchanged;
`planted_claims` reads its ledger against the key. The judge is the `judge`
role, else the main model, as in every judging task.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.calls import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from debatebench_eval.core.options import task_taker
from debatebench_eval.core.run_options import PROBE_ONLY, run_options
from debatebench_eval.core.task_versions import TASK_VERSIONS
from debatebench_eval.interop.judge_task import Transcripts, recorded_debate
from debatebench_eval.judging.options import JudgingOptions
from debatebench_eval.judging.run_summary import report_problems_after_the_run
from debatebench_eval.trust.digests import bundled_set_dir
from debatebench_eval.validation.fact_check_scorer import PLANTED_JUDGING, planted_claims
from debatebench_eval.validation.planted_set import PlantedSet, load_planted_set

TASK_ARGS = ("data", "probe")


@task
def fact_check_validation(
    data: str | None = None,
    **unknown: Any,
) -> Task:
    """The fact-check's verdicts against 512 claims planted with known verdicts in 64 debates.

    The judge's settings judge_budget, judge_schema and require_validated_judge (a
    passing speech validation record) are options of their own (-T judge_budget=4000),
    with -T probe.

    Args:
        data: A folder holding `transcripts/` and `claims.jsonl` in the bundled set's
            shape; unset for the bundled set (validation/fact_check/).
    """
    taker = task_taker("fact_check_validation", TASK_ARGS, PLANTED_JUDGING)
    run = run_options(unknown, task_taker("fact_check_validation", TASK_ARGS, PROBE_ONLY))
    options = JudgingOptions.parse(unknown, taker)
    folder = arg.as_text("data", data)
    planted = load_planted_set(Path(folder).expanduser() if folder else None)
    report_problems_after_the_run()
    return Task(
        version=TASK_VERSIONS["fact_check_validation"],
        dataset=planted_dataset(planted),
        solver=recorded_debate(
            Transcripts(name=planted.origin, records=planted.records),
            probe=run.probe,
            require_validated_judge=options.require_validated_judge,
        ),
        scorer=planted_claims(**options.given_values()),
        config=GenerateConfig(max_retries=DEFAULT_MAX_RETRIES, timeout=DEFAULT_TIMEOUT),
        fail_on_error=False,
        metadata={
            "fact_check_validation": {
                "data": "bundled" if folder is None else planted.origin,
                "bundled": folder is None or Path(folder).resolve() == bundled_set_dir().resolve(),
                "sha256": planted.sha256,
                "debates": len(planted.records),
                "claims": sum(len(c) for c in planted.claims.values()),
            }
        },
    )


def planted_dataset(planted: PlantedSet) -> MemoryDataset:
    """One sample per debate, in name order (the set's design is balanced over every
    16 consecutive debates, so `--limit 16` keeps it balanced)."""
    samples = []
    for debate, record in planted.records.items():
        assert record.run is not None
        samples.append(
            Sample(
                id=debate,
                input=f"Motion: {record.run.motion}",
                metadata={
                    "motion": record.run.motion,
                    "planted": [claim.as_metadata() for claim in planted.claims[debate]],
                },
            )
        )
    return MemoryDataset(samples, name="fact-check-validation")
