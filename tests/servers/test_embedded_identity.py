"""The embedded judge has an identity: its GGUF file's sha256, handed by the server to
the `inspect eval` it serves, so a trust record made from a run on it matches the
judge the next time the server starts (on another port), as the gate and every
score's trust stamp read it. Needs the embedded model (llama.cpp's server and the
SmolLM2 weights); see tests/support/embedded_model.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.model import get_model

from debatebench_eval.cli.embedded import MODEL_ALIAS, embedded_server, gguf_path
from debatebench_eval.judging.gate import judge_trust
from debatebench_eval.servers.fingerprints import file_fingerprint

from support.commands import INSPECT, only_log
from support.runs import new_run

pytestmark = [pytest.mark.embedded_model, pytest.mark.real_server]
CLI = str(Path(sys.executable).parent / "debatebench-eval")
MODEL = f"ollama/{MODEL_ALIAS}"
# The two shortest speeches (19 and 100 words): a 135M model on two threads reads a
# median one (617 words) in about 20 s.
SHORTEST = "35d47331-3323-42a4-85f4-ecffdcda59f3,2b209964-6651-40f1-b97b-cd2558f8f5d3"


def test_a_trust_record_of_the_embedded_judge_matches_it_on_the_next_start(
    tmp_path: Path, private_trust_records: Path
) -> None:
    with embedded_server() as base_url:
        # Two speeches, a short reply: a record, not a validation.
        subprocess.run(
            [INSPECT, "eval", "debatebench/judge_validation", "--model", MODEL, "--sample-id",
             SHORTEST, "--max-tokens", "8", "--log-dir", str(tmp_path), "--display", "none"],
            env={**os.environ, "OLLAMA_BASE_URL": base_url}, check=True, timeout=600,
        )  # fmt: skip
    log = only_log(tmp_path)
    trust = subprocess.run(
        [CLI, "trust", log.location], capture_output=True, text=True, timeout=120
    )  # the record goes to the private trust folder, which the child inherits
    assert trust.returncode == 1, trust.stderr  # written, and not trusted on two speeches
    assert f"fingerprint: {file_fingerprint(gguf_path())}" in trust.stdout
    [written] = private_trust_records.glob("*.json")
    with embedded_server() as again:
        assert again != base_url
        judge = get_model(MODEL, base_url=again, memoize=False)
        stamp = new_run(judge_trust([judge], require=False))
    assert stamp["status"] == "untrusted" and stamp["record"] == written.name
