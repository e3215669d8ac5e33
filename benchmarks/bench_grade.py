"""Grade the reference and run the bare lesson training side by side; print the ratio.

The bare run is what a student would run by hand: a fresh Python process that
imports JAX and trains the lesson MLP with the reference pieces, using the
grader's own training loop on the embedded split. The grade is a full
``python -m grader reference`` in a fresh process (warm reference cache, as on
a student's second run; pass --cold to time a first run). Beside them: the
same grade against the sealed reference the package ships (what a student
with the wheel runs; its first grade, from an empty cache, apart: on a CPU its
compiled programs do not load on it compiles everything and keeps it for the next,
``bench_first_grade.py``), ``--only ex3`` (the quickest exercise), and the floor
any grade pays before it runs anything: a fresh process importing jax, optax
and the harness. Runs alternate so machine noise hits all alike; medians are
reported, with the CPU seconds the bare run and the grade use (every process of each): on a machine with few
cores, a grade's wall time cannot go below its CPU time over the cores.

    python benchmarks/bench_grade.py [--repeats 3] [--cold]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BARE = """
import importlib.util, sys
sys.path.insert(0, {root!r})
import jax.numpy as jnp, numpy as np
from grader.data import embedded_split
import grader.harness.probes  # the probes' package first: it imports every probe
from grader.exercises.accuracy.probe import train
from grader.inputs import mlp_params, LESSON_WIDTHS

def load(name):
    spec = importlib.util.spec_from_file_location(name, {root!r} + "/reference/" + name + ".py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

ex1, ex3, ex5 = load("ex1_dropout"), load("ex3_mlp_forward"), load("ex5_clipping")
split = embedded_split()
params = {{k: {{n: jnp.asarray(a) for n, a in v.items()}} for k, v in mlp_params(np.random.default_rng(707), LESSON_WIDTHS, 0.0).items()}}
final, _ = train(ex1.forward_with_dropout, ex5.make_optimizer(), params, split)
acc = float(np.mean(np.argmax(np.asarray(ex3.mlp_forward(final, jnp.asarray(split.x_test))), 1) == split.y_test))
print(acc)
"""


def _children_cpu() -> float:
    """CPU seconds of every finished child of this process and its descendants (a grade's fork server and runs)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def bare_run() -> tuple[float, float]:
    """Wall and CPU seconds of the bare training."""
    start, cpu = time.perf_counter(), _children_cpu()
    subprocess.run([sys.executable, "-c", BARE.format(root=str(ROOT))], check=True, capture_output=True, env=_env())
    return time.perf_counter() - start, _children_cpu() - cpu


def grade_run(cache: Path, *extra: str) -> tuple[float, dict, float]:
    """Wall seconds, the report's timings and the CPU seconds of every process of one full-marks grade."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        start, cpu = time.perf_counter(), _children_cpu()
        subprocess.run([sys.executable, "-m", "grader", str(ROOT / "reference"), "--json", str(out), "-q", *extra],
                       check=True, capture_output=True, cwd=ROOT, env={**_env(), "JAX_GRADER_CACHE": str(cache)})
        wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
        report = json.loads(out.read_text())
    assert report["score"] == report["max_score"], report["score"]
    return wall, report["timings"], cpu


def import_floor() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import grader.harness.child"], check=True, capture_output=True, cwd=ROOT,
                   env=_env())
    return time.perf_counter() - start


def _env() -> dict:
    """The environment every timed process runs in: this one's, but writing bytecode as a student's Python does
    (pip compiles an installed package's modules; a checkout's are compiled on its first run). Where
    PYTHONDONTWRITEBYTECODE is set, every grade would compile the grader's modules anew and the bare run far fewer."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="empty the reference cache before every grade")
    args = parser.parse_args()
    bare, grades, breakdowns, bare_cpu, grade_cpu = [], [], [], [], []
    sealed_grades, ex3, floor = [], [], []
    with tempfile.TemporaryDirectory() as cache_root:
        cache = Path(cache_root) / "cache"
        sealed_first = grade_run(Path(cache_root) / "first", "--reference", str(ROOT / "grader" / "_sealed"))[0]
        if not args.cold:
            grade_run(cache)  # fill the reference cache once
        for i in range(args.repeats):
            if args.cold:
                cache = Path(cache_root) / f"cache{i}"
            wall, used = bare_run()
            bare.append(wall)
            bare_cpu.append(used)
            wall, timings, used = grade_run(cache)
            grades.append(wall)
            breakdowns.append(timings)
            grade_cpu.append(used)
            sealed_grades.append(grade_run(cache, "--reference", str(ROOT / "grader" / "_sealed"))[0])
            ex3.append(grade_run(cache, "--only", "ex3")[0])
            floor.append(import_floor())
    b, g = statistics.median(bare), statistics.median(grades)
    print(f"bare lesson training (fresh process): median {b:.1f} s over {len(bare)} runs {[round(x, 1) for x in bare]}")
    print(f"full grade of reference/ ({'cold' if args.cold else 'warm'} cache): median {g:.1f} s "
          f"{[round(x, 1) for x in grades]}")
    print(f"ratio grade / bare training: {g / b:.2f}")
    cb, cg = statistics.median(bare_cpu), statistics.median(grade_cpu)
    print(f"CPU seconds (all processes): bare {cb:.1f}, grade {cg:.1f}, ratio {cg / cb:.2f}; on {os.cpu_count()} "
          f"cores the grade's CPU alone takes {cg / (os.cpu_count() or 1):.1f} s of wall time")
    print(f"first grade against the shipped sealed reference (empty cache): {sealed_first:.1f} s "
          f"(ratio to bare training {sealed_first / b:.2f})")
    sg = statistics.median(sealed_grades)
    print(f"full grade against the shipped sealed reference: median {sg:.1f} s {[round(x, 1) for x in sealed_grades]}"
          f" (ratio to bare training {sg / b:.2f})")
    print(f"--only ex3: median {statistics.median(ex3):.2f} s {[round(x, 2) for x in ex3]}")
    print(f"floor (fresh process importing jax, optax and the harness): median {statistics.median(floor):.2f} s")
    print("per-exercise child wall time (median, s; children run in parallel):")
    for task in breakdowns[0]:
        print(f"  {task:9s} {statistics.median(t[task] for t in breakdowns):6.1f}")


if __name__ == "__main__":
    main()
