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
from debatebench_eval.interop.judge_task import Transcripts, recorded_debate
from debatebench_eval.judging.options import judge_options
from debatebench_eval.judging.run_summary import report_problems_after_the_run
from debatebench_eval.validation.degradations import (
    DEGRADATIONS,
    Variant,
    build_variants,
    bundled_sha256,
    load_sources,
    load_spec,
    sources_sha256,
)
from debatebench_eval.validation.sensitivity_scorer import rubric_sensitivity

JUDGING_ARGS = (
    "rubric",
    "swap_judging",
    "judge_budget",
    "judge_quorum",
    "judge_schema",
    "resolved_margin",
    "leaning_margin",
    "require_validated_judge",
)
TASK_ARGS = ("degradations", "limit_sources", "probe", *JUDGING_ARGS)


@task
def judge_sensitivity(
    degradations: list[str] | str | None = None,
    limit_sources: int | None = None,
    rubric: str | None = None,
    swap_judging: bool = True,
    judge_budget: int | None = None,
    judge_quorum: int | None = None,
    judge_schema: bool | str = "auto",
    resolved_margin: float | None = None,
    leaning_margin: float | None = None,
    require_validated_judge: bool = False,
    probe: bool = True,
    **unknown: Any,
) -> Task:
    """The rubric judge on real debates with one side made worse in a known way.

    Args:
        degradations: The degradations to run (default all): truncated, shuffled,
            off_topic, self_contradiction, fabricated_statistic, echo, strawman.
        limit_sources: Use only the first N source debates (of 10, in name order).
        rubric: A rubric file for the judge (default scorers/rubric.yaml).
        swap_judging: Judge twice with Side A/B swapped and average (default true).
        judge_budget: Completion-token cap of each judge call (default 6000).
        judge_quorum: Valid judges needed when the judge role is a panel (default: all).
        judge_schema: Hold the judge to JSON: auto (the default), true, object or false.
        resolved_margin: Total-score margin for RESOLVED (default 15 of 100).
        leaning_margin: Total-score margin for CONTESTED_BUT_LEANING (default 5 of 100).
        require_validated_judge: Refuse, before any call, a judge without a passing
            speech validation record.
        probe: Check each judge's server answers before judging (default true).
    """
    arg.reject_unknown("task judge_sensitivity", unknown, TASK_ARGS)
    judging = {k: v for k, v in locals().items() if k in JUDGING_ARGS}
    options = judge_options(**judging)
    chosen = _degradations(degradations)
    spec = load_spec(dimensions=options.rubric.names)
    sources = load_sources()
    limit = arg.as_int("limit_sources", limit_sources)
    if limit is not None:
        sources = dict(list(sources.items())[:limit])
    variants, skipped = build_variants(sources, spec, chosen)
    report_problems_after_the_run()
    return Task(
        dataset=variant_dataset(variants),
        solver=recorded_debate(
            Transcripts(
                name="judge sensitivity set", records={v.sample_id: v.record for v in variants}
            ),
            probe=arg.as_bool("probe", probe),
            require_validated_judge=options.require_validated_judge,
        ),
        scorer=rubric_sensitivity(
            rubric_file=arg.as_text("rubric", rubric),
            **{k: v for k, v in judging.items() if k != "rubric"},
        ),
        config=GenerateConfig(max_retries=DEFAULT_MAX_RETRIES, timeout=DEFAULT_TIMEOUT),
        fail_on_error=False,
        metadata={
            "judge_sensitivity": {
                "sources": list(sources),
                "sha256": bundled_sha256(),
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
