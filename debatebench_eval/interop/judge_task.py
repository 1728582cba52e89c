"""The `judge` task: re-judge recorded debates (debatebench transcript files).

A debate is argued once and may be judged many times: by a different judge,
a panel, another rubric. This task makes no debater call. Each transcript
file becomes one sample whose DebateRecord store holds the recorded debate,
and the same scorers as the `debate` task judge it, with the same options.

Every file is read and checked when the task is built, so one malformed file
stops the run before any judge call, with an error naming the file and key.
As in the `debate` task, each judge server is probed before its first call
and model calls default to a few retries, so a server that is not running
fails the sample at once with its URL instead of retrying for a long time.
In a folder, debatebench score files (which debatebench and our `export`
write beside the transcripts) are recognised by their keys and passed over.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageAssistant, GenerateConfig, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.calls import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import task_taker
from debatebench_eval.core.run_options import PROBE_ONLY, run_options
from debatebench_eval.core.task_versions import TASK_VERSIONS
from debatebench_eval.interop.transcript_file import (
    load_json,
    read_transcript,
    record_from_document,
)
from debatebench_eval.judging.gate import judge_trust
from debatebench_eval.judging.options import JUDGE_ROLE, JudgingOptions, judge_models
from debatebench_eval.judging.run_summary import report_problems_after_the_run
from debatebench_eval.judging.scorer_set import HEADLINE_METRIC, judging_scorers
from debatebench_eval.judging.viewer import debate_viewer
from debatebench_eval.record.display import transcript_markdown, turn_heading
from debatebench_eval.record.store import DebateRecord
from debatebench_eval.servers.probe import ensure_reachable

TRANSCRIPT_GLOB = "*.json"
JUDGE_TASK_ARGS = ("transcripts", "probe")
# Keys a debatebench score file has and a transcript never has.
_SCORE_FILE_KEYS = frozenset({"judged_at", "judge_model", "winner"})


@dataclass(frozen=True)
class Transcripts:
    """The checked debates of one judge run, by sample id (the file's stem).

    A plain class rather than a dict, so the log's plan names the source
    (`name`) instead of serialising every debate into it.
    """

    name: str
    records: dict[str, DebateRecord]
    skipped: tuple[str, ...] = ()


@task
def judge(
    transcripts: str | None = None,
    **unknown: Any,
) -> Task:
    """Re-judge recorded debates: debatebench transcript files, with the `judge` role.

    The judge's settings are options of their own (-T judge_budget=1024
    -T swap_judging=false; `debatebench-eval list`), with -T probe.

    Args:
        transcripts: A folder of debatebench transcript files (*.json, schema_version 1
            or 2; score files beside them are passed over), or one transcript file.
    """
    taker = task_taker("judge", JUDGE_TASK_ARGS)
    run = run_options(unknown, task_taker("judge", JUDGE_TASK_ARGS, PROBE_ONLY))
    judged = JudgingOptions.gather(unknown, taker)
    source = arg.as_text("transcripts", transcripts)
    if source is None:
        raise ConfigError(
            "-T transcripts", "no value", "a folder of debatebench transcripts or one file"
        )
    debates = load_transcripts(Path(source).expanduser())
    options = JudgingOptions.checked(judged)
    judging_set = judging_scorers(options)
    report_problems_after_the_run()
    return Task(
        version=TASK_VERSIONS["judge"],
        dataset=transcript_dataset(debates),
        solver=recorded_debate(
            debates,
            probe=run.probe,
            require_validated_judge=options.require_validated_judge,
            require_human_kappa=options.require_human_kappa,
        ),
        scorer=judging_set.scorers,
        viewer=debate_viewer(judging_set.score_keys),
        headline_metric=HEADLINE_METRIC,
        config=GenerateConfig(max_retries=DEFAULT_MAX_RETRIES, timeout=DEFAULT_TIMEOUT),
        # One unjudgeable debate must not stop the others; eval-retry resumes it.
        fail_on_error=False,
        metadata={"transcripts": debates.name, "skipped": list(debates.skipped)},
    )


def load_transcripts(path: Path) -> Transcripts:
    """Every transcript in a folder (sorted by name), or the one file given; all checked."""
    if path.is_file():
        return Transcripts(name=str(path), records={path.stem: read_transcript(path)})
    if not path.is_dir():
        raise ConfigError(
            "-T transcripts", f"{path} does not exist", "a folder of transcripts or one file"
        )
    records: dict[str, DebateRecord] = {}
    skipped: list[str] = []
    for file in sorted(path.glob(TRANSCRIPT_GLOB)):
        document = load_json(file)
        if document.keys() >= _SCORE_FILE_KEYS and "run" not in document:
            skipped.append(file.name)
            continue
        records[file.stem] = record_from_document(document, str(file), file.stem)
    if not records:
        raise ConfigError(
            "-T transcripts",
            f"{path} holds no transcript ({TRANSCRIPT_GLOB})",
            "a folder of debatebench transcript files",
        )
    return Transcripts(name=str(path), records=records, skipped=tuple(skipped))


def transcript_dataset(debates: Transcripts) -> MemoryDataset:
    """One sample per debate; the id is the file's stem."""
    samples = []
    for sample_id, record in debates.records.items():
        assert record.run is not None
        samples.append(
            Sample(
                id=sample_id,
                input=f"Motion: {record.run.motion}",
                metadata={
                    "motion_id": record.run.motion_id,
                    "motion": record.run.motion,
                    "topic": record.run.topic,
                    "transcript": f"{sample_id}.json",
                },
            )
        )
    return MemoryDataset(samples, name="debatebench-transcripts")


@solver
def recorded_debate(
    debates: Transcripts,
    probe: bool = True,
    require_validated_judge: bool = False,
    require_human_kappa: float | None = None,
) -> Solver:
    """Put the sample's recorded debate into its DebateRecord store; no model is called.

    Args:
        debates: The checked transcripts, by sample id.
        probe: Check each judge model's server answers first (it fails the sample fast).
        require_validated_judge: Refuse a judge without a passing validation record first.
        require_human_kappa: Refuse a judge without a human-agreement record of this kappa.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if require_validated_judge or require_human_kappa is not None:
            await judge_trust(judge_models(), require_validated_judge, require_human_kappa)
        if probe:
            for model in judge_models():
                await ensure_reachable(model, JUDGE_ROLE)
        _load(state, debates.records[str(state.sample_id)])
        return state

    return solve


def _load(state: TaskState, source: DebateRecord) -> None:
    """Copy the recorded debate into the sample's store, and show it as the debate task does."""
    assert source.run is not None
    record = state.store_as(DebateRecord)
    record.run = source.run.model_copy(deep=True)
    record.turns = [turn.model_copy() for turn in source.turns]
    record.passages = [passage.model_copy() for passage in source.passages]
    record.complete = source.complete
    state.metadata.update(record.run.model_dump(exclude={"sides"}))
    for turn in record.turns:
        heading = turn_heading(turn)
        state.messages.append(
            ChatMessageAssistant(content=f"{heading}\n\n{turn.text}", model=turn.model)
        )
    state.output = ModelOutput.from_content(
        model="transcript", content=transcript_markdown(record.turns)
    )
