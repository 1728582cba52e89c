"""The embedded server's death is named, not left as a refused connection: a stand-in
process (Python's own HTTP server, answering /v1/models as llama.cpp's does) dies by a
signal or an exit code, and the error says which, with the last lines it wrote and
the file that holds them; a server that ran cleanly leaves no file behind. While it
runs, the runs it serves (here or in a child process) are told its model file's
sha256 as its judge's fingerprint, and its output file."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from debatebench_eval.cli import embedded
from debatebench_eval.core.errors import ServerError
from debatebench_eval.servers import started
from debatebench_eval.servers.fingerprints import FINGERPRINT_VAR, given_fingerprint

# Answers /v1/models; on /v1/die it prints a line and ends by SIGNAL (or exits with
# CODE when SIGNAL is 0); it exits with CODE before listening when EARLY is set.
STAND_IN = textwrap.dedent(
    """
    import http.server, os, signal, sys
    port, sig, code, early = (int(a) for a in sys.argv[1:5])
    print("stand-in server: loading model", flush=True)
    if early:
        print("error: failed to load model", flush=True)
        sys.exit(code)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/v1/die":
                print("ggml: the last line before dying", flush=True)
                if sig == signal.SIGINT:  # inherited ignored from a pytest-xdist worker
                    signal.signal(sig, signal.SIG_DFL)
                if sig:
                    os.kill(os.getpid(), sig)
                os._exit(code)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{"data": []}')

        def log_message(self, *args):
            pass

    http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
    """
)


@pytest.fixture
def model_file(tmp_path: Path) -> Path:
    """A stand-in for the GGUF file (README's test command installs no weights)."""
    path = tmp_path / "stand-in.gguf"
    path.write_bytes(b"GGUF stand-in weights")
    return path


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch, model_file: Path) -> Callable[..., None]:
    """Serve the stand-in instead of llama.cpp, ending as told."""
    monkeypatch.setattr(embedded, "_require_server", lambda: None)
    monkeypatch.setattr(embedded, "gguf_path", lambda: model_file)

    def use(sig: int = 0, code: int = 0, early: bool = False) -> None:
        def arguments(port: int, *_: object) -> list[str]:
            return ["-c", STAND_IN, str(port), str(int(sig)), str(code), str(int(early))]

        monkeypatch.setattr(embedded, "server_arguments", arguments)

    return use


def kill_server(base_url: str) -> None:
    with pytest.raises(httpx.HTTPError):  # as every model call then sees it
        httpx.get(f"{base_url}/die", timeout=10)
    # The connection drops a moment before the process is reapable; a real run's last
    # call comes long after.
    time.sleep(1)


def output_file(message: str) -> Path:
    return Path(message.split("its output (", 1)[1].split(")", 1)[0])


def test_a_server_killed_by_sigill_during_a_run_is_named_with_the_fix(
    stand_in: Callable[..., None],
) -> None:
    stand_in(sig=signal.SIGILL)
    with pytest.raises(ServerError) as caught, embedded.embedded_server() as base_url:
        kill_server(base_url)
    message = str(caught.value)
    assert "was killed by SIGILL" in message and "during the run" in message
    assert (
        'CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF" pip install --force-reinstall '
        "--no-cache-dir llama-cpp-python" in message
    )
    assert "  | ggml: the last line before dying" in message
    assert output_file(message).is_file()  # kept: the error names it
    output_file(message).unlink()


def test_a_death_while_the_block_raises_is_named_and_chained(
    stand_in: Callable[..., None],
) -> None:
    stand_in(sig=signal.SIGKILL)
    with pytest.raises(ServerError) as caught, embedded.embedded_server() as base_url:
        kill_server(base_url)
        raise ConnectionError("what the run saw")
    assert "was killed by SIGKILL" in str(caught.value)
    assert "NATIVE" not in str(caught.value)  # the rebuild hint is for SIGILL only
    assert isinstance(caught.value.__cause__, ConnectionError)
    output_file(str(caught.value)).unlink()


def test_a_server_that_exits_before_answering_says_what_it_wrote(
    stand_in: Callable[..., None],
) -> None:
    stand_in(code=3, early=True)
    with pytest.raises(ServerError) as caught, embedded.embedded_server():
        pytest.fail("the block must not run")
    message = str(caught.value)
    assert "exited with code 3 before answering" in message
    assert "  | error: failed to load model" in message
    output_file(message).unlink()


def test_a_clean_run_leaves_no_output_file(
    stand_in: Callable[..., None], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)  # read TMPDIR again
    stand_in()
    with embedded.embedded_server() as base_url:
        assert httpx.get(f"{base_url}/models", timeout=10).status_code == 200
        assert len(list(tmp_path.glob("llama-server-*.log"))) == 1
    assert not list(tmp_path.glob("llama-server-*.log"))


def test_an_error_of_the_block_with_the_server_alive_passes_through(
    stand_in: Callable[..., None],
) -> None:
    stand_in()
    with pytest.raises(KeyError), embedded.embedded_server():
        raise KeyError("the caller's own error")


def test_a_ctrl_c_that_reached_the_server_too_is_not_called_its_death(
    stand_in: Callable[..., None],
) -> None:
    stand_in(sig=signal.SIGINT)
    with embedded.embedded_server() as base_url:  # the run's own interrupt says enough
        kill_server(base_url)


def test_another_servers_error_in_the_block_keeps_no_output_file(
    stand_in: Callable[..., None], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    stand_in()
    with pytest.raises(ServerError, match="the judge's server"), embedded.embedded_server():
        raise ServerError("the judge's server did not answer")
    assert not list(tmp_path.glob("llama-server-*.log"))


def test_the_runs_it_serves_are_told_its_model_files_sha256_and_its_output(
    stand_in: Callable[..., None], model_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(FINGERPRINT_VAR, "http://127.0.0.1:1/v1=sha256:" + "a" * 64)
    stand_in()
    sha256 = "sha256:" + hashlib.sha256(model_file.read_bytes()).hexdigest()
    with embedded.embedded_server() as base_url:
        assert given_fingerprint(base_url) == sha256
        output = started.output_file(base_url)
        assert output is not None and output.name.startswith("llama-server-")
        # A child `inspect eval` inherits both.
        child = subprocess.run(
            [sys.executable, "-c", "from debatebench_eval.servers.fingerprints import "
             f"given_fingerprint as g; print(g({base_url!r}))"],
            capture_output=True, text=True, check=True, timeout=60,
        )  # fmt: skip
        assert child.stdout.strip() == sha256
    # The user's own entries stay; the server's go with it.
    assert os.environ[FINGERPRINT_VAR] == "http://127.0.0.1:1/v1=sha256:" + "a" * 64
    assert started.OUTPUT_VAR not in os.environ and given_fingerprint(base_url) is None


def test_a_hand_started_server_is_given_the_same_fingerprint(
    stand_in: Callable[..., None], model_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stand_in()
    url = "http://127.0.0.1:8080/v1"
    setting = embedded.fingerprint_setting(url)  # what the quickstart prints for a rerun
    name, _, value = setting.partition("=")
    monkeypatch.setenv(name, value)
    with embedded.embedded_server() as base_url:
        served = started.output_file(base_url) and given_fingerprint(base_url)
    assert name == FINGERPRINT_VAR and given_fingerprint(url) == served
