"""Seconds a fresh interpreter takes to import JAX's dtype library, against importing numpy alone.

Every child of a grade, the fork server and each batch worker import JAX, and
JAX imports ``ml_dtypes`` first; ml_dtypes 0.7.0 registers its casts in a way
that took 1.4 s more on a 2-core machine than 0.6.0 did (1.65 s against
0.20 s), which is why ``pyproject.toml`` leaves that release out. Runs
alternate, so machine noise hits both alike; medians are printed, with the
versions and the machine's load average.

    python benchmarks/bench_import.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import statistics
import subprocess
import sys
import time


def _seconds(module: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", f"import {module}"], check=True)
    return time.perf_counter() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {"numpy": [], "ml_dtypes": [], "jax": []}
    for _ in range(args.repeats):
        for module in times:
            times[module].append(_seconds(module))
    versions = {name: importlib.metadata.version(name) for name in ("numpy", "ml_dtypes", "jax")}
    print(f"versions: {versions}; load average {os.getloadavg()}")
    base = statistics.median(times["numpy"])
    for module, values in times.items():
        median = statistics.median(values)
        print(f"import {module:10s} median {median:6.3f} s  ({median / base:5.2f}x numpy)")


if __name__ == "__main__":
    main()
