"""How much of a submission's run is compiling its own programs, and how many of those a batch meets again.

A run reads the reference's programs from the sealed compilation cache; what
the submission computes differently (another shape, another operation, a
jitted helper) misses it and is compiled there and then. This runs each
exercise on a sample of the corpus (blind correct variants and mutants, chosen
by a hash of their names, graded in a shuffled but fixed order, as a batch
worker would meet them), each in a fresh unconfined process with the task's
part of the sealed cache, read only, and prints per submission: the cache
misses, how many of them an earlier submission of the sample had already
missed (what one cache shared by a worker's submissions could have saved),
the seconds XLA spent compiling, and the run's seconds. Corpus code only: it
runs unconfined.

    python benchmarks/bench_compile_misses.py [--only ex1,ex2] [--per-exercise 10]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.exercises import MODULES  # noqa: E402

RUN = """
import json, logging, os, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, {root!r})
os.environ.update(JAX_COMPILATION_CACHE_DIR={cache!r}, JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="3e7",
                  JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="0", JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES="none")
from grader import inputs
from grader.harness import child, probes
from grader.harness.recorder import Recorder
from grader.protocol import SKIP_LESSON
from jax import monitoring
misses, compiling = [], [0.0]
class Misses(logging.Handler):
    def emit(self, record):  # jax logs each miss with (module name, cache key) as the record's arguments
        if record.msg.startswith("PERSISTENT COMPILATION CACHE MISS"):
            misses.append(record.args[1])
log = logging.getLogger("jax._src.compiler")
log.setLevel(logging.DEBUG)
log.addHandler(Misses())
log.propagate = False
def compiled(event, seconds, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        compiling[0] += seconds
monitoring.register_event_duration_secs_listener(compiled)
child.set_compilation({exercise!r})  # the XLA options a child of this exercise compiles with
tmp = Path(tempfile.mkdtemp())
given = child.load_inputs(inputs.write(tmp / "inputs.npz", None))
child.share_ir_context()
options = [SKIP_LESSON]
if {exercise!r} in probes.PREPARE:
    probes.PREPARE[{exercise!r}](given, options)
sys.path.insert(0, {submission!r})
start = time.perf_counter()
child.observe({exercise!r}, Path({submission!r}), given, options, Recorder(Path({submission!r})))
print(json.dumps({{"misses": misses, "compiling": compiling[0], "seconds": time.perf_counter() - start}}))
"""


def sample(exercise: str, size: int) -> list[Path]:
    """About ``size`` corpus files of ``exercise``: two fifths blind correct variants, the rest mutants."""
    module = MODULES[exercise]

    def first(paths: list[Path], n: int) -> list[Path]:
        return sorted(paths, key=lambda p: hashlib.sha256(p.name.encode()).hexdigest())[:n]

    correct = first(list((ROOT / "tests/corpus/blind").glob(f"set*/correct/{module}__*.py")), size * 2 // 5)
    files = correct + first(list((ROOT / "tests/corpus/mutants").glob(f"{module}__*.py")), size - len(correct))
    random.Random(0).shuffle(files)
    return files


def run(exercise: str, path: Path) -> dict:
    folder = Path(tempfile.mkdtemp())
    try:
        for reference in (ROOT / "reference").glob("*.py"):
            shutil.copy(reference, folder)
        shutil.copy(path, folder / f"{MODULES[exercise]}.py")
        code = RUN.format(root=str(ROOT), cache=str(ROOT / "grader" / "_sealed" / "xla" / exercise),
                          exercise=exercise, submission=str(folder))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                             env={**os.environ, "JAX_PLATFORMS": "cpu"})
        return json.loads(out.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="ex1,ex2,ex3,ex4,ex5")
    parser.add_argument("--per-exercise", type=int, default=10)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    totals = {"misses": 0, "again": 0, "compiling": 0.0, "seconds": 0.0}
    for exercise in args.only.split(","):
        seen: set[str] = set()
        for path in sample(exercise, args.per_exercise):
            r = run(exercise, path)
            again = sum(key in seen for key in r["misses"])
            seen.update(r["misses"])
            print(f"{exercise} {path.stem[:64]:64s} misses {len(r['misses']):4d} (met before {again:3d})  compiling "
                  f"{r['compiling']:6.2f} s of {r['seconds']:6.2f} s")
            for key, value in (("misses", len(r["misses"])), ("again", again), ("compiling", r["compiling"]),
                               ("seconds", r["seconds"])):
                totals[key] += value
    print(f"all: {totals['misses']} misses, {totals['again']} met before by an earlier submission of the same "
          f"exercise ({totals['again'] / max(totals['misses'], 1):.0%}); compiling {totals['compiling']:.1f} s of "
          f"{totals['seconds']:.1f} s observing ({totals['compiling'] / max(totals['seconds'], 1e-9):.0%})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
