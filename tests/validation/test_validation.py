"""The judge_validation task: the data, the paper's prompt and parsing, the run, its metrics."""

from __future__ import annotations

import csv
import math
import shutil
from pathlib import Path

import httpx
import pytest
from inspect_ai.log import EvalLog

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.resources import data_file
from debatebench_eval.trust import speech_data
from debatebench_eval.trust.speech_data import load_speeches, probe_hub, read_csv
from debatebench_eval.trust.stats import HEADLINE_FIGURES
from debatebench_eval.validation.log_reader import read_validation_log
from debatebench_eval.validation.speech_scorer import SPEECH_RATING_KEYS, parse_rating
from debatebench_eval.validation.speech_task import judge_validation, speech_prompt

from support.validation_runs import human_judge, validate

VENDORED = data_file("validation", "data.csv")


def test_the_vendored_data_loads_and_is_checked_by_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    data = load_speeches()
    assert len(data.speeches) == 631 and data.sha256 == speech_data.VENDORED_SHA256
    assert len({s.topic_id for s in data.speeches}) == 76
    assert any("\n" in s.text for s in data.speeches)  # newlines inside fields survive
    monkeypatch.setattr(speech_data, "VENDORED_SHA256", "0" * 64)
    with pytest.raises(ConfigError, match="sha256 is 032f5d1b"):
        load_speeches()


def rows() -> list[dict[str, str]]:
    with VENDORED.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))[:3]


def write(tmp_path: Path, table: list[dict[str, str]], drop: str | None = None) -> Path:
    path = tmp_path / "copy.csv"
    columns = [c for c in table[0] if c != drop]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(table)
    return path


def test_a_local_copy_is_read_and_reported_by_its_own_hash(tmp_path: Path) -> None:
    data = load_speeches(str(write(tmp_path, rows())))
    assert len(data.speeches) == 3 and data.sha256 and data.sha256 != speech_data.VENDORED_SHA256
    assert data.speeches[0].human_mean == sum(data.speeches[0].ratings) / 15


BAD_ROWS = [
    ({"goodopeningspeech": "[1, 2"}, "goodopeningspeech", "list literal"),
    ({"goodopeningspeech": str([3] * 14)}, "goodopeningspeech", "list of 15 integers"),
    ({"goodopeningspeech": str([3] * 14 + [6])}, "goodopeningspeech", "ratings from 1 to 5"),
    ({"labeler_ids": str(["a"] * 15)}, "labeler_ids", "list of 15 integers"),
    ({"topic_id": "seven"}, "topic_id", "an integer"),
    ({"text": ""}, "text", "a value"),
]


@pytest.mark.parametrize(("change", "column", "expected"), BAD_ROWS)
def test_a_bad_row_names_file_row_and_column(
    tmp_path: Path, change: dict[str, str], column: str, expected: str
) -> None:
    table = rows()
    table[1].update(change)
    with pytest.raises(ConfigError, match=expected) as info:
        read_csv(write(tmp_path, table))
    assert f"row 3: {column}" in str(info.value)


def test_a_missing_column_or_duplicate_id_is_one_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no column labeler_ids"):
        read_csv(write(tmp_path, rows(), drop="labeler_ids"))
    table = rows()
    table[2]["id"] = table[0]["id"]
    with pytest.raises(ConfigError, match="appears twice"):
        read_csv(write(tmp_path, table))
    with pytest.raises(ConfigError, match="not a file"):
        load_speeches(str(tmp_path / "nowhere.csv"))


def test_an_unreachable_hub_is_one_attempt_and_one_message() -> None:
    attempts = []

    def refuse(request: httpx.Request) -> httpx.Response:
        attempts.append(request.url)
        raise httpx.ConnectError("offline", request=request)

    with pytest.raises(ConfigError, match="did not answer") as info:
        probe_hub(httpx.Client(transport=httpx.MockTransport(refuse)))
    assert len(attempts) == 1 and "huggingface.co" in str(info.value)


@pytest.mark.parametrize(
    ("reply", "rating"),
    [
        ("<score>4</score>", 4),
        ("<score>\n[5]\n</score>", 5),
        ("<scratchpad>Fine.</scratchpad>\n<score> 2 </score>", 2),
        ("<think>maybe <score>1</score></think><score>3</score>", 3),
        ("<score>2</score> on reflection <score>4</score>", 4),
        ("Score: 4", None),
        ("<score>6</score>", None),
        ("<score>4", None),
        ("<score>3.5</score>", None),
        ("", None),
    ],
)
def test_the_score_is_read_from_the_last_score_element(reply: str, rating: int | None) -> None:
    assert parse_rating(reply) == rating


def test_the_prompt_is_the_papers_with_topic_and_speech_filled() -> None:
    speech = load_speeches().speeches[0]
    braced = speech.__class__(**{**speech.__dict__, "text": "A {brace} and {TOPIC-like} text."})
    prompt = speech_prompt(braced, cot=False)
    assert prompt.startswith("Imagine the following scenario. You are in the audience")
    assert f"<topic>\n{speech.topic}\n</topic>" in prompt and "{brace}" in prompt
    assert prompt.endswith("[Insert a single number between 1 and 5]\n</score>")
    assert "<scratchpad>" in speech_prompt(speech, cot=True) and "<scratchpad>" not in prompt


def metrics_of(log: EvalLog) -> dict[str, float]:
    scores = log.results.scores if log.results else []
    return {name: m.value for s in scores for name, m in s.metrics.items()}


def test_a_validation_run_prints_its_headline_and_keeps_every_figure(tmp_path: Path) -> None:
    judge = human_judge(unparsed=1)
    log = validate(tmp_path, judge, limit_per_source=3)
    assert log.status == "success" and len(log.samples or []) == 24
    metrics = metrics_of(log)
    assert list(metrics) == [k for k in HEADLINE_FIGURES if k in metrics] and len(metrics) <= 8
    assert metrics["n_scored"] == 23
    assert math.isclose(metrics["parse_rate"], 23 / 24)
    assert (
        metrics["tau_c"] > 0.5 and metrics["tau_c_low"] <= metrics["tau_c"] <= metrics["tau_c_high"]
    )
    # Every other figure is computed from the samples by the same summary.
    every = read_validation_log(log.location)[1].as_metrics()
    assert every["n"] == 24 and all(every[k] == v for k, v in metrics.items())
    for key in ("tau_b", "distinct_values", "source_baseline_tau_c", "within_source_tau",
                "ceiling_by_position", "bias", "bias.Arg-GPT2"):  # fmt: skip
        assert key in every
    unparsed = [s for s in log.samples or [] if s.scores and s.scores["speech_rating"].reason]
    assert len(unparsed) == 1
    assert math.isnan(unparsed[0].scores["speech_rating"].value["rating"])  # type: ignore[index]
    assert tuple(unparsed[0].scores["speech_rating"].value) == SPEECH_RATING_KEYS  # type: ignore[arg-type]
    # The paper's settings reach the judge; the prompt is one user message.
    assert {(c.config.temperature, c.config.max_tokens) for c in judge.calls} == {(0.01, 4096)}
    assert all(len(c.messages) == 1 for c in judge.calls)
    assert log.eval.metadata and log.eval.metadata["validation"]["prompt"] == "no_cot"


def test_limit_per_source_is_a_stratified_subset(tmp_path: Path) -> None:
    log = validate(tmp_path, human_judge(0), limit_per_source=1, cot=True)
    sources = [s.metadata["source"] for s in log.samples or []]
    assert sorted(sources) == sorted(set(sources)) and len(sources) == 8


def test_bad_validation_arguments_are_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown argument"):
        judge_validation(speeches=3)
    with pytest.raises(ConfigError, match="at least 1"):
        judge_validation(limit_per_source=0)
    with pytest.raises(ConfigError, match="true or false"):
        judge_validation(cot="perhaps")


def test_a_copy_of_the_data_can_be_validated_against(tmp_path: Path) -> None:
    copy = tmp_path / "speeches.csv"
    shutil.copyfile(VENDORED, copy)
    log = validate(tmp_path, human_judge(0), data=str(copy), limit_per_source=1)
    assert log.eval.metadata["validation"]["data"] == str(copy)  # type: ignore[index]


def test_the_log_leads_with_tau_c_and_lists_speeches_not_the_prompt(tmp_path: Path) -> None:
    log = validate(tmp_path, human_judge(unparsed=1), limit_per_source=1)
    assert log.eval.headline_metric is not None and log.eval.headline_metric.metric == "tau_c"
    metrics = list(log.results.scores[0].metrics) if log.results else []
    # Eight speeches give no interval or baseline: an undefined figure is left out.
    assert metrics[:2] == ["tau_c", "parse_rate"]
    view = log.eval.viewer.task_samples_view if log.eval.viewer else None
    assert view is not None and not isinstance(view, list)
    assert [c.id for c in view.columns or [] if c.visible] == [
        "sampleId", "target", "score__speech_rating__rating", "score__speech_rating__human_mean",
        "answer", "error",
    ]  # fmt: skip
    samples = log.samples or []
    first = samples[0]
    assert first.target == f"{first.metadata['source']} · {first.metadata['topic']}"
    answers = [(s.scores or {})["speech_rating"].answer or "" for s in samples]
    unparsed = [s for s, answer in zip(samples, answers, strict=True) if "UNPARSED" in answer]
    assert len(unparsed) == 1
    human = (unparsed[0].scores or {})["speech_rating"].value["human_mean"]  # type: ignore[index]
    assert answers[samples.index(unparsed[0])] == f"UNPARSED: no <score> · human {human:.2f}"
    explanation = (unparsed[0].scores or {})["speech_rating"].explanation or ""
    assert explanation.startswith("Unparsed: no <score> element") and "Human mean" in explanation
    parsed = (samples[-1].scores or {})["speech_rating"]
    rating, human = parsed.value["rating"], parsed.value["human_mean"]  # type: ignore[index]
    # Not the JUDGE column again: the judge's score against the humans'.
    assert parsed.answer == f"judge {rating:.0f} vs human {human:.2f} ({rating - human:+.2f})"
    assert parsed.explanation and parsed.explanation.startswith(f"Judge {rating:.0f}; human mean")
