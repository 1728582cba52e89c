"""Every command that reads a folder of logs passes over a zero-byte and a half-written
`.eval` beside the real ones, naming each once, and does its work: `tournament run`
(resuming), `tournament rate`, `oversight compare` and `persuasion`, `annotate`,
`agreement`, and `report` of such a log is one message, not a traceback. They all
read through the package's one log-folder reader (`core.log_folder`)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval

from debatebench_eval.annotation.items import load_items
from debatebench_eval.annotation.page_key import KEY_SUFFIX, blind_id, key_of, write_key
from debatebench_eval.cli.main import main
from debatebench_eval.core.log_folder import log_file_task
from debatebench_eval.known_answer.task import oversight
from debatebench_eval.tournament.schedule import pair_task_name

from support.annotation_logs import debate_log, plain_oversight
from support.oversight_questions import question_file
from support.scripted import Script
from support.tournaments import MODELS, run_tournament

ZERO = "2026-01-01T00-00-00-00-00_{task}_ZeroBytes0000000000000000.eval"
HALF = "2026-01-01T00-00-01-00-00_{task}_HalfWritten00000000000000.eval"


def garbage(folder: Path, task: str) -> list[str]:
    """A zero-byte log and a half-written one (a real log cut in two) of `task`."""
    real = max(folder.glob("*.eval"), key=lambda p: p.stat().st_size)
    zero, half = folder / ZERO.format(task=task), folder / HALF.format(task=task)
    zero.write_bytes(b"")
    half.write_bytes(real.read_bytes()[: real.stat().st_size // 2])
    return [zero.name, half.name]


def named_once(text: str, names: list[str]) -> None:
    for name in names:
        assert text.count(f"{name}: not readable") == 1, (name, text)
    assert "Traceback" not in text


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Rubric debates and known-answer debates between m1 and m2, with garbage beside."""
    root = tmp_path_factory.mktemp("unreadable")
    debate_log(root, "alpha", "beta")
    speech = plain_oversight()
    roles = {"pro": Script("m1", speech.reply).model(), "con": Script("m2", speech.reply).model(),
             "judge": speech.model()}  # fmt: skip
    task = oversight(questions=str(question_file(root / "data", 2)), probe=False, rounds=1,
                     paired=True)  # fmt: skip
    [log] = eval(task, model_roles=roles, log_dir=str(root / "logs"), display="none")
    assert log.status == "success"
    garbage(root / "logs", "oversight")
    return root / "logs"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize(
    ("command", "expect"),
    [
        (lambda folder, out: ["oversight", "compare", folder], "| debate |"),
        (lambda folder, out: ["oversight", "persuasion", folder, "-o", out], "mockllm/m1"),
        (lambda folder, out: ["annotate", folder, "--out", f"{out}.html"], "on the page"),
    ],
    ids=["oversight compare", "oversight persuasion", "annotate"],
)
def test_a_folder_command_passes_over_each_unreadable_log_naming_it(
    labelled: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: Callable[[str, str], list[str]],
    expect: str,
) -> None:
    code, printed = run(capsys, *command(str(labelled), str(tmp_path / "out")))
    assert code == 0, printed
    assert expect in printed
    named_once(printed, [ZERO.format(task="oversight"), HALF.format(task="oversight")])


def test_agreement_reads_its_labels_beside_unreadable_logs(
    labelled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = [i for i in load_items(labelled) if i.kind == "rubric"]
    shown: list[tuple[Any, str]] = [(item, "pro") for item in items]
    write_key(key_of(shown, 1), tmp_path / f"page{KEY_SUFFIX}")
    rows = [{"item": blind_id(item, "pro"), "annotator": "ada", "winner": "A",
             "labelled_at": "2026-12-05T09:00:00Z", "page": "p"} for item in items]  # fmt: skip
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(row) + "\n" for row in rows))
    code, printed = run(capsys, "agreement", str(labelled), str(labels), "--no-record")
    assert code in (0, 1), printed  # 1: a judge people disagree with fails the check
    assert "matched" in printed or "kappa" in printed
    named_once(printed, [ZERO.format(task="oversight"), HALF.format(task="oversight")])


def test_report_of_an_unreadable_log_is_one_message(
    labelled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in (ZERO, HALF):
        path = labelled / name.format(task="oversight")
        code, printed = run(capsys, "report", str(path), "-o", str(tmp_path / "r"))
        assert code == 2 and "Traceback" not in printed
        assert printed.startswith(f"debatebench-eval report: {path}: not a readable Inspect log")
        assert len(printed.strip().splitlines()) == 1


def test_a_tournament_resumes_and_rates_beside_its_own_unreadable_logs(
    played: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "tourney"
    shutil.copytree(played, folder)
    # Named as the pair's own logs, so its worker opens them (and the plan step reads them).
    names = garbage(folder, log_file_task(pair_task_name("ollama/m1", "ollama/m2")))
    behaviour = run_tournament(folder, MODELS)
    assert not behaviour.requests, "every debate was in the readable logs: nothing ran"
    printed = capfd.readouterr()  # the worker is a process of its own
    for name in names:
        assert f"{name}: not readable" in printed.out + printed.err
    code, rated = run(capfd, "tournament", "rate", str(folder), "--resamples", "100",
                      "--no-plots", "--out", str(tmp_path / "board"))  # fmt: skip
    assert code == 0, rated
    board = json.loads((tmp_path / "board" / "leaderboard.json").read_text())
    skipped = {Path(s["log"]).name for s in board["tournament"]["skipped_logs"]}
    assert set(names) <= skipped and board["counts"]["eligible_matchups"] == 6
