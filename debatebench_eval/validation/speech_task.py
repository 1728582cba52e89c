"""The `judge_validation` task: how well a judge ranks the 631 human-rated speeches.

One sample per speech; the judge (the main model) gets the paper's own prompt,
verbatim (Sternlicht et al., *Debatable Intelligence*, EMNLP 2025,
arXiv 2506.05062; no-CoT by default, short-CoT with `-T cot=true`) and the
authors' run settings (temperature 0.01, max_tokens 4096; the command line's
--temperature / --max-tokens still win). The reply's score is read from its
last `<score>` element; a reply without one is unparsed: counted against the
parse rate and left out of every statistic, never a 0 or a -1. The metrics
are the paper's Kendall tau-c against the unrounded human mean, with its
context: a bootstrap CI, tau-b, the human ceilings, the source-only baseline
and per-source calibration (`stats`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import HeadlineMetric
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate
from inspect_ai.viewer import (
    ScoreColorScale,
    TaskSamplesColumn,
    TaskSamplesView,
    ViewerConfig,
)

from debatebench_eval.core import arguments as arg
from debatebench_eval.core.resources import data_file
from debatebench_eval.core.task_versions import TASK_VERSIONS
from debatebench_eval.judging.run_summary import report_problems_after_the_run
from debatebench_eval.trust.speech_data import Speech, SpeechData, load_speeches
from debatebench_eval.validation.speech_scorer import speech_rating

PAPER = "Sternlicht et al. 2025, Debatable Intelligence, EMNLP 2025, arXiv:2506.05062"
PROMPT_FILES = {False: "no_cot.txt", True: "short_cot.txt"}
# The authors' run settings (PROMPTS.md).
PAPER_CONFIG = GenerateConfig(temperature=0.01, max_tokens=4096)
VALIDATION_ARGS = ("data", "cot", "limit_per_source")


@cache
def paper_prompt(cot: bool) -> str:
    """The authors' prompt file, as they wrote it (without the file's final newline)."""
    path = data_file("validation", "prompts", PROMPT_FILES[cot])
    return path.read_text(encoding="utf-8").rstrip("\n")


def speech_prompt(speech: Speech, cot: bool) -> str:
    # The authors fill the template with str.replace, so braces in a speech are safe.
    return paper_prompt(cot).replace("{TOPIC}", speech.topic).replace("{SPEECH}", speech.text)


def per_source(speeches: tuple[Speech, ...], limit: int | None) -> tuple[Speech, ...]:
    """A stratified subset: the first `limit` speeches of each source in id order."""
    if limit is None:
        return speeches
    chosen: list[Speech] = []
    for source in sorted({s.source for s in speeches}):
        rows = sorted((s for s in speeches if s.source == source), key=lambda s: s.id)
        chosen += rows[:limit]
    return tuple(chosen)


@task
def judge_validation(
    data: str | None = None,
    cot: bool = False,
    limit_per_source: int | None = None,
    **unknown: Any,
) -> Task:
    """Kendall's tau-c of the main model, as a judge, against 631 human-rated debate speeches.

    Args:
        data: The dataset: unset for the vendored copy (sha256-checked), `hf` for the
            Hugging Face copy (needs network), or a path to a CSV copy.
        cot: Use the paper's short-CoT prompt instead of the no-CoT one (default false).
        limit_per_source: Take only the first N speeches of each of the 8 sources.
    """
    arg.reject_unknown("task judge_validation", unknown, VALIDATION_ARGS)
    use_cot = arg.as_bool("cot", cot)
    speeches = load_speeches(arg.as_text("data", data))
    chosen = per_source(speeches.speeches, arg.as_int("limit_per_source", limit_per_source))
    report_problems_after_the_run()
    return Task(
        version=TASK_VERSIONS["judge_validation"],
        dataset=_dataset(chosen, use_cot),
        solver=generate(),
        scorer=speech_rating(),
        config=PAPER_CONFIG,
        viewer=validation_viewer(),
        headline_metric=HeadlineMetric(scorer="speech_rating", metric="tau_c"),
        fail_on_error=False,
        metadata=_task_metadata(speeches, chosen, use_cot),
    )


def _dataset(speeches: tuple[Speech, ...], cot: bool) -> MemoryDataset:
    samples = [
        Sample(
            id=s.id,
            input=speech_prompt(s, cot),
            # Shown in the sample list (the prompt's preamble is the same in every row).
            target=f"{s.source} · {s.topic}",
            metadata={
                "source": s.source,
                "topic_id": s.topic_id,
                "topic": s.topic,
                "human_mean": s.human_mean,
                "ratings": list(s.ratings),
                "labelers": list(s.labelers),
            },
        )
        for s in speeches
    ]
    return MemoryDataset(samples, name="debatable-intelligence-speeches")


def _task_metadata(data: SpeechData, chosen: tuple[Speech, ...], cot: bool) -> dict[str, Any]:
    return {
        "validation": {
            "data": data.origin,
            "sha256": data.sha256,
            "speeches": len(chosen),
            "of": len(data.speeches),
            "prompt": "short_cot" if cot else "no_cot",
            "paper": PAPER,
        }
    }


def validation_viewer() -> ViewerConfig:
    """The sample list: each speech's source and topic, the judge's score beside the
    human mean, parsed or not; the prompt (the same preamble in every row) hidden."""
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name="speeches",
            columns=[
                TaskSamplesColumn(id="sampleId"),
                TaskSamplesColumn(id="target"),
                TaskSamplesColumn.score("speech_rating", "rating"),
                TaskSamplesColumn.score("speech_rating", "human_mean"),
                TaskSamplesColumn(id="answer"),
                TaskSamplesColumn(id="error"),
                TaskSamplesColumn(id="input", visible=False),
            ],
            score_labels={"rating": "Judge", "human_mean": "Human mean"},
            score_color_scales={
                "rating": ScoreColorScale(palette="good-high", min=1, max=5),
                "human_mean": ScoreColorScale(palette="good-high", min=1, max=5),
            },
        )
    )
