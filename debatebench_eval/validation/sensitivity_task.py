"""The `judge_sensitivity` task: does the rubric judge notice a side made worse?

Built from real transcripts (validation/sensitivity/transcripts/: debatebench
0.1.2's nine mirror debates and one of this project's, the same files as the
scoring regression's) by the degradations of `degradations`. Every debate is
loaded into the DebateRecord store as the `judge` task loads a transcript, and
the `rubric` scorer judges it as it judges any debate; `rubric_sensitivity`
pairs the scores. The judge is the `judge` role, else the main model.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.calls import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import task_taker
from debatebench_eval.core.run_options import PROBE_ONLY, run_options
from debatebench_eval.core.task_versions import TASK_VERSIONS
from debatebench_eval.interop.judge_task import Transcripts, recorded_debate
from debatebench_eval.judging.options import JudgingOptions
from debatebench_eval.judging.run_summary import report_problems_after_the_run
from debatebench_eval.trust.digests import sensitivity_sha256, sources_sha256
from debatebench_eval.validation.degradations import (
    DEGRADATIONS,
    Variant,
    build_variants,
    load_sources,
    load_spec,
)
from debatebench_eval.validation.sensitivity_scorer import SENSITIVITY_JUDGING, rubric_sensitivity

TASK_ARGS = ("degradations", "limit_sources", "probe")


@task
def judge_sensitivity(
    degradations: list[str] | str | None = None,
    limit_sources: int | None = None,
    **unknown: Any,
) -> Task:
    """The rubric judge on real debates with one side made worse in a known way.

    The judge's settings are options of their own (-T judge_budget=4000; the keys of
    `debatebench-eval list` but strict_judge and fact_check), with -T probe;
    require_validated_judge asks for a passing speech validation record.

    Args:
        degradations: The degradations to run (default all): truncated, shuffled,
            off_topic, self_contradiction, fabricated_statistic, echo, strawman.
        limit_sources: Use only the first N source debates (of 10, in name order).
    """
    taker = task_taker("judge_sensitivity", TASK_ARGS, SENSITIVITY_JUDGING)
    run = run_options(unknown, task_taker("judge_sensitivity", TASK_ARGS, PROBE_ONLY))
    options = JudgingOptions.parse(unknown, taker)
    chosen = _degradations(degradations)
    spec = load_spec(dimensions=options.rubric.names)
    sources = load_sources()
    limit = arg.as_int("limit_sources", limit_sources)
    if limit is not None:
        sources = dict(list(sources.items())[:limit])
    variants, skipped = build_variants(sources, spec, chosen)
    report_problems_after_the_run()
    return Task(
        version=TASK_VERSIONS["judge_sensitivity"],
        dataset=variant_dataset(variants),
        solver=recorded_debate(
            Transcripts(
                name="judge sensitivity set", records={v.sample_id: v.record for v in variants}
            ),
            probe=run.probe,
            require_validated_judge=options.require_validated_judge,
        ),
        scorer=rubric_sensitivity(**options.given_values()),
        config=GenerateConfig(max_retries=DEFAULT_MAX_RETRIES, timeout=DEFAULT_TIMEOUT),
        fail_on_error=False,
        metadata={
            "judge_sensitivity": {
                "sources": list(sources),
                "sha256": sensitivity_sha256(),
                "sources_sha256": sources_sha256(),
                "edits_sha256": spec.sha256,
                "degradations": {n: list(spec.degradations[n].must_fall) for n in chosen},
                "complete": limit is None and chosen == DEGRADATIONS,
                "pairs": sum(1 for v in variants if v.reference),
                "samples": len(variants),
                "not_built": skipped,
            }
        },
    )


def _degradations(value: Any) -> tuple[str, ...]:
    names = arg.as_list("degradations", value)
    if names is None:
        return DEGRADATIONS
    unknown = [n for n in names if n not in DEGRADATIONS]
    if unknown or not names:
        raise ConfigError(
            arg.label("degradations"), f"got {value!r}", f"a list of {', '.join(DEGRADATIONS)}"
        )
    return tuple(n for n in DEGRADATIONS if n in names)


def variant_dataset(variants: list[Variant]) -> MemoryDataset:
    samples = []
    for variant in variants:
        assert variant.record.run is not None
        samples.append(
            Sample(
                id=variant.sample_id,
                input=f"Motion: {variant.record.run.motion}\n\n{variant.describe()}",
                metadata={"motion": variant.record.run.motion, "variant": variant.as_metadata()},
            )
        )
    return MemoryDataset(samples, name="judge-sensitivity")
