"""A single-node Slurm cluster for tests, from Debian's `slurm-wlm` and `munge`.

One node (this host) in one partition, no cgroups (process tracking by
/proc, no task plugin), no accounting database, every state and log file in
one scratch folder and free loopback ports, and munge with a key made for it:
nothing outside the folder is read or written. The daemons run as root (slurmd
starts jobs as their submitter), so the tests that need it skip elsewhere.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

COMMANDS = ("munged", "slurmctld", "slurmd", "sbatch", "sinfo", "scontrol")
INSTALL = "apt-get install -y slurm-wlm munge"
# Set to 1 (as .ci/run does) to fail instead of skipping when Slurm cannot run here.
REQUIRED_VAR = "DEBATEBENCH_SLURM"
_READY_S = 60.0


def require() -> None:
    """Skip (or, under DEBATEBENCH_SLURM=1, fail) saying why Slurm cannot run here."""
    missing = [name for name in COMMANDS if shutil.which(name) is None]
    why = (
        f"needs a local Slurm: {', '.join(missing)} not found; run: {INSTALL}"
        if missing
        else "needs root: slurmd starts each job as its submitter"
        if os.geteuid() != 0
        else None
    )
    if why is None:
        return
    if os.environ.get(REQUIRED_VAR) == "1":
        pytest.fail(f"{REQUIRED_VAR}=1 but {why}", pytrace=False)
    pytest.skip(why)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LocalSlurm:
    """Start with `start()`, submit with `env` set, end with `stop()`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.node = socket.gethostname().split(".")[0]
        self.conf = folder / "slurm.conf"
        self.socket = folder / "munge" / "munge.socket"
        self.env = {**os.environ, "SLURM_CONF": str(self.conf)}

    def start(self) -> None:
        for name in ("state", "spool", "munge"):
            (self.folder / name).mkdir(mode=0o700)
        self._start_munge()
        self.conf.write_text(self._config(), encoding="utf-8")
        for daemon in ("slurmctld", "slurmd"):
            self._run([daemon, "-f", str(self.conf)])
        self._wait_idle()

    def stop(self) -> None:
        """Ask the daemons to stop, then end any that did not (by their pid files)."""
        subprocess.run(["scontrol", "shutdown"], env=self.env, capture_output=True, timeout=30)
        subprocess.run(["munged", "--stop", f"--socket={self.socket}"], capture_output=True,
                       timeout=30)  # fmt: skip
        for pid_file in ("slurmctld.pid", "slurmd.pid", "munge/munged.pid"):
            self._end(self.folder / pid_file)

    def _start_munge(self) -> None:
        key = self.folder / "munge" / "munge.key"
        key.write_bytes(secrets.token_bytes(1024))
        key.chmod(0o400)
        munge = self.folder / "munge"
        self._run(["munged", "--force", f"--key-file={key}", f"--socket={self.socket}",
                   f"--pid-file={munge / 'munged.pid'}", f"--log-file={munge / 'munged.log'}",
                   f"--seed-file={munge / 'munged.seed'}"])  # fmt: skip

    def _config(self) -> str:
        d = self.folder
        return "\n".join([
            "ClusterName=debatebench-test", f"SlurmctldHost={self.node}",
            "SlurmUser=root", "SlurmdUser=root",
            "AuthType=auth/munge", f"AuthInfo=socket={self.socket}", "CryptoType=crypto/munge",
            # No cgroups: a container without systemd has no delegated hierarchy.
            "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "SelectType=select/cons_tres", "SelectTypeParameters=CR_CPU", "MpiDefault=none",
            f"StateSaveLocation={d / 'state'}", f"SlurmdSpoolDir={d / 'spool'}",
            f"SlurmctldPidFile={d / 'slurmctld.pid'}", f"SlurmdPidFile={d / 'slurmd.pid'}",
            f"SlurmctldLogFile={d / 'slurmctld.log'}", f"SlurmdLogFile={d / 'slurmd.log'}",
            f"SlurmctldPort={_free_port()}", f"SlurmdPort={_free_port()}",
            "ReturnToService=2",
            f"NodeName={self.node} NodeAddr=127.0.0.1 CPUs={os.cpu_count() or 1} State=UNKNOWN",
            f"PartitionName=test Nodes={self.node} Default=YES MaxTime=INFINITE State=UP",
        ]) + "\n"  # fmt: skip

    def _run(self, command: list[str]) -> None:
        done = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} did not start: {done.stderr.strip()}{self._logs()}")

    def _wait_idle(self) -> None:
        deadline = time.monotonic() + _READY_S
        state = ""
        while time.monotonic() < deadline:
            shown = subprocess.run(["sinfo", "-h", "-N", "-o", "%T"], env=self.env,
                                   capture_output=True, text=True, timeout=30)  # fmt: skip
            state = shown.stdout.strip()
            if state == "idle":
                return
            time.sleep(0.5)
        raise RuntimeError(f"the node is {state or 'not listed'}, not idle{self._logs()}")

    def _logs(self) -> str:
        tails = []
        for name in ("slurmctld.log", "slurmd.log", "munge/munged.log"):
            path = self.folder / name
            if path.exists():
                tails.append(f"\n--- {name}\n" + "\n".join(path.read_text().splitlines()[-10:]))
        return "".join(tails)

    @staticmethod
    def _end(pid_file: Path) -> None:
        """Wait for the daemon of this pid file to end; then ask it, then make it."""
        if not pid_file.exists():
            return
        pid = int(pid_file.read_text().split()[0])
        # The daemon's name is checked at each look: once it has ended, its pid can be
        # reused (pid_max may be 32768) by a process of a test running alongside.
        name = pid_file.name.removesuffix(".pid")
        for sent in (None, signal.SIGTERM, signal.SIGKILL):
            if sent is not None and _alive(pid, name):
                os.kill(pid, sent)
            deadline = time.monotonic() + 5.0
            while _alive(pid, name) and time.monotonic() < deadline:
                time.sleep(0.1)
            if not _alive(pid, name):
                return


def _alive(pid: int, name: str) -> bool:
    """The named program, running, and not a zombie that nobody reaps (a container's
    init may not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    program, _, rest = stat.partition(" (")[2].rpartition(")")
    return program == name and rest.split()[0] != "Z"
