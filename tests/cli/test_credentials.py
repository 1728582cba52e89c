"""Credentials in a run.yaml `base_url` never leave it: not into the Inspect
log, an export, a failed sample's error or a configuration error."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs

from debatebench_eval.core.credentials import without_userinfo

from support.stub_server import StubServer, closed_url

SECRET = "hunter2-pass"
USER = "alice-user"
BIN = Path(sys.executable).parent
TEAM = "id: {id}\nname: {id}\nvoice: calm\nstance: neutral\nvalues: [a, b]\n"


def run_yaml(folder: Path, url: str, model: str = "stub") -> Path:
    """A debatebench run.yaml whose sides and judge reach `url` with credentials."""
    scheme, rest = url.split("://", 1)
    secret_url = f"{scheme}://{USER}:{SECRET}@{rest}"
    for name in ("a", "b"):
        (folder / f"{name}.yaml").write_text(TEAM.format(id=name), encoding="utf-8")
    sides = "".join(
        f"  - team: {name}.yaml\n    side: {side}\n    model: {model}\n"
        f"    base_url: {secret_url}\n    budget: 40\n"
        for name, side in (("a", "pro"), ("b", "con"))
    )
    text = (
        'topic: "Cities should ban cars from their centres."\n'
        "format:\n  phases: [opening:short, conclusion:short]\n"
        f"teams:\n{sides}seed: 3\n"
        f"judge:\n  model: {model}\n  base_url: {secret_url}\n  budget: 200\n"
    )
    path = folder / "run.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def command(args: list[str], log_dir: Path) -> str:
    env = {**os.environ, "INSPECT_LOG_DIR": str(log_dir), "NO_COLOR": "1", "COLUMNS": "200"}
    result = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    return result.stdout + result.stderr


def every_byte_of(folder: Path) -> str:
    """All text under a folder, with each Inspect log's zip members unpacked."""
    chunks: list[str] = []
    for path in folder.rglob("*"):
        if path.suffix == ".eval":
            with zipfile.ZipFile(path) as archive:
                chunks += [archive.read(n).decode("utf-8", "replace") for n in archive.namelist()]
        elif path.is_file():
            chunks.append(path.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(chunks)


def assert_clean(text: str) -> None:
    assert SECRET not in text and USER not in text


def test_credentials_stay_out_of_the_log_the_export_and_the_output(tmp_path: Path) -> None:
    with StubServer() as stub:
        output = command(
            [str(BIN / "inspect"), "eval", "debatebench/debate", "--display", "plain",
             "-T", f"config={run_yaml(tmp_path, stub.base_url)}"],
            tmp_path / "logs",
        )  # fmt: skip
        sent = len(stub.behaviour.requests)
    assert sent >= 4, output  # the debate ran, on the URL with its credentials removed
    log = list_eval_logs(str(tmp_path / "logs"))[0].name
    output += command(
        [str(BIN / "debatebench-eval"), "export", log, "-o", str(tmp_path / "out")], tmp_path
    )
    exported = every_byte_of(tmp_path / "out")
    assert "Cities should ban cars" in exported, output
    assert_clean(output)
    assert_clean(every_byte_of(tmp_path / "logs"))
    assert_clean(exported)


def test_credentials_stay_out_of_a_failed_sample_and_a_config_error(tmp_path: Path) -> None:
    dead = closed_url()
    output = command(
        [str(BIN / "inspect"), "eval", "debatebench/debate", "--display", "plain",
         "-T", f"config={run_yaml(tmp_path, dead)}"],
        tmp_path / "logs",
    )  # fmt: skip
    logged = every_byte_of(tmp_path / "logs")
    assert dead.removeprefix("http://") in logged and "did not answer" in logged  # it is there
    assert_clean(output + logged)
    broken = run_yaml(tmp_path, "ftp://127.0.0.1:9/v1")
    output = command(
        [str(BIN / "inspect"), "eval", "debatebench/debate", "-T", f"config={broken}"],
        tmp_path / "bad",
    )
    assert "base_url: got 'ftp://127.0.0.1:9/v1'" in output
    assert_clean(output)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("got 'http://u:p@127.0.0.1:80/v1'", "got 'http://127.0.0.1:80/v1'"),
        ("ftp://alice:se@cret@host/v1", "ftp://host/v1"),  # an unencoded @ in the password
        ("http://a:b@h/x and https://c@h/y", "http://h/x and https://h/y"),
        ("http://example.com?to=a@b.org", "http://example.com?to=a@b.org"),  # a query, kept
        ("write to a@b.org", "write to a@b.org"),
        ("file:///data/x@y.jsonl", "file:///data/x@y.jsonl"),
    ],
)
def test_userinfo_is_cut_from_every_url_and_nothing_else(text: str, shown: str) -> None:
    assert without_userinfo(text) == shown
