"""Worker processes on this machine: how many, and how each is started so that it runs
the package this process runs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
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


def connection_share(connections: int, index: int, workers: int) -> int:
    """Worker `index`'s part of a server's `connections` shared out among `workers`: the
    parts add up to the whole (8 among 3 is 3, 3, 2), and none is below one."""
    return max(1, connections // workers + (index < connections % workers))


def workers_for(asked: int, connections: int | None) -> tuple[int, str | None]:
    """No more workers than a server has connections to share (each needs one); the
    count, and why it is fewer than asked, if it is."""
    if connections and asked > connections:
        why = f"{asked} workers would each need one of --max-connections {connections}"
        return connections, why
    return asked, None


def run_workers(
    command: Sequence[str], workers: int, per_worker: Callable[[int], list[str]] | None = None
) -> list[int]:
    """`debatebench-eval COMMAND --index K --workers N` for every K at once, each with
    `per_worker(K)`'s options; their exit codes, in order."""
    return wait_for(start_workers(command, workers, per_worker))


def start_workers(
    command: Sequence[str], workers: int, per_worker: Callable[[int], list[str]] | None = None
) -> list[subprocess.Popen[bytes]]:
    env = package_path_env()
    share = ["--workers", str(workers)]
    processes = []
    for k in range(workers):
        options = per_worker(k) if per_worker else []
        argv = [*this_package(), *command, *options, "--index", str(k), *share]
        processes.append(subprocess.Popen(argv, env=env))
    return processes


def wait_for(processes: Sequence[subprocess.Popen[bytes]]) -> list[int]:
    """The workers' exit codes, once each has ended."""
    try:
        return [process.wait() for process in processes]
    except KeyboardInterrupt:  # the workers had it too (one process group): let them end
        for process in processes:
            process.wait()
        raise


def stop(processes: Sequence[subprocess.Popen[bytes]]) -> None:
    """End workers that have nothing to run (their plan step failed)."""
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait()
