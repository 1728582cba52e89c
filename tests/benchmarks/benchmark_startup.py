"""Where the seconds before an eval's first request go: imports, measured apart.

`inspect eval debatebench/debate` sends its first request about 3 s after it
starts (benchmark_throughput.py). This script times, each in a fresh Python
process and as the median of `--repeat` runs, the imports that come before it:
Inspect and its model API, this project's registry on top (what Inspect loads
through the entry point), and Inspect's ACP server module, which every eval
imports as it starts whether or not an ACP transport was asked for. It also
times `inspect --version`, the command line's own start.

    python tests/benchmarks/benchmark_startup.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
# Each step imports what the one before it did, then its own modules; the
# process prints the seconds each step took on its own clock.
STEPS = (
    ("Inspect and its model API", "import inspect_ai, inspect_ai.model"),
    ("this project's registry (the entry point)", "import debatebench_eval._registry"),
    ("Inspect's ACP server module", "import inspect_ai.agent._acp.server"),
)
PROGRAM = """
import time
marks = [time.perf_counter()]
{imports}
print(" ".join(f"{{b - a:.4f}}" for a, b in zip(marks, marks[1:])))
"""


def import_times() -> list[float]:
    imports = "\n".join(f"{code}\nmarks.append(time.perf_counter())" for _, code in STEPS)
    program = PROGRAM.format(imports=imports)
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         check=True)  # fmt: skip
    return [float(x) for x in out.stdout.split()]


def command_time() -> float:
    start = time.perf_counter()
    subprocess.run([str(BIN / "inspect"), "--version"], capture_output=True, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}, load average {load}")
    runs = [import_times() for _ in range(args.repeat)]
    for index, (name, _) in enumerate(STEPS):
        times = [run[index] for run in runs]
        print(f"  {name:45} median {statistics.median(times):.2f} s "
              f"({min(times):.2f}-{max(times):.2f}) over {args.repeat} processes")  # fmt: skip
    commands = [command_time() for _ in range(args.repeat)]
    spread = f"({min(commands):.2f}-{max(commands):.2f})"
    name = "`inspect --version`, the whole process"
    print(f"  {name:45} median {statistics.median(commands):.2f} s {spread}")


if __name__ == "__main__":
    main()
