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

import math
import re
from dataclasses import asdict
from functools import cache
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig, get_model
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState, generate

from . import arguments as arg
from .resources import data_file
from .speech import without_reasoning
from .speech_data import Speech, SpeechData, load_speeches
from .stats import Row, summarise
from .trust import judge_identity

PAPER = "Sternlicht et al. 2025, Debatable Intelligence, EMNLP 2025, arXiv:2506.05062"
PROMPT_FILES = {False: "no_cot.txt", True: "short_cot.txt"}
# The authors' run settings (PROMPTS.md).
PAPER_CONFIG = GenerateConfig(temperature=0.01, max_tokens=4096)
VALIDATION_ARGS = ("data", "cot", "limit_per_source")
_SCORE = re.compile(r"<score>\s*\[?\s*([1-5])\s*\]?\s*</score>", re.IGNORECASE)


@cache
def paper_prompt(cot: bool) -> str:
    """The authors' prompt file, as they wrote it (without the file's final newline)."""
    path = data_file("validation", "prompts", PROMPT_FILES[cot])
    return path.read_text(encoding="utf-8").rstrip("\n")


def speech_prompt(speech: Speech, cot: bool) -> str:
    # The authors fill the template with str.replace, so braces in a speech are safe.
    return paper_prompt(cot).replace("{TOPIC}", speech.topic).replace("{SPEECH}", speech.text)


def parse_rating(reply: str) -> int | None:
    """The last `<score>` of the reply, outside any reasoning; None when there is none."""
    found = _SCORE.findall(without_reasoning(reply))
    return int(found[-1]) if found else None


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
    return Task(
        dataset=_dataset(chosen, use_cot),
        solver=generate(),
        scorer=speech_rating(),
        config=PAPER_CONFIG,
        fail_on_error=False,
        metadata=_task_metadata(speeches, chosen, use_cot),
    )


def _dataset(speeches: tuple[Speech, ...], cot: bool) -> MemoryDataset:
    samples = [
        Sample(
            id=s.id,
            input=speech_prompt(s, cot),
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


@metric
def validation_stats() -> Metric:
    """Tau-c with its CI, tau-b, parse rate, ceilings, source baseline and calibration."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return summarise([row_of(s.score) for s in scores]).as_metrics()

    return compute


def row_of(score: Score) -> Row:
    """A scored speech as the statistics read it (also used on saved logs)."""
    meta = score.metadata or {}
    value = score.value if isinstance(score.value, dict) else {}
    rating = value.get("rating", math.nan)
    return Row(
        score=None if isinstance(rating, float) and math.isnan(rating) else float(rating),
        human_mean=float(meta["human_mean"]),
        source=str(meta["source"]),
        topic_id=int(meta["topic_id"]),
        ratings=tuple(meta["ratings"]),
        labelers=tuple(meta["labelers"]),
    )


@scorer(metrics=[validation_stats()])
def speech_rating() -> Scorer:
    """The judge's 1-5 rating of the speech, beside the 15 human ratings.

    An unparsable reply scores NaN (and the reason says why): the parse rate
    counts it, and no statistic sees it as a rating.
    """

    async def score(state: TaskState, target: Target) -> Score:
        rating = parse_rating(state.output.completion)
        meta = {
            k: state.metadata[k]
            for k in ("source", "topic_id", "human_mean", "ratings", "labelers")
        }
        # Asked of the server during the run, so a trust record names the model that answered.
        meta["judge_identity"] = asdict(await judge_identity(get_model()))
        if rating is None:
            return Score(
                value={"rating": math.nan},
                answer=state.output.completion[-200:],
                reason="no <score> element with a number from 1 to 5 in the reply",
                metadata=meta,
            )
        return Score(value={"rating": float(rating)}, answer=str(rating), metadata=meta)

    return score
