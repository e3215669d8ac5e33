"""Grade every file of the test corpus with forked children and with fresh interpreters; list every verdict that differs.

The fork server (:mod:`grader.sandbox.forkserver`) must change no grade: a child
forked from a process that has imported JAX has to observe what a fresh
interpreter observes. ``tests/test_forkserver.py`` compares a sample on every
run of the suite; this compares the whole corpus (``tests/corpus``: correct
variants, mutants, blind sets, hostile files), each file in a copy of the
reference with that file in its module's place, graded with ``--only`` its
exercise, by ``python -m grader batch``'s own machinery, once each way.

Compared per file: how the run ended, the score, and each check's status,
score, named mistake and hint; messages too, except ex4's, which quote the
times measured. ex4's verdicts read wall-clock times, so a loaded machine can
move them: run this on a quiet one, and run again the files it lists.

    python benchmarks/fork_vs_fresh.py [--only ex1,ex3] [--jobs 2] [--timeout S] [--every N] [--limit N]

The whole corpus takes about an hour each way on two cores; ``--every 4``
takes every fourth file of each exercise (all kinds, in a fixed order).

Exits 1 when any verdict differs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.batch.runner import run_batch  # noqa: E402
from grader.config import BatchOptions, Options  # noqa: E402
from grader.exercises import MODULES  # noqa: E402
from grader.sandbox import Limits  # noqa: E402

CORPUS, REFERENCE = ROOT / "tests" / "corpus", ROOT / "reference"
EXERCISE_OF = {module: exercise for exercise, module in MODULES.items()}


def corpus_files(only: tuple[str, ...]) -> dict[str, list[Path]]:
    """The corpus's submission files of each exercise in ``only``, in a fixed order."""
    files: dict[str, list[Path]] = {exercise: [] for exercise in only}
    for path in sorted(CORPUS.rglob("ex*.py")):
        exercise = EXERCISE_OF.get(path.stem.split("__")[0])
        if exercise in files:
            files[exercise].append(path)
    return files


def make_class(folder: Path, files: list[Path]) -> dict[str, Path]:
    """One submission folder per file (the reference, that file in its module's place); student id -> file."""
    folder.mkdir(parents=True)
    ids = {}
    for i, path in enumerate(files):
        student = f"s{i:04d}"
        shutil.copytree(REFERENCE, folder / student)
        shutil.copy(path, folder / student / f"{path.stem.split('__')[0]}.py")
        ids[student] = path
    return ids


def verdicts(outcome) -> tuple:
    """What must agree between the two ways of grading one submission."""
    report = outcome.report
    if report is None:
        return (outcome.status,)
    checks = tuple((c.id, c.status, c.score, c.mistake, c.hint, c.message if c.exercise != "ex4" else "")
                   for c in report.checks)
    runs = tuple((exercise, run.status) for exercise, run in report.runs.items())
    return outcome.status, report.score, runs, checks


def grade_class(folder: Path, out: Path, exercise: str, fork: bool, jobs: int, timeout: float) -> dict:
    options = Options(only=(exercise,), jobs=1, limits=Limits(timeout=timeout, fork=fork),
                      batch=BatchOptions(folder, out, jobs=jobs))
    return {o.id: verdicts(o) for o in run_batch(options).outcomes}


def differences(a: tuple, b: tuple) -> str:
    """The first field where two verdicts differ, said briefly."""
    if a[:3] != b[:3]:
        return f"forked {a[:3]} / fresh {b[:3]}"
    for x, y in zip(a[3], b[3]):
        if x != y:
            return f"{x[0]}: forked {x[1:5]} / fresh {y[1:5]}" + (" (message)" if x[1:5] == y[1:5] else "")
    return "check lists differ"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(MODULES), help="exercises (default: all five)")
    parser.add_argument("--jobs", type=int, default=2, help="submissions graded at once (default %(default)s)")
    parser.add_argument("--timeout", type=float, default=Limits.timeout,
                        help="per run (default: the grader's, %(default)s s; a slow correct file near a shorter "
                             "limit times out one way and not the other)")
    parser.add_argument("--every", type=int, default=1, help="every N-th file of each exercise (default: all)")
    parser.add_argument("--limit", type=int, default=0, help="at most this many files per exercise (0: all)")
    args = parser.parse_args()
    only = tuple(e.strip() for e in args.only.split(",") if e.strip())
    unknown = [e for e in only if e not in MODULES]
    if unknown:
        raise SystemExit(f"--only: {', '.join(unknown)} is not one of {', '.join(MODULES)}")
    differing: list[str] = []
    compared = 0
    with tempfile.TemporaryDirectory(prefix="fork-vs-fresh-") as tmp:
        for exercise, files in corpus_files(only).items():
            files = files[::max(args.every, 1)]
            files = files[:args.limit] if args.limit else files
            ids = make_class(Path(tmp) / exercise, files)
            start, load = time.monotonic(), os.getloadavg()[0]
            forked = grade_class(Path(tmp) / exercise, Path(tmp) / f"{exercise}-forked", exercise, True, args.jobs,
                                 args.timeout)
            middle = time.monotonic()
            fresh = grade_class(Path(tmp) / exercise, Path(tmp) / f"{exercise}-fresh", exercise, False, args.jobs,
                                args.timeout)
            mine = [f"{ids[s].relative_to(ROOT)}: {differences(forked[s], fresh.get(s, ('missing',)))}"
                    for s in sorted(ids) if forked.get(s) != fresh.get(s)]
            differing += mine
            compared += len(ids)
            print(f"{exercise}: {len(ids)} files, {len(ids) - len(mine)} agree, {len(mine)} differ "
                  f"(forked {middle - start:.0f} s, fresh {time.monotonic() - middle:.0f} s; "
                  f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after)", flush=True)
            for line in mine:
                print(f"  {line}", flush=True)
    print(f"corpus: {compared} files, {compared - len(differing)} agree verdict for verdict, {len(differing)} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
