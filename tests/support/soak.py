"""A soak of tournament workers: N at once into one folder, M debates, K times over.

Each round plans a fresh lightning tournament (fact-check off, a panel of two
judges: 8 calls a debate) against the stub with a short latency, starts every
worker of the plan at once as `tournament worker --index K --workers N`, and
checks what a shared folder must give: every worker exits 0 (none died reading
another's log while it was being rewritten), every debate is in the logs once,
and the stub served each debate's calls exactly once (none ran twice).

Used by the slow suite (tests/cli/test_tournament_soak.py) in a size that runs
on two cores, and by `benchmark_tournament.py --soak` in the size that caught
the crash (8 workers x 600 debates x 5, for a machine with the cores).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from debatebench_eval.tournament.outcomes import read_tournament

from support.stub_server import StubBehaviour, StubServer
from support.tournaments import ranked_judge

BIN = Path(sys.executable).parent
CALLS_PER_DEBATE = 8  # 4 speeches, 2 judges x 2 orientations


@dataclass(frozen=True)
class Round:
    debates: int
    workers_exit: tuple[int, ...]
    failures: tuple[str, ...]  # each failed worker's last lines of stderr
    scored: int
    duplicates: int
    calls: int
    wall_s: float

    @property
    def clean(self) -> bool:
        once = self.calls == self.debates * CALLS_PER_DEBATE
        return not self.failures and self.scored == self.debates and not self.duplicates and once


def models_for(debates: int, workers: int, most_motions: int = 36) -> tuple[int, int]:
    """(models, motions) with models x (models - 1) x motions = debates and a pair (a task)
    for every worker at least, fewest models."""
    for models in range(2, 40):
        per_motion = models * (models - 1)
        enough = per_motion // 2 >= workers
        if enough and debates % per_motion == 0 and debates // per_motion <= most_motions:
            return models, debates // per_motion
    raise ValueError(f"no round robin of {debates} debates has {workers} pairs on at most "
                     f"{most_motions} motions")  # fmt: skip


def soak_round(workers: int, debates: int, latency_s: float, slots: int, stagger_s: float) -> Round:
    models, motions = models_for(debates, workers)
    names = ",".join(f"ollama/m{i}" for i in range(1, models + 1))
    behaviour = StubBehaviour(tag_speech=True, script=ranked_judge, latency_s=latency_s,
                              slots=slots)  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp, StubServer(behaviour) as stub:
        log_dir = Path(tmp) / "t"
        env = {**os.environ, "OLLAMA_BASE_URL": stub.base_url, "NO_COLOR": "1"}
        plan = [str(BIN / "debatebench-eval"), "tournament", "plan", "--models", names,
                "--judges", "ollama/j1,ollama/j2", "--format", "lightning", "--limit",
                str(motions), "-T", "fact_check=false", "--log-dir", str(log_dir)]  # fmt: skip
        subprocess.run(plan, env={**env, "XDG_DATA_HOME": tmp}, check=True, capture_output=True,
                       timeout=600)  # fmt: skip
        start = time.perf_counter()
        processes = []
        for k in range(workers):
            # Started one after another, as a scheduler's array tasks are: each later
            # worker starts while the earlier ones are rewriting their logs.
            time.sleep(stagger_s if k else 0.0)
            processes.append(_worker(log_dir, k, workers, slots, env, Path(tmp)))
        outcomes = [process.communicate(timeout=3600) for process in processes]
        wall = time.perf_counter() - start
        codes = tuple(process.returncode for process in processes)
        failures = tuple(
            f"worker {k} exited {code}: {err[-1500:]}"
            for k, (code, (_, err)) in enumerate(zip(codes, outcomes, strict=True))
            if code != 0
        )
        logs = read_tournament([str(log_dir)])
        scored = sum(result.status == "scored" for result in logs.results)
        return Round(debates, codes, failures, scored, len(logs.duplicates),
                     len(behaviour.requests), wall)  # fmt: skip


def _worker(
    log_dir: Path, index: int, workers: int, slots: int, env: dict[str, str], tmp: Path
) -> subprocess.Popen[str]:
    data = tmp / f"x{index}"  # each its own Inspect data folder, as on its own machine
    data.mkdir()
    command = [str(BIN / "debatebench-eval"), "tournament", "worker", str(log_dir), "--index",
               str(index), "--workers", str(workers), "--max-connections",
               str(max(1, slots // workers)), "--display", "none"]  # fmt: skip
    return subprocess.Popen(command, env={**env, "XDG_DATA_HOME": str(data)}, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip


def soak(
    workers: int, debates: int, rounds: int, latency_s: float, slots: int, stagger_s: float = 1.0
) -> list[Round]:
    return [soak_round(workers, debates, latency_s, slots, stagger_s) for _ in range(rounds)]
