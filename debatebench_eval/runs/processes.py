"""Worker processes on this machine: how many, and how each is started so that it runs
the package this process runs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


def usable_cores() -> int:
    """The cores this process may run on (its affinity, which a batch scheduler or a
    container's cpuset narrows), else the machine's."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def this_package() -> list[str]:
    """`python -m debatebench_eval` without the current folder on the path (-P): from
    inside a checkout, `-m` would import the checkout's copy instead of the package
    this command runs."""
    return [sys.executable, "-P", "-m", "debatebench_eval"]


def package_path_env() -> dict[str, str] | None:
    """The environment that makes a worker import the package from where this process
    did: None (unchanged) when it is on the interpreter's path anyway (installed, or
    editable), else its folder first on PYTHONPATH (run as `python -m` from a checkout)."""
    import debatebench_eval

    root = Path(debatebench_eval.__file__).resolve().parents[1]
    on_path = {Path(entry).resolve() for entry in sys.path[1:] if entry}
    if root in on_path:
        return None
    paths = [str(root), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def run_workers(command: Sequence[str], workers: int) -> list[int]:
    """`debatebench-eval COMMAND --index K --workers N` for every K at once; their exit
    codes, in order."""
    env = package_path_env()
    share = ["--workers", str(workers)]
    processes = [
        subprocess.Popen([*this_package(), *command, "--index", str(k), *share], env=env)
        for k in range(workers)
    ]
    try:
        return [process.wait() for process in processes]
    except KeyboardInterrupt:  # the workers had it too (one process group): let them end
        for process in processes:
            process.wait()
        raise
