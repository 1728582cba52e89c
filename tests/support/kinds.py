"""The slow kinds of test, and the folders and files that hold them.

`pytest -m "not slow"` is a contributor's fast loop: the rule and unit tests,
which run in-process on scripted models. Every kind below is also `slow`, and
CI runs everything. Marking by place, not by decorator, keeps a new test in a
slow file slow without anyone remembering to mark it; a test elsewhere can
still take a kind by decorator (`@pytest.mark.command`), which also makes it slow.
"""

from __future__ import annotations

from collections.abc import Iterable

SLOW = "slow"
# Each kind and why it is slow; pyproject.toml registers the same names.
KINDS = {
    "real_server": "runs llama.cpp's server on the embedded model (minutes)",
    "command": "runs a whole command (`inspect eval`, `debatebench-eval`) in a subprocess",
    "benchmark": "a benchmark script's own test",
    "simulation": "repeats a whole statistical procedure many times (coverage, power)",
    "whole_set": "runs a judge check over a whole shipped data set",
    "stub_runs": "runs whole debates or tournaments against the loopback stub server",
    "slurm": "starts a single-node Slurm cluster and submits jobs to it",
    "browser": "drives a page in headless Chromium over the DevTools protocol",
}
# Places, relative to tests/ with `/` separators: a folder ends in `/`, and a
# file's kinds add to its folder's.
PLACES: dict[str, frozenset[str]] = {
    "cli/": frozenset({"command"}),
    "cli/test_real_server.py": frozenset({"real_server"}),
    "benchmarks/": frozenset({"benchmark"}),
    "deploy/test_slurm_array.py": frozenset({"slurm"}),
    "annotation/test_page_browser.py": frozenset({"browser"}),
    "tournament/test_leaderboard_page_browser.py": frozenset({"browser"}),
    # The files that took most of the rest of the suite's time (pytest --durations).
    "tournament/test_simulation.py": frozenset({"simulation"}),
    "stats/test_adaptive_simulation.py": frozenset({"simulation"}),
    "annotation/test_ppi_checks.py": frozenset({"simulation"}),
    "stats/test_judge_panel_simulation.py": frozenset({"simulation"}),
    "validation/test_judge_sensitivity.py": frozenset({"whole_set"}),
    "validation/test_fact_check_validation.py": frozenset({"whole_set"}),
    "servers/test_context_window.py": frozenset({"stub_runs"}),
    "tournament/test_outcomes.py": frozenset({"stub_runs"}),
    "tournament/test_leaderboard.py": frozenset({"stub_runs"}),
    "tournament/test_manifest.py": frozenset({"stub_runs"}),
    "runs/test_task_logs.py": frozenset({"stub_runs"}),
    "tournament/test_spend_logs.py": frozenset({"stub_runs"}),
}


def kinds_of(place: str) -> frozenset[str]:
    """The kinds of every test in the file at `place` (relative to tests/)."""
    found: set[str] = set()
    for prefix, kinds in PLACES.items():
        if place == prefix or (prefix.endswith("/") and place.startswith(prefix)):
            found |= kinds
    return frozenset(found)


def is_slow(markers: Iterable[str]) -> bool:
    """Whether a test with these markers belongs outside the fast loop."""
    return any(name in KINDS for name in markers)
