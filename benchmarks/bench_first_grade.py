"""A student's first grade on another CPU than the package was sealed on, and the grade after it; this tree and another.

Most students' machines, and nearly every GitHub Actions, Gradescope or PrairieLearn runner, have another CPU than
the one the package was sealed on. JAX keys each compiled program by the CPU, so the entries sealed for one CPU load
on no other: there the first grade compiles every program its runs need (and keeps them for the next grade of the
same folder, ``grader.compiled_cache``). On x86-64 CPUs with AVX2 the runs compile for AVX2 and key their programs
so (``xla_options.portable``): those entries (``sealing.PORTABLE_KEY`` in ``xla/cpus.json``) load on every such CPU.
This makes that other machine here: a copy of the tree's sealed reference without the entries only this CPU loads
(every ``xla/cpus.json`` part but the portable one; ``--without-avx2``: all of them, as on an ARM Mac), an empty
user cache, then ``python -m grader reference --reference COPY`` twice (the first grade and the second). With
``--against REV`` it does the same with the grader at git revision REV (a temporary worktree, its own seal),
alternating, and prints the ratio of the medians. Wall time and the CPU seconds of every process of the grade are
printed, with the machine's load. ``--students N`` then grades N whole submissions written as students write them
(``bench_batch.make_students``) the same way, each a first grade from an empty cache: what a platform that grades
every submission on a fresh machine (Gradescope, PrairieLearn, a CI runner) pays per submission.

    python benchmarks/bench_first_grade.py [--repeats 3] [--against REV] [--without-avx2] [--students N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_grade import _children_cpu, _env  # noqa: E402 - this folder is on the path: the script's own
from grader.expected.sealed import COMPILATION_CACHE, CPUS  # noqa: E402
from grader.expected.sealing import PORTABLE_KEY  # noqa: E402


def seal_elsewhere(tree: Path, dest: Path, portable: bool) -> tuple[int, int]:
    """Copy ``tree``'s shipped seal to ``dest`` as another CPU finds it: without the compiled entries keyed by one
    CPU, and (``portable`` false) without those every AVX2 CPU shares; (entries removed, entries kept)."""
    shutil.copytree(tree / "grader" / "_sealed", dest)
    listing_path = dest / COMPILATION_CACHE / CPUS
    if not listing_path.is_file():  # a seal from before the listing: all of it this CPU's
        entries = [p for p in (dest / COMPILATION_CACHE).glob("*/*") if p.is_file()]
        for entry in entries:
            entry.unlink()
        return len(entries), 0
    listing = json.loads(listing_path.read_text())
    removed = 0
    for cpu in [cpu for cpu in listing if not (portable and cpu == PORTABLE_KEY)]:
        for task, names in listing.pop(cpu).items():
            for name in names:
                (dest / COMPILATION_CACHE / task / name).unlink(missing_ok=True)
                removed += 1
    listing_path.write_text(json.dumps(listing, indent=1, sort_keys=True) + "\n")
    return removed, sum(len(names) for parts in listing.values() for names in parts.values())


def grade(tree: Path, seal: Path, cache: Path, submission: Path | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one full grade of ``submission`` (default: ``tree``'s reference, which must get full
    marks) against ``seal``, with ``cache`` as the user cache."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        env = {**_env(), "JAX_GRADER_CACHE": str(cache), "PYTHONPATH": str(tree)}
        start, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run([sys.executable, "-m", "grader", str(submission or tree / "reference"), "--reference",
                               str(seal), "--json", str(out), "-q", "--timeout", "120"], capture_output=True,
                              cwd=tree, env=env)
        wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
        if not out.is_file():
            raise SystemExit(f"{tree}: no report for {submission} (exit {done.returncode}): {done.stderr[-500:]}")
        report = json.loads(out.read_text())
    if submission is None and report["score"] != report["max_score"]:
        raise SystemExit(f"{tree}: the reference scored {report['score']} / {report['max_score']}")
    return wall, cpu


def in_turn(trees: dict[str, Path], i: int) -> list[str]:
    """The trees' names in the order the ``i``-th round grades them: each goes first every other round."""
    return list(trees) if i % 2 == 0 else list(reversed(trees))


def references(trees: dict[str, Path], seals: dict[str, Path], tmp_path: Path, repeats: int,
               against: str | None) -> None:
    """``repeats`` rounds of each tree's reference graded twice from an empty cache (the first grade and the
    second), alternating; the medians, and their ratios with ``against``."""
    results: dict[str, dict[str, list[float]]] = {n: {"first": [], "first cpu": [], "second": [],
                                                       "second cpu": []} for n in trees}
    for r in range(repeats):
        for name in in_turn(trees, r):
            cache = tmp_path / "cache"  # empty for each first grade
            for which in ("first", "second"):
                wall, used = grade(trees[name], seals[name], cache)
                results[name][which].append(wall)
                results[name][f"{which} cpu"].append(used)
            shutil.rmtree(cache, ignore_errors=True)
            print(f"  {name}: first {results[name]['first'][-1]:.1f} s "
                  f"({results[name]['first cpu'][-1]:.1f} CPU-s), second {results[name]['second'][-1]:.1f} "
                  f"s ({results[name]['second cpu'][-1]:.1f} CPU-s)")
    medians = {name: {k: statistics.median(v) for k, v in got.items()} for name, got in results.items()}
    for name, m in medians.items():
        print(f"{name}: median first grade {m['first']:.1f} s ({m['first cpu']:.1f} CPU-s), "
              f"second {m['second']:.1f} s ({m['second cpu']:.1f} CPU-s)")
    if against:
        mine, theirs = medians["this checkout"], medians[f"at {against}"]
        print(f"ratio this / {against}: first grade {mine['first'] / theirs['first']:.2f} wall, "
              f"{mine['first cpu'] / theirs['first cpu']:.2f} CPU; second grade "
              f"{mine['second'] / theirs['second']:.2f} wall")


def students(trees: dict[str, Path], seals: dict[str, Path], tmp_path: Path, size: int) -> None:
    """First grades of ``size`` students' submissions on each tree, alternating; median CPU-s per submission."""
    from bench_batch import make_students

    made = make_students(tmp_path / "students", size)
    used: dict[str, list[float]] = {name: [] for name in trees}
    for i, line in enumerate(made):
        submission = tmp_path / "students" / line.split(":")[0]
        for name in in_turn(trees, i):
            cache = tmp_path / "cache"
            used[name].append(grade(trees[name], seals[name], cache, submission)[1])
            shutil.rmtree(cache, ignore_errors=True)
        print("  " + line.split(":")[0] + ": " + ", ".join(f"{name} {used[name][-1]:.1f} CPU-s" for name in trees))
    medians = {name: statistics.median(v) for name, v in used.items()}
    print("students' first grades, median CPU-s per submission: "
          + ", ".join(f"{name} {m:.1f}" for name, m in medians.items()))
    if len(trees) == 2:
        mine, theirs = medians.values()
        print(f"ratio: {mine / theirs:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--against", metavar="REV", help="also time the grader at this git revision, alternating")
    parser.add_argument("--without-avx2", action="store_true",
                        help="a CPU outside the portable class too (no x86-64 with AVX2): no sealed entry loads")
    parser.add_argument("--students", type=int, default=0, metavar="N",
                        help="then first grades of N students' whole submissions on each tree")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-first-") as tmp:
        tmp_path = Path(tmp)
        trees = {"this checkout": ROOT}
        if args.against:
            other = tmp_path / "against"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(other), args.against],
                           check=True)
            trees[f"at {args.against}"] = other
        try:
            seals = {}
            for name, tree in trees.items():
                seals[name] = tmp_path / f"seal-{len(seals)}"
                removed, kept = seal_elsewhere(tree, seals[name], portable=not args.without_avx2)
                print(f"{name}: its seal as another CPU finds it: {removed} compiled entries removed, {kept} kept")
            print(f"load average before: {os.getloadavg()[0]:.2f}")
            if args.repeats:
                references(trees, seals, tmp_path, args.repeats, args.against)
            if args.students:
                students(trees, seals, tmp_path, args.students)
            print(f"load average after: {os.getloadavg()[0]:.2f}")
        finally:
            if args.against:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tmp_path / "against")],
                               check=False)


if __name__ == "__main__":
    main()
