"""Mutation testing of the rule modules: mutmut's score per module, and its survivors.

For each target in targets.py (a rule module, or a module's rule functions),
copies the checkout to a scratch folder, points mutmut at that one module and
at the tests that exercise it, runs `mutmut run` there at low priority, and
prints how many mutants the tests killed. The score is mutmut's own: (killed +
timed out) / (mutants - skipped). A survivor is a one-line change of the
module that no selected test notices; each one is either killed by a new test
or listed, with the reason it changes no behaviour, in
results/mutation/survivors.md. The script exits 1 when a module scores under
--target or has a survivor that file does not list.

    python tests/mutation/mutation_score.py [NAME ...] [--max-children N] [--show-survivors]
    python tests/mutation/mutation_score.py --tests-at REF   # the same modules, REF's tests

NAME is a target's name or a word of it (`verdict`, `trust`); none means every
target. `--tests-at` takes tests/ from a git revision (the package stays as it
is in the working tree), to compare the suite before and after a change. Needs
the dev extra (mutmut). Not run in CI: every target takes minutes (README,
"Mutation testing", gives the times).
"""

from __future__ import annotations

import argparse
import fnmatch
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from targets import TARGETS, Target

ROOT = Path(__file__).resolve().parents[2]
SURVIVORS_FILE = ROOT / "results" / "mutation" / "survivors.md"
DEFAULT_TARGET = 90.0
_MUTANT_NAME = re.compile(r"debatebench_eval\.[\w.ǁ]+__mutmut_\d+")


@dataclass
class Outcome:
    """One target's mutants by mutmut's status, and its survivors' names."""

    target: Target
    seconds: float
    counts: dict[str, int] = field(default_factory=dict)
    survivors: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def killed(self) -> int:
        return self.counts.get("killed", 0) + self.counts.get("timeout", 0)

    @property
    def score(self) -> float:
        tested = self.total - self.counts.get("skipped", 0)
        return 100.0 * self.killed / tested if tested else float("nan")


def scratch_copy(into: Path, tests_at: str | None) -> None:
    """The checkout's files (tracked and new, not ignored); tests/ from `tests_at` if given."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "-co", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if not source.is_file() or (tests_at and name.startswith("tests/")):
            continue
        (into / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, into / name)
    if tests_at:
        archive = subprocess.run(
            ["git", "archive", "--format=tar", tests_at, "tests"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(into, filter="data")


def test_selection(tests: tuple[str, ...], folder: Path) -> list[str]:
    """The target's pytest arguments, less any test file the revision under test lacks
    (left out rather than failing pytest), with a flag such as --deselect kept with its
    value, or dropped with it."""
    selection: list[str] = []
    for arg in tests:
        if arg.startswith("-") or (folder / arg.split("::", 1)[0]).exists():
            selection.append(arg)
        elif selection and selection[-1].startswith("-"):
            selection.pop()
    return selection


def mutmut_settings(target: Target, folder: Path) -> str:
    """The [tool.mutmut] table for one target (mutmut reads it from pyproject.toml)."""
    selection = test_selection(target.tests, folder)
    copied = sorted(
        p.name for p in folder.iterdir() if p.name not in {"debatebench_eval", "mutants"}
    )
    settings = {
        "source_paths": ["debatebench_eval"],
        "only_mutate": [target.path],
        "also_copy": copied,
        "pytest_add_cli_args_test_selection": selection,
        "pytest_add_cli_args": ["-p", "no:cacheprovider", "-p", ORDER_PLUGIN],
    }
    lines = [f"{key} = {json.dumps(value)}" for key, value in settings.items()]
    return "\n[tool.mutmut]\n" + "\n".join(lines) + "\n"


ORDER_PLUGIN = "mutation_test_order"
_ORDER_SOURCE = """\"\"\"Runs a mutant's tests in the order its target lists them (written by
tests/mutation/mutation_score.py): mutmut stops at the first failure, so the
quick tests that state the rule go first and the slow ones run only for a
mutant they alone can kill.\"\"\"

ORDER = {order!r}


def pytest_collection_modifyitems(items):
    def rank(item):
        path = item.nodeid.split("::", 1)[0]
        return next((i for i, p in enumerate(ORDER) if item.nodeid.startswith(p) or path == p),
                    len(ORDER))

    items.sort(key=rank)
"""


def write_order_plugin(target: Target, folder: Path) -> None:
    """mutmut puts the scratch folder's mutants/ first on sys.path; the plugin goes there."""
    order = [arg for arg in target.tests if not arg.startswith("-")]
    (folder / f"{ORDER_PLUGIN}.py").write_text(_ORDER_SOURCE.format(order=order), "utf-8")


def mutmut_command() -> list[str]:
    # The console script, not `python -m mutmut` (which mutmut warns against).
    script = Path(sys.executable).with_name("mutmut")
    return [str(script) if script.exists() else (shutil.which("mutmut") or "mutmut")]


def run_target(target: Target, args: argparse.Namespace, folder: Path) -> Outcome:
    scratch_copy(folder, args.tests_at)
    pyproject = folder / "pyproject.toml"
    text = pyproject.read_text("utf-8")
    if "mutmut" in tomllib.loads(text).get("tool", {}):
        raise SystemExit("pyproject.toml has its own [tool.mutmut]; this script writes that table")
    write_order_plugin(target, folder)
    pyproject.write_text(text + mutmut_settings(target, folder), "utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # only the mutants import
    command = [
        "nice",
        "-n",
        str(args.nice),
        *mutmut_command(),
        "run",
        "--max-children",
        str(args.max_children),
        *target.patterns(),
    ]
    started = time.monotonic()
    with open(folder / "mutmut.log", "w") as log:
        # Its own session, so stopping this script stops mutmut's workers too.
        mutmut = subprocess.Popen(
            command, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        try:
            code = mutmut.wait()
        except BaseException:
            os.killpg(mutmut.pid, signal.SIGKILL)
            raise
    seconds = time.monotonic() - started
    if code != 0:
        tail = (folder / "mutmut.log").read_text(errors="replace")[-3000:]
        raise SystemExit(f"mutmut failed on {target.name} (exit {code}):\n{tail}")
    return outcome(target, folder, seconds)


def outcome(target: Target, folder: Path, seconds: float) -> Outcome:
    from mutmut.stats import status_by_exit_code

    meta = json.loads((folder / "mutants" / (target.path + ".meta")).read_text("utf-8"))
    patterns = target.patterns()
    result = Outcome(target, seconds)
    for name, code in sorted(meta["exit_code_by_key"].items(), key=lambda item: _order(item[0])):
        if patterns and not any(fnmatch.fnmatchcase(name, p) for p in patterns):
            continue
        status = status_by_exit_code[code]
        result.counts[status] = result.counts.get(status, 0) + 1
        if status not in {"killed", "timeout", "skipped"}:
            result.survivors.append(name)
    return result


def _order(name: str) -> tuple[str, int]:
    stem, _, number = name.rpartition("__mutmut_")
    return stem, int(number)


def diff(name: str, folder: Path) -> str:
    shown = subprocess.run(
        [*mutmut_command(), "show", name], cwd=folder, capture_output=True, text=True, check=False
    )
    return shown.stdout.strip()


def explained() -> set[str]:
    """The survivors results/mutation/survivors.md lists as equivalent."""
    if not SURVIVORS_FILE.is_file():
        return set()
    return set(_MUTANT_NAME.findall(SURVIVORS_FILE.read_text("utf-8")))


def row(result: Outcome, unexplained: int) -> str:
    c = result.counts
    minutes, seconds = divmod(round(result.seconds), 60)
    return (
        f"{result.target.name:<38} {result.total:>7} {result.killed:>7} "
        f"{c.get('survived', 0):>8} {c.get('no tests', 0):>8} {result.score:>6.1f}% "
        f"{unexplained:>11} {minutes:>4}m{seconds:02d}s"
    )


HEADER = (
    f"{'module':<38} {'mutants':>7} {'killed':>7} {'survived':>8} {'no tests':>8} "
    f"{'score':>7} {'unexplained':>11} {'time':>7}"
)


def chosen(names: list[str]) -> list[Target]:
    if not names:
        return list(TARGETS)
    picked = [t for t in TARGETS if any(n == t.name or n in t.name.split() for n in names)]
    unknown = [n for n in names if not any(n == t.name or n in t.name.split() for t in TARGETS)]
    if unknown:
        known = ", ".join(t.name.split()[0] for t in TARGETS)
        raise SystemExit(f"unknown target {unknown[0]!r}; expected one of: {known}")
    return picked


def main() -> None:
    # A plain kill of this script stops its mutmut run as Ctrl-C does.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="targets to run (default: all)")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--nice", type=int, default=10, help="niceness of the mutmut run")
    parser.add_argument("--target", type=float, default=DEFAULT_TARGET, help="minimum score, %%")
    parser.add_argument("--tests-at", metavar="REF", help="take tests/ from this git revision")
    parser.add_argument("--keep", type=Path, help="keep each scratch copy under this folder")
    parser.add_argument("--show-survivors", action="store_true", help="print each survivor's diff")
    args = parser.parse_args()
    targets = chosen(args.names)
    listed = explained()
    tests = f"tests at {args.tests_at}" if args.tests_at else "tests of the working tree"
    print(f"mutmut on {len(targets)} rule module(s), {tests}; load average at start "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
    print(HEADER)
    failed = False
    for target in targets:
        if args.keep:
            folder = args.keep / re.sub(r"\W+", "-", target.name).strip("-")
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            result = run_target(target, args, folder)
            report(result, listed, args, folder)
        else:
            with tempfile.TemporaryDirectory(prefix="mutmut-") as scratch:
                result = run_target(target, args, Path(scratch))
                report(result, listed, args, Path(scratch))
        unexplained = [name for name in result.survivors if name not in listed]
        failed |= result.score < args.target or bool(unexplained)
    sys.exit(1 if failed else 0)


def report(result: Outcome, listed: set[str], args: argparse.Namespace, folder: Path) -> None:
    unexplained = [name for name in result.survivors if name not in listed]
    print(row(result, len(unexplained)), flush=True)
    for name in result.survivors if args.show_survivors else unexplained:
        mark = "listed" if name in listed else "UNEXPLAINED"
        print(f"  {mark}: {name}")
        if args.show_survivors:
            print("    " + diff(name, folder).replace("\n", "\n    "))


if __name__ == "__main__":
    main()
