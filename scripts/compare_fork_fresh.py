"""Grade the whole corpus twice, forked from the fork server and in fresh interpreters, and compare the verdicts.

Every submission in ``tests/corpus`` (correct variants, mutants, hostile
submissions and whole submissions) is graded as its test grades it: the
reference files with one module replaced, on that module's exercise (hostile
ones beside a bystander exercise, as ``tests/test_hostile.py`` does). Each
check's status, score, named mistake and hint, each run's ending, and each
message (except ex4's, which quote measured times) must agree. Prints one line
per difference and a summary; exits 1 when anything differs.

    python scripts/compare_fork_fresh.py [--jobs 2] [--only mutants,hostile]

The test suite compares a sample both ways (``tests/test_forkserver.py``);
this is the whole corpus, too slow for every run of the suite.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.engine import Options, grade  # noqa: E402
from grader.sandbox import offered  # noqa: E402
from grader.sandbox import Limits  # noqa: E402
from grader.submission import MODULES  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"
EXERCISE_OF = {module: exercise for exercise, module in MODULES.items()}
KINDS = ("correct", "mutants", "hostile", "whole")


def cases(kinds: tuple[str, ...]) -> list[tuple[str, Path, dict[str, Path], tuple[str, ...] | None]]:
    """``(name, path, overrides, only)`` for every corpus submission of ``kinds``."""
    found = []
    for kind in kinds:
        if kind == "whole":
            for path in sorted((CORPUS / "correct" / "whole").iterdir()):
                if path.suffix in (".py", ".ipynb"):
                    found.append((f"whole/{path.name}", path, {}, None))
            continue
        for path in sorted((CORPUS / kind).glob("*.py")):
            module = path.stem.split("__")[0]
            exercise = EXERCISE_OF[module]
            only = (exercise,) if kind != "hostile" else (exercise, "ex3" if exercise != "ex3" else "ex5")
            found.append((f"{kind}/{path.stem}", path, {module: path}, only))
    return found


def verdicts(report) -> dict[str, tuple]:
    checks = {c.id: (c.status, c.score, c.mistake, c.hint, "" if c.exercise == "ex4" else c.message)
              for c in report.checks}
    runs = {f"run {exercise}": (run.status,) for exercise, run in report.runs.items()}
    return {**checks, **runs}


def grade_both(case, cache: Path) -> tuple[str, list[str], float]:
    name, path, overrides, only = case
    with tempfile.TemporaryDirectory(prefix="fork-vs-fresh-") as tmp:
        target = path
        if overrides:
            target = Path(tmp) / "submission"
            target.mkdir()
            for source in (ROOT / "reference").glob("ex*.py"):
                shutil.copy(source, target / source.name)
            for module, replacement in overrides.items():
                shutil.copy(replacement, target / f"{module}.py")
        started = time.monotonic()
        results = {}
        for fork in (True, False):
            options = Options(only=only or Options.only, cache_dir=cache, jobs=1,
                              limits=Limits(timeout=30, fork=fork))
            results[fork] = verdicts(grade(target, options))
    forked, fresh = results[True], results[False]
    problems = [f"{name}: {key}: forked {forked.get(key)!r} != fresh {fresh.get(key)!r}"
                for key in sorted(set(forked) | set(fresh)) if forked.get(key) != fresh.get(key)]
    return name, problems, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=2, help="submissions graded at once (each both ways)")
    parser.add_argument("--only", default=",".join(KINDS), help=f"corpus parts, of {', '.join(KINDS)}")
    args = parser.parse_args()
    if not offered().processes:
        print(f"this machine cannot run the fork server ({offered().describe()}): nothing to compare")
        return 0
    kinds = tuple(k for k in args.only.split(",") if k)
    todo = cases(kinds)
    started = time.monotonic()
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="fork-vs-fresh-cache-") as cache, \
            ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, found, seconds in pool.map(lambda case: grade_both(case, Path(cache)), todo):
            print(f"{'DIFFER' if found else 'same  '} {name} ({seconds:.1f} s)", flush=True)
            problems += found
    for line in problems:
        print(line)
    print(f"{len(todo)} submissions graded forked and fresh in {time.monotonic() - started:.0f} s: "
          f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
