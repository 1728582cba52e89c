"""The `judge` task re-judges recorded debatebench transcripts, offline."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from debatebench_eval.cli.main import main
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.interop.judge_task import judge
from debatebench_eval.interop.transcript_file import read_transcript
from debatebench_eval.judging.figures import figures_of
from debatebench_eval.record.store import DebateRecord

from support.rejudging import (
    MIRROR_TRANSCRIPTS,
    PASSAGES,
    REGRESSION_TRANSCRIPTS,
    as_version_1,
    judge_log,
    mirror_document,
    mirror_folder,
    scripted_judge,
    with_prep,
    write_json,
)
from support.scripted import Script, output
from support.stub_server import StubServer, closed_url

INSPECT = str(Path(sys.executable).parent / "inspect")
Edit = Callable[[dict[str, Any]], Any]


def test_judge_scores_the_nine_mirror_transcripts(tmp_path: Path) -> None:
    judge_script, main_script = scripted_judge(), Script("main")
    folder = mirror_folder(tmp_path)
    log = judge_log(tmp_path, folder, judge_script, main_script)
    assert log.status == "success"
    samples = log.samples or []
    assert [s.id for s in samples] == sorted(p.stem for p in MIRROR_TRANSCRIPTS)
    assert sorted(log.eval.metadata["skipped"]) == sorted(
        p.name for p in folder.glob("*-scores.json")
    )  # type: ignore[index]
    # Two blind orientations and one fact-check per debate; no debater is called.
    assert len(judge_script.calls) == 3 * len(samples) and not main_script.calls
    for sample in samples:
        record = sample.store_as(DebateRecord)
        expected = read_transcript(folder / f"{sample.id}.json")
        assert record.complete and record.model_dump() == expected.model_dump()
        rubric = (sample.scores or {})["rubric"]
        assert isinstance(rubric.value, dict) and rubric.metadata is not None
        assert rubric.metadata["winner"] == "con" and rubric.metadata["winner_reason"] == "total"
        # Side A's clarity point averages out over the two orientations.
        assert figures_of(rubric)["pro_clarity"] == 7.5 and figures_of(rubric)["con_clarity"] == 9.5
        assert rubric.value["swap_flipped"] == 0.0
        fact_check = (sample.scores or {})["fact_check"]
        assert isinstance(fact_check.value, dict) and figures_of(fact_check)["pro_claims"] == 4
        assert "### 1. Opening (short) — PRO" in sample.output.completion


def test_judge_takes_one_file_and_fact_check_can_be_turned_off(tmp_path: Path) -> None:
    judge_script = scripted_judge()
    log = judge_log(tmp_path, MIRROR_TRANSCRIPTS[0], judge_script, fact_check=False)
    (sample,) = log.samples or []
    assert sample.id == MIRROR_TRANSCRIPTS[0].stem
    assert set(sample.scores or {}) == {"rubric"} and len(judge_script.calls) == 2


def test_prep_evidence_reaches_the_judge_and_the_fact_check(tmp_path: Path) -> None:
    path = write_json(tmp_path / "prep.json", with_prep(mirror_document()))
    judge_script = scripted_judge(passage="args-me:101")
    log = judge_log(tmp_path, path, judge_script)
    (sample,) = log.samples or []
    record = sample.store_as(DebateRecord)
    assert [(p.id, p.side, p.pool) for p in record.passages] == [
        ("args-me:101", "pro", "args-me"), ("debatesum:7", "con", "debatesum")
    ]  # fmt: skip
    assert record.run is not None and record.run.phases[0] == "prep"
    rubric_prompt = str(judge_script.calls[0].messages[1].content)
    assert PASSAGES["con"][0]["text"] in rubric_prompt
    rubric = (sample.scores or {})["rubric"]
    assert rubric.metadata is not None and rubric.metadata["prep_grounded"] is True
    ledger = (sample.scores or {})["fact_check"].metadata["ledger"]  # type: ignore[index]
    assert ledger[0]["citations"][0]["kind"] == "passage"


def test_a_schema_version_1_transcript_is_judged(tmp_path: Path) -> None:
    path = write_json(tmp_path / "old.json", as_version_1(mirror_document()))
    log = judge_log(tmp_path, path, fact_check=False)
    (sample,) = log.samples or []
    record = sample.store_as(DebateRecord)
    assert record.run is not None
    assert record.run.phases == ["opening", "rebuttal", "rebuttal", "conclusion"]
    assert isinstance((sample.scores or {})["rubric"].value, dict)


def _drop(key: str) -> Edit:
    return lambda d: d.pop(key)


def _set_turn(index: int, key: str, value: Any) -> Edit:
    return lambda d: d["turns"][index].__setitem__(key, value)


def _edit_run(key: str, index: int, field: str | None, value: Any) -> Edit:
    def edit(document: dict[str, Any]) -> None:
        items = document["run"][key]
        if field is None:
            items[index] = value
        else:
            items[index][field] = value

    return edit


# (case, file text or an edit of a mirror transcript, the key named, what it says)
BAD_FILES: list[tuple[str, Edit | str, str, str]] = [
    ("not-json", "{not json", "", "is not JSON"),
    ("a-list", "[1, 2]", "", "the top level is a list; expected a JSON object"),
    ("version-3", lambda d: d.update(schema_version=3), "schema_version", "got 3; expected 1 or 2"),
    ("no-version", _drop("schema_version"), "schema_version", "got null; expected 1 or 2"),
    ("no-run", _drop("run"), "run", "the key is missing; expected a JSON object"),
    ("no-turns", _drop("turns"), "turns", "the key is missing; expected a list"),
    (
        "bad-side-index",
        _set_turn(3, "side_index", 2),
        "turns[3].side_index",
        "got 2; expected 0 or 1",
    ),
    ("bool-side-index", _set_turn(3, "side_index", True), "turns[3].side_index", "got True"),
    ("no-text", lambda d: d["turns"][2].pop("text"), "turns[2].text", "the key is missing"),
    ("empty-text", _set_turn(2, "text", "  "), "turns[2].text", "expected a non-empty string"),
    (
        "missing-turn",
        lambda d: d["turns"].pop(5),
        "turns",
        "no turn for phase_index 2 (rebuttal), side con",
    ),
    ("duplicate-turn", lambda d: d["turns"].append(d["turns"][0]), "turns[8]", "a second turn for"),
    ("wrong-phase", _set_turn(0, "phase", "rebuttal"), "turns[0].phase", "expected 'opening'"),
    ("phase-out-of-range", _set_turn(0, "phase_index", 9), "turns[0].phase_index", "0 to 3"),
    ("unknown-phase", _edit_run("phases", 3, None, "crossfire"), "run.phases[3]", "one of prep"),
    ("one-side", lambda d: d["run"]["sides"].pop(), "run.sides", "got 1 entries; expected two"),
    ("two-pros", _edit_run("sides", 1, "side", "pro"), "run.sides", "one pro and one con"),
    ("bad-budget", _edit_run("sides", 0, "budget", 0), "run.sides[0].budget", "at least 1"),
    ("no-usage", lambda d: d["turns"][1].pop("usage"), "turns[1].usage", "the key is missing"),
    ("both-first", _set_turn(1, "order", 0), "turns (phase_index 0)", "both sides have order 0"),
    ("mixed-lengths", _set_turn(1, "length", "long"), "turns (phase_index 0)", "one length"),
    ("evidence-off-prep", _set_turn(0, "evidence", []), "turns[0].evidence", "on prep turns only"),
]


@pytest.mark.parametrize(
    ("name", "edit", "key", "message"), BAD_FILES, ids=[case[0] for case in BAD_FILES]
)
def test_a_malformed_transcript_stops_the_task_naming_file_and_key(
    tmp_path: Path, name: str, edit: Edit | str, key: str, message: str
) -> None:
    path = tmp_path / f"{name}.json"
    if isinstance(edit, str):
        path.write_text(edit, encoding="utf-8")
    else:
        document = mirror_document()
        edit(document)
        write_json(path, document)
    write_json(tmp_path / "a-good-one.json", mirror_document())
    with pytest.raises(ConfigError) as caught:
        judge(transcripts=str(tmp_path))
    text = str(caught.value)
    assert text.startswith(f"{path}: {key}" if key else f"{path}: ") and message in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"transcripts": None}, "-T transcripts: no value"),
        ({"transcripts": "no/such/folder"}, "no/such/folder does not exist"),
        ({"judge_budgt": 10}, "-T judge_budgt: unknown argument(s) judge_budgt for task judge"),
        ({"swap_judging": "maybe"}, "-T swap_judging: got 'maybe'; expected true or false"),
    ],
)
def test_bad_task_arguments_are_one_clear_error(args: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=None) as caught:
        judge(**{"transcripts": str(REGRESSION_TRANSCRIPTS), **args})
    assert message in str(caught.value)


def test_a_folder_without_transcripts_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="holds no transcript"):
        judge(transcripts=str(tmp_path))


def test_an_unusable_judge_reply_leaves_the_debate_unscored_not_zero(tmp_path: Path) -> None:
    prose = Script("judge", lambda n, m, c: output("judge", "Con argued better."))
    log = judge_log(tmp_path, MIRROR_TRANSCRIPTS[0], prose, fact_check=False)
    (sample,) = log.samples or []
    rubric = (sample.scores or {})["rubric"]
    assert sample.error is None and not isinstance(rubric.value, dict) and rubric.reason


def test_project_command_lists_the_judge_task(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    listing = capsys.readouterr().out
    assert "debatebench/judge" in listing and "transcripts: A folder of debatebench" in listing


def inspect_judge(args: list[str], base_url: str, log_dir: Path) -> EvalLog:
    """`inspect eval debatebench/judge` with only a judge role, as a user would run it."""
    env = {**os.environ, "INSPECT_LOG_DIR": str(log_dir), "NO_COLOR": "1"}
    result = subprocess.run(
        [INSPECT, "eval", "debatebench/judge", "--display", "plain",
         "--model-role", "judge=ollama/stub", *args],
        env={**env, "OLLAMA_BASE_URL": base_url}, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    (info,) = list_eval_logs(str(log_dir))
    return read_eval_log(info.name)


@pytest.mark.command
def test_judge_from_the_command_line(tmp_path: Path) -> None:
    """The real `inspect eval` resolves the alias and the -T values; the stub's prose
    replies cannot be parsed, so every debate ends unscored (never failed, never zero)."""
    folder = mirror_folder(tmp_path)
    with StubServer() as stub:
        log = inspect_judge(
            [
                "-T",
                f"transcripts={folder}",
                "-T",
                "fact_check=false",
                "-T",
                "swap_judging=false",
            ],
            stub.base_url,
            tmp_path,
        )
        requests = list(stub.behaviour.requests)
    assert log.status == "success" and len(log.samples or []) == len(MIRROR_TRANSCRIPTS)
    assert {r["max_tokens"] for r in requests} == {6000}
    assert all("gemma4:12b" not in r["messages"][1]["content"] for r in requests)
    for sample in log.samples or []:
        assert sample.store_as(DebateRecord).complete
        assert (sample.scores or {})["rubric"].reason


@pytest.mark.command
def test_a_judge_server_that_is_not_running_fails_fast_naming_its_url(tmp_path: Path) -> None:
    dead = closed_url()
    log = inspect_judge(["-T", f"transcripts={MIRROR_TRANSCRIPTS[0]}"], dead, tmp_path)
    (sample,) = log.samples or []
    assert sample.error is not None and dead in sample.error.message
    assert "role 'judge'" in sample.error.message


def test_a_passage_id_used_twice_is_refused(tmp_path: Path) -> None:
    from support.rejudging import with_prep

    document = with_prep(mirror_document())
    document["turns"][1]["evidence"] = [dict(document["turns"][0]["evidence"][0])]
    path = write_json(tmp_path / "twice.json", document)
    with pytest.raises(ConfigError, match=r"turns\[1\]\.evidence\[0\]\.id") as caught:
        judge(transcripts=str(path))
    assert "is also turns[0].evidence[0].id" in str(caught.value)
