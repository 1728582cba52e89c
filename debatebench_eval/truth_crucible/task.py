"""The `crucible` task: topic files in, one claim-level debate per topic, judged per claim."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.calls import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from debatebench_eval.core.options import task_taker
from debatebench_eval.core.resources import data_file
from debatebench_eval.core.run_options import run_options
from debatebench_eval.core.task_versions import TASK_VERSIONS
from debatebench_eval.judging.run_summary import report_problems_after_the_run
from debatebench_eval.truth_crucible.corpus import open_corpus
from debatebench_eval.truth_crucible.options import (
    CRUCIBLE_RUN_KEYS,
    DEBATE_ARGS,
    ScoringOptions,
    debate_options,
    scoring_options,
)
from debatebench_eval.truth_crucible.scorer import crucible_score
from debatebench_eval.truth_crucible.solver import TopicRun, crucible_solver
from debatebench_eval.truth_crucible.topic import Topic, load_topic
from debatebench_eval.truth_crucible.viewer import crucible_viewer

EXAMPLE_TOPIC = "example"


def topic_paths(value: Any) -> list[Path]:
    """The topic files named by -T topic (`example`, the default, is the shipped one)."""
    names = arg.as_list("topic", value) or [EXAMPLE_TOPIC]
    return [
        data_file("tasks", "crucible", "example", "topic.yaml")
        if name == EXAMPLE_TOPIC
        else Path(name).expanduser()
        for name in names
    ]


@task
def crucible(
    topic: str | list[str] | None = None,
    claims: int | None = None,
    rounds: int | None = None,
    steelman: bool | None = None,
    position_swap: bool | None = None,
    neutralize: str | None = None,
    early_stop: float | None = None,
    queries: int | None = None,
    hits: int | None = None,
    budget: int | None = None,
    resume_cache: bool | None = None,
    **unknown: Any,
) -> Task:
    """Claim-level, cite-or-lose debate over a corpus (Truth Crucible's design), judged per claim.

    The judging settings are options of their own (-T judges=2 -T meta_judge=false): the
    judge's calls as every judging task's, and judges, meta_judge, audit_spread and the
    margins on a claim's 1-5 scale (`debatebench-eval list`), with -T probe. The seed and
    the reply timeout are Inspect's --seed and --timeout.

    Args:
        topic: Truth Crucible topic file(s) (YAML; paths in them relative to the file), one
            sample each; `example` (the default) is the shipped fictional topic.
        claims: Claims each side files (1-10, default 5).
        rounds: Push/rebuttal rounds after the claims (0-6, default 2).
        steelman: From round 2 each turn first restates the opponent's strongest claim
            (default true, or the topic file's protocol.enable_steelman).
        position_swap: One extra round in which each side argues the other position
            (default false, or protocol.enable_position_swap).
        neutralize: Bias check of the question: off, diagnose, or rewrite (debate the
            neutral wording when a bias scores 2 of 3 or more). Default off, or
            protocol.topic_neutralization.
        early_stop: Judged convergence (0-1) after a round that ends the rounds; 0 or none
            never stops early (default 0.8).
        queries: Search queries each side may add to the harness's own (0-5, default 3).
        hits: Corpus passages shown per class (1-20, default 6).
        budget: Completion-token cap of every debater call (default 4000).
        resume_cache: Keep every debate call that passed its checks so `inspect eval-retry`
            of this run resumes a crashed topic where it stopped (default true; a fresh
            `inspect eval` always asks the model; false: every call live, even on retry).
    """
    run = run_options(unknown, task_taker("crucible", DEBATE_ARGS, CRUCIBLE_RUN_KEYS))
    scored = ScoringOptions.gather(unknown, task_taker("crucible", DEBATE_ARGS))
    given = {k: v for k, v in locals().items() if k in DEBATE_ARGS}
    topics = [load_topic(path) for path in topic_paths(topic)]
    ids = sample_ids(topics)
    runs = {
        sample_id: TopicRun(
            corpus=open_corpus(t),
            options=debate_options(given, t.defaults, run),
            scoring=scoring_options(scored, t.defaults),
        )
        for sample_id, t in zip(ids, topics, strict=True)
    }
    report_problems_after_the_run()
    return Task(
        version=TASK_VERSIONS["crucible"],
        dataset=crucible_dataset(topics, ids, runs),
        solver=crucible_solver(runs),
        # Nothing given again: each topic's run record holds its checked scoring options.
        scorer=crucible_score(),
        viewer=crucible_viewer(),
        config=GenerateConfig(max_retries=DEFAULT_MAX_RETRIES, timeout=DEFAULT_TIMEOUT),
        fail_on_error=False,  # one failed topic must not stop the others; eval-retry resumes it
        metadata={"topics": [str(t.file) for t in topics]},
    )


def sample_ids(topics: list[Topic]) -> list[str]:
    """A readable id per topic: its file's folder (for topic.yaml) or stem, made unique."""
    ids: list[str] = []
    for topic in topics:
        stem = topic.file.parent.name if topic.file.stem == "topic" else topic.file.stem
        name, n = stem, 2
        while name in ids:
            name, n = f"{stem}-{n}", n + 1
        ids.append(name)
    return ids


def crucible_dataset(
    topics: list[Topic], ids: list[str], runs: dict[str, TopicRun]
) -> MemoryDataset:
    samples = [
        Sample(
            id=sample_id,
            input=f"Question: {t.question}",
            metadata={
                "topic_file": str(t.file),
                "question": t.question,
                "corpus_files": len(runs[sample_id].corpus.files),
            },
        )
        for sample_id, t in zip(ids, topics, strict=True)
    ]
    return MemoryDataset(samples, name="crucible-topics")
