"""Grade a generated class with ``--jobs 1`` and ``--jobs 2``; print submissions per minute and the speed-up.

The class mixes correct submissions (the reference as a folder, a zip, a
single .py file and a notebook; the test corpus's correct variants), broken
ones (the stubs, mutants of each exercise) and hostile ones (a hang, a
segfault, an exit, a corrupt zip, a zip with ``../`` paths, an empty folder).
Each run starts from an empty output folder with a warm reference cache, and
the single grade of a full submission (``python -m grader reference``, all
cores) is timed beside it, so the per-submission cost in a batch can be read
against it.

    python benchmarks/bench_batch.py [--size 12] [--jobs 1,2] [--timeout 30] [--split]
    python benchmarks/bench_batch.py --against REV [--size 12] [--repeats 3] [--students]

``--split`` also times one submission at a time with two exercise runs at
once (the alternative way of spending two cores). ``--against REV`` instead
grades the same class with this checkout's ``python -m grader batch`` and with
the one at git revision REV (checked out in a temporary worktree), each with
``--jobs 2`` from its own warm reference cache, alternating, and prints the CPU
seconds per graded submission of each and their ratio (the median of the
pairs). ``--students`` makes that class of whole submissions as students write
them instead (every file a blind set's correct variant or mistake, none the
reference's own code): what a real class costs, since a submission whose
programs differ from the reference's compiles them. The machine's load average
is printed: on a shared machine, compare runs made together only.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.batch.runner import run_batch  # noqa: E402
from grader.config import BatchOptions, Options  # noqa: E402
from grader.exercises import MODULES  # noqa: E402
from grader.sandbox import Limits  # noqa: E402

REFERENCE, STUBS, CORPUS = ROOT / "reference", ROOT / "exercises", ROOT / "tests" / "corpus"


def _with(folder: Path, replacements: dict[str, Path]) -> None:
    shutil.copytree(REFERENCE, folder)
    for module, path in replacements.items():
        shutil.copy(path, folder / f"{module}.py")


def make_class(root: Path, size: int) -> list[str]:
    """About ``size`` entries; returns what each one is, for the printout."""
    root.mkdir(parents=True)
    made: list[str] = []

    def add(name: str, what: str) -> None:
        made.append(f"{name}: {what}")

    shutil.copytree(REFERENCE, root / "ref_folder")
    add("ref_folder", "correct, folder")
    with zipfile.ZipFile(root / "ref_zip.zip", "w") as zf:
        for path in REFERENCE.glob("*.py"):
            zf.write(path, f"submission/{path.name}")
    add("ref_zip.zip", "correct, zipped in a folder")
    (root / "ref_single.py").write_text("\n\n".join(p.read_text() for p in sorted(REFERENCE.glob("*.py"))))
    add("ref_single.py", "correct, one .py file")
    shutil.copytree(STUBS, root / "stubs")
    add("stubs", "the untouched stubs")
    mutants = sorted((CORPUS / "mutants").glob("*.py"))
    correct = sorted((CORPUS / "correct").glob("ex*.py"))
    hostile = {
        "hang": CORPUS / "hostile" / "ex2_per_example_grads__hang.py",
        "segfault": CORPUS / "hostile" / "ex1_dropout__segfault.py",
        "os_exit": CORPUS / "hostile" / "ex4_jit_speedup__os_exit.py",
    }
    for name, path in hostile.items():
        _with(root / name, {path.stem.split("__")[0]: path})
        add(name, f"hostile: {path.stem}")
    (root / "corrupt.zip").write_bytes(b"PK\x03\x04 not a zip at all")
    add("corrupt.zip", "hostile: corrupt archive")
    with zipfile.ZipFile(root / "escape.zip", "w") as zf:
        zf.writestr("../../escape.py", "x = 1\n")
    add("escape.zip", "hostile: ../ member")
    (root / "empty").mkdir()
    add("empty", "hostile: empty folder")
    i = 0
    while len(made) < size:
        pool, kind = (mutants, "broken") if i % 3 else (correct, "correct variant")
        path = pool[(i * 7) % len(pool)]
        name = f"{kind.split()[0]}_{i:02d}"
        _with(root / name, {path.stem.split("__")[0]: path})
        add(name, f"{kind}: {path.stem}")
        i += 1
    return made


def single_grade(cache: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "grader", str(REFERENCE), "-q"], check=True, capture_output=True,
                   cwd=ROOT, env={**os.environ, "JAX_GRADER_CACHE": str(cache)})
    return time.perf_counter() - start


def _cpu() -> float:
    """CPU seconds of this process and every finished descendant (workers, their sandboxed children)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def batch(root: Path, out: Path, jobs: int, per_submission: int, timeout: float, cache: Path) -> tuple[float, dict]:
    options = Options(limits=Limits(timeout=timeout), jobs=per_submission, cache_dir=cache, require_confinement=True,
                      batch=BatchOptions(root, out, jobs=jobs))
    start, cpu = time.perf_counter(), _cpu()
    result = run_batch(options)
    elapsed = time.perf_counter() - start
    cpu = _cpu() - cpu
    statuses: dict[str, int] = {}
    for o in result.outcomes:
        statuses[o.status] = statuses.get(o.status, 0) + 1
    return elapsed, {"cpu": cpu, "statuses": statuses, "grades": {o.id: (o.status, o.report.score if o.report else None)
                                                      for o in result.outcomes}}


def _cli_batch(checkout: Path, root: Path, out: Path, jobs: int, timeout: float, cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds of ``python -m grader batch`` run from ``checkout`` (its package first on the path)."""
    env = {**os.environ, "JAX_GRADER_CACHE": str(cache), "PYTHONPATH": str(checkout)}
    start, cpu = time.perf_counter(), _cpu()
    subprocess.run([sys.executable, "-m", "grader", "batch", str(root), "--out", str(out), "--jobs", str(jobs),
                    "--timeout", str(timeout)], check=True, capture_output=True, cwd=checkout, env=env)
    return time.perf_counter() - start, _cpu() - cpu


def _graded(out: Path) -> int:
    """How many submissions a batch's grades.csv gives a score (graded, whatever the score)."""
    import csv
    with open(out / "grades.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return sum(1 for row in rows if row.get("total"))


def make_students(root: Path, size: int) -> list[str]:
    """``size`` whole submissions written as students write them: each of the five files is a blind set's
    correct variant or, one file in four, its mistake, chosen by a fixed rule (nothing is the reference's own
    code, so each submission compiles its own programs, as a real class's do)."""
    root.mkdir(parents=True)
    blind = CORPUS / "blind"
    made: list[str] = []
    for i in range(size):
        files = {}
        for j, module in enumerate(MODULES.values()):
            kind = "mistakes" if (i + j) % 4 == 3 else "correct"
            pool = sorted(blind.glob(f"set*/{kind}/{module}__*.py"))
            files[module] = pool[(i * 37 + j * 11) % len(pool)]
        _with(root / f"student_{i:02d}", files)
        made.append(f"student_{i:02d}: " + ", ".join(p.stem.split("__")[1] for p in files.values()))
    return made


def against(rev: str, size: int, repeats: int, timeout: float, students: bool = False) -> None:
    """This checkout's batch and REV's, on one class, alternating: CPU per graded submission and the ratio."""
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        tmp_path = Path(tmp)
        other = tmp_path / "against"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(other), rev], check=True)
        try:
            made = (make_students if students else make_class)(tmp_path / "class", size)
            print(f"class: {len(made)} entries on {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
            sides = {"this checkout": (ROOT, tmp_path / "cache-this"), f"at {rev}": (other, tmp_path / "cache-rev")}
            for checkout, cache in sides.values():  # each fills its own reference cache
                subprocess.run([sys.executable, "-m", "grader", str(checkout / "reference"), "-q"], check=True,
                               capture_output=True, cwd=checkout,
                               env={**os.environ, "JAX_GRADER_CACHE": str(cache), "PYTHONPATH": str(checkout)})
            per: dict[str, list[float]] = {name: [] for name in sides}
            for r in range(repeats):
                for name, (checkout, cache) in (sides.items() if r % 2 == 0 else reversed(sides.items())):
                    out = tmp_path / f"out-{r}-{'this' if checkout == ROOT else 'rev'}"
                    load = os.getloadavg()[0]
                    elapsed, cpu = _cli_batch(checkout, tmp_path / "class", out, 2, timeout, cache)
                    graded = _graded(out)
                    per[name].append(cpu / max(graded, 1))
                    print(f"{name}: {elapsed:.1f} s, {cpu:.0f} CPU s, {graded} graded, "
                          f"{cpu / max(graded, 1):.2f} CPU s per graded submission (load before {load:.1f})")
            medians = {name: sorted(v)[len(v) // 2] for name, v in per.items()}
            mine, theirs = medians["this checkout"], medians[f"at {rev}"]
            print(f"median CPU s per graded submission: this checkout {mine:.2f}, at {rev} {theirs:.2f}; "
                  f"ratio {mine / theirs:.2f}")
            print(f"load average at the end: {os.getloadavg()[0]:.1f}")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=False)


def main() -> None:
    # every process timed writes bytecode, as a student's or an instructor's Python does (see bench_grade's _env)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=12, help="entries in the class (default %(default)s)")
    parser.add_argument("--jobs", default="1,2", help="batch --jobs values to time (default %(default)s)")
    parser.add_argument("--timeout", type=float, default=30.0, help="per exercise run (default %(default)s s)")
    parser.add_argument("--split", action="store_true",
                        help="also time one submission at a time with two exercise runs at once")
    parser.add_argument("--against", metavar="REV",
                        help="grade the class with this checkout and with git revision REV, side by side")
    parser.add_argument("--repeats", type=int, default=3, help="pairs with --against (default %(default)s)")
    parser.add_argument("--students", action="store_true",
                        help="with --against: a class of whole submissions of the blind sets' variants and mistakes "
                             "instead of the mixed class")
    args = parser.parse_args()
    if args.against:
        return against(args.against, args.size, args.repeats, args.timeout, args.students)
    jobs = [int(j) for j in args.jobs.split(",")]
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        tmp_path = Path(tmp)
        cache = tmp_path / "cache"
        made = make_class(tmp_path / "class", args.size)
        print(f"class: {len(made)} entries on {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
        for line in made:
            print(f"  {line}")
        single_grade(cache)  # fills the reference cache
        singles = [single_grade(cache) for _ in range(2)]
        single = min(singles)
        print(f"single grade of the reference (all cores, warm cache): {single:.1f} s (runs: "
              + ", ".join(f"{s:.1f}" for s in singles) + ")")
        runs = [(j, 1) for j in jobs] + ([(1, 2)] if args.split else [])
        results = {}
        for j, per in runs:
            load = os.getloadavg()[0]
            elapsed, info = batch(tmp_path / "class", tmp_path / f"out-{j}-{per}", j, per, args.timeout, cache)
            results[(j, per)] = (elapsed, info)
            rate = len(made) / elapsed * 60
            gradable = sum(n for status, n in info["statuses"].items() if status not in ("invalid", "duplicate"))
            print(f"--jobs {j} ({per} exercise run(s) at once per submission): {elapsed:.1f} s, "
                  f"{rate:.1f} submissions/min; {elapsed / gradable:.1f} s per graded submission "
                  f"(single grade: {single:.1f} s); {info['cpu']:.0f} CPU s, {info['cpu'] / elapsed:.2f} cores "
                  f"busy on average (load average before: {load:.1f}); "
                  f"statuses {json.dumps(info['statuses'], sort_keys=True)}")
        if (1, 1) in results and (2, 1) in results:
            speedup = results[(1, 1)][0] / results[(2, 1)][0]
            print(f"speed-up --jobs 2 over --jobs 1: {speedup:.2f}x")
            same = results[(1, 1)][1]["grades"] == results[(2, 1)][1]["grades"]
            print(f"identical statuses and scores for --jobs 1 and --jobs 2: {same}")
            if not same:
                a, b = results[(1, 1)][1]["grades"], results[(2, 1)][1]["grades"]
                print("  differing:", {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)})
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
