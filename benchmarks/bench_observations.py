"""CPU seconds of each observation a probe records, for one exercise's run on one submission.

The probes' cost is what a batch pays per submission; this says where it
goes, observation by observation, so that a cut is aimed before it is made.
Each run is a fresh process that runs the harness's ``main`` for one
exercise, unconfined, with the task's part of the sealed compilation cache
(as a real child's is) or, with ``--cold``, an empty one (as a submission
whose programs differ from the reference's meets it). Medians over
``--repeats`` runs are printed, largest first, with the machine's load.

    python benchmarks/bench_observations.py [--only ex2] [--submission DIR] [--cold] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUN = """
import json, os, shutil, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, {root!r})
tmp = Path(tempfile.mkdtemp())
if {cold!r}:
    (tmp / "xla").mkdir()
else:
    shutil.copytree({root!r} + "/grader/_sealed/xla/" + {exercise!r}, tmp / "xla")
os.environ.update(JAX_COMPILATION_CACHE_DIR=str(tmp / "xla"), JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0",
                  JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="0", JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES="none")
from grader import inputs
from grader.harness import child, recorder
spent = {{}}
record = recorder.Recorder.record
def timed(self, name, fn):
    start = time.process_time()
    try:
        return record(self, name, fn)
    finally:
        spent[name] = spent.get(name, 0.0) + time.process_time() - start
recorder.Recorder.record = timed
def finish(code):
    raise SystemExit(code)
child.flush_and_exit = finish
out = tmp / "out"
out.mkdir()
start = time.process_time()
try:
    child.main([{exercise!r}, {submission!r}, str(inputs.write(tmp / "inputs.npz", None)), str(out)])
except SystemExit:
    pass
spent["(whole run)"] = time.process_time() - start
shutil.rmtree(tmp)
print(json.dumps(spent))
"""


def run(exercise: str, submission: Path, cold: bool) -> dict[str, float]:
    code = RUN.format(root=str(ROOT), exercise=exercise, submission=str(submission), cold=cold)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default="ex1,ex2,ex3,ex4,ex5")
    parser.add_argument("--submission", type=Path, default=ROOT / "reference")
    parser.add_argument("--cold", action="store_true", help="start from an empty compilation cache")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for exercise in args.only.split(","):
        spent: dict[str, list[float]] = defaultdict(list)
        for _ in range(args.repeats):
            for name, seconds in run(exercise, args.submission.resolve(), args.cold).items():
                spent[name].append(seconds)
        medians = sorted(((statistics.median(v), k) for k, v in spent.items()), reverse=True)
        whole = dict((k, v) for v, k in medians).get("(whole run)", 0.0)
        observed = sum(v for v, k in medians if k != "(whole run)")
        print(f"{exercise}: whole run {whole:.2f} CPU-s, in observations {observed:.2f}")
        for seconds, name in medians[1:args.top + 1]:
            print(f"  {seconds:6.3f}  {name}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
