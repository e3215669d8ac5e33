"""CPU seconds of each exercise's run on the reference, with and without one shared MLIR context.

Each run is a fresh process that imports JAX, points it at a private copy of its exercise's part of
the compilation cache the package ships (as a real child's is), and runs the
harness's ``main`` for one exercise, unconfined. The baseline run turns
:func:`grader.harness.child.share_ir_context` off, so the two differ in that
alone. Runs alternate, so machine noise hits both alike; medians are printed,
with the machine's load average.

    python benchmarks/bench_child.py [--repeats 3] [--only ex2,ex4]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUN = """
import json, os, resource, shutil, sys, tempfile
from pathlib import Path
sys.path.insert(0, {root!r})
tmp = Path(tempfile.mkdtemp())
shutil.copytree({root!r} + "/grader/_sealed/xla/" + {exercise!r}, tmp / "xla")  # the task's own part, as a child gets
os.environ.update(JAX_COMPILATION_CACHE_DIR=str(tmp / "xla"), JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0",
                  JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="0", JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES="none")
from grader import inputs
from grader.harness import child, recorder
if not {shared!r}:
    child.share_ir_context = lambda: None
def finish(code):
    raise SystemExit(code)
child.flush_and_exit = finish
before = resource.getrusage(resource.RUSAGE_SELF)
out = tmp / "out"
out.mkdir()
try:
    child.main([{exercise!r}, {root!r} + "/reference", str(inputs.write(tmp / "inputs.npz", None)), str(out)])
except SystemExit:
    pass
after = resource.getrusage(resource.RUSAGE_SELF)
shutil.rmtree(tmp)
print(json.dumps(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime))
"""


def run(exercise: str, shared: bool) -> float:
    """CPU seconds of one exercise's harness run (imports excluded)."""
    code = RUN.format(root=str(ROOT), exercise=exercise, shared=shared)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT).stdout
    return float(json.loads(out.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default="ex1,ex2,ex3,ex4,ex5")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    total = {True: 0.0, False: 0.0}
    for exercise in args.only.split(","):
        times: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(args.repeats):
            for shared in (False, True):
                times[shared].append(run(exercise, shared))
        fresh, shared = statistics.median(times[False]), statistics.median(times[True])
        total[False] += fresh
        total[True] += shared
        print(f"{exercise}: a context per lowering {fresh:5.2f} CPU-s, one shared {shared:5.2f} CPU-s "
              f"(ratio {shared / fresh:.2f}) {[round(t, 2) for t in times[False]]} {[round(t, 2) for t in times[True]]}")
    print(f"all: {total[False]:.2f} -> {total[True]:.2f} CPU-s (ratio {total[True] / total[False]:.2f}); "
          f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
