"""A configuration error reaches stderr, once, in every display mode (Inspect's own
rendering goes to stdout and is silenced by --display none), as plain text: Inspect's
markup rendered, and a missing key for a local server explained; and no hook on the
process does it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from debatebench_eval.core._inspect import PrerequisiteError, SilentException
from debatebench_eval.core.credentials import is_local_url, local_key_hint
from debatebench_eval.core.errors import ConfigError, error_text, plain_text, printed_once

from support.stub_server import StubServer

INSPECT = str(Path(sys.executable).parent / "inspect")
MESSAGE = "-T bogus: unknown argument(s) bogus for task debate"


@pytest.mark.parametrize("display", ["none", "plain", "rich", "full", "conversation", "log"])
def test_a_bad_task_argument_is_printed_on_stderr(display: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [INSPECT, "eval", "debatebench/debate", "-T", "bogus=1", "--model", "mockllm/model",
         "--display", display, "--log-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.count(MESSAGE) == 1, result.stderr
    assert MESSAGE not in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


BIN = Path(sys.executable).parent
QWEN = "openai-api/qwen/qwen"


def _without_qwen_key(base_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("QWEN_API_KEY", "QWEN_BASE_URL")}
    return {**env, "QWEN_BASE_URL": base_url, "NO_COLOR": "1"}


def _assert_plain_with_hint(stderr: str, base_url: str) -> None:
    assert "No QWEN_API_KEY defined in the environment." in stderr, stderr
    assert "[bold]" not in stderr and "[/blue]" not in stderr, stderr
    assert f"QWEN_BASE_URL is {base_url}, a local server, which takes any non-empty key" in stderr
    assert "set QWEN_API_KEY to any value" in stderr


def test_a_tournament_on_a_local_server_without_a_key_says_plainly_what_to_set(
    tmp_path: Path,
) -> None:
    with StubServer() as stub:
        result = subprocess.run(
            [str(BIN / "debatebench-eval"), "tournament", "run", "--models",
             f"{QWEN},ollama/stub", "--judges", "ollama/judge", "--log-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=300, env=_without_qwen_key(stub.base_url),
        )  # fmt: skip
        sent = len(stub.behaviour.requests)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith("debatebench-eval tournament run: ERROR: Unable to initialise")
    _assert_plain_with_hint(result.stderr, stub.base_url)
    assert sent == 0


def test_inspect_eval_leaves_its_own_missing_key_error_to_inspect(tmp_path: Path) -> None:
    # Raised before any task is made, it is Inspect's to print: once, without a
    # traceback (under --display none Inspect silences it; debatebench-eval's own
    # commands add the local-server hint, above).
    with StubServer() as stub:
        result = subprocess.run(
            [INSPECT, "eval", "debatebench/debate", "--model", QWEN, "--display", "plain",
             "--log-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=120, env=_without_qwen_key(stub.base_url),
        )  # fmt: skip
        sent = len(stub.behaviour.requests)
    assert result.returncode == 1
    assert (result.stdout + result.stderr).count("No QWEN_API_KEY defined in the environment") == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert sent == 0


def test_importing_the_registry_leaves_the_process_alone() -> None:
    code = (
        "import sys; hook = sys.excepthook; import debatebench_eval._registry; "
        "assert sys.excepthook is hook, sys.excepthook"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_an_error_printed_once_ends_inspects_command_in_silence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    error = ConfigError("-T budget", "got 'x'", "an integer")
    silent = printed_once(error)
    assert isinstance(silent, SilentException) and silent.__cause__ is error
    assert capsys.readouterr().err == "\n-T budget: got 'x'; expected an integer.\n\n"


def test_a_missing_key_for_a_remote_server_gets_no_local_hint(tmp_path: Path) -> None:
    result = subprocess.run(
        [str(BIN / "debatebench-eval"), "tournament", "run", "--models",
         f"{QWEN},ollama/stub", "--judges", "ollama/judge", "--log-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
        env=_without_qwen_key("https://api.example.com/v1"),
    )  # fmt: skip
    assert result.returncode == 2
    assert "No QWEN_API_KEY defined in the environment." in result.stderr
    assert "[bold]" not in result.stderr
    assert "non-empty key" not in result.stderr


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("No [bold][blue]QWEN_API_KEY[/blue][/bold] defined", "No QWEN_API_KEY defined"),
        ("[bold]ERROR[/bold]: x", "ERROR: x"),
        ("closed by [/] only", "closed by  only"),
        ("cites [P1] and [withheld] text", "cites [P1] and [withheld] text"),  # not styles
        (r"an escaped \[bold] bracket", "an escaped [bold] bracket"),
        ("[link https://example.com]a link[/link]", "a link"),
    ],
)
def test_markup_is_stripped_and_other_brackets_kept(text: str, plain: str) -> None:
    assert plain_text(text) == plain


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://127.0.0.1:8080/v1", True),
        ("http://localhost:11434", True),
        ("http://[::1]:8000/v1", True),
        ("http://192.168.1.20:8080/v1", True),
        ("http://gpu-box.local:8080/v1", True),
        ("https://api.example.com/v1", False),
        ("https://8.8.8.8/v1", False),
        ("not a url", False),
    ],
)
def test_local_urls_are_told_apart_from_remote_ones(url: str, local: bool) -> None:
    assert is_local_url(url) is local


def test_the_hint_names_each_missing_key_whose_server_is_local() -> None:
    message = "No OPENAI_API_KEY or AZURE_OPENAI_API_KEY defined in the environment."
    env = {"AZURE_OPENAI_BASE_URL": "http://u:pw@127.0.0.1:9/v1"}
    hint = local_key_hint(message, env)
    assert hint is not None and "set AZURE_OPENAI_API_KEY to any value" in hint
    assert "pw" not in hint  # the URL is shown without its credentials
    via_flag = local_key_hint(message, {"INSPECT_EVAL_MODEL_BASE_URL": "http://localhost:1"})
    assert via_flag is not None and "set OPENAI_API_KEY" in via_flag
    assert local_key_hint(message, {"OPENAI_BASE_URL": "https://api.openai.com/v1"}) is None
    assert local_key_hint("some other error", env) is None


def test_an_inspect_error_that_is_not_text_is_rendered_plain() -> None:
    from rich.text import Text

    error = PrerequisiteError(Text.from_markup("[bold]needs[/bold] a thing"))
    assert error_text(error).strip() == "needs a thing"
