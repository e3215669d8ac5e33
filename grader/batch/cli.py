"""``python -m grader batch`` and ``python -m grader merge``: parse, then call :mod:`grader.batch`.

Exit status: 0 when the batch finished, whatever the grades and statuses; 2
when it could not run (bad arguments, an output folder it must not use, a
reference that fails); 130 when interrupted (Ctrl-C or SIGTERM), after
writing what was graded so far: the same command resumes.
"""

from __future__ import annotations

import argparse
import signal
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from grader.batch.grading import Settings
from grader.batch.outputs import STUDENT_FORMATS, validate_formats
from grader.cli import absolute, add_seed_option, seed_from
from grader.inputs import SeedError
from grader.exercises import IDS as EXERCISES
from grader.observations import Limits

EXIT_OK, EXIT_GRADER, EXIT_INTERRUPTED = 0, 2, 130


def _exercises(text: str) -> tuple[str, ...]:
    chosen = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [c for c in chosen if c not in EXERCISES]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"unknown exercise(s) {unknown}; choose from {', '.join(EXERCISES)}")
    return tuple(e for e in EXERCISES if e in chosen)


def _shard(text: str) -> tuple[int, int]:
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--shard takes K/N, e.g. 2/8, not {text!r}") from exc
    if not (n >= 1 and 1 <= k <= n):
        raise argparse.ArgumentTypeError(f"shard {k}/{n} does not exist; use K/N with 1 <= K <= N")
    return k, n


def _formats(text: str) -> tuple[str, ...]:
    try:
        return validate_formats(part.strip() for part in text.split(",") if part.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def _positive(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m grader", description="Grade a whole class.")
    commands = parser.add_subparsers(dest="command", required=True)
    batch = commands.add_parser(
        "batch", help="grade every submission in a folder",
        description="Grade every submission in SUBMISSIONS_DIR (one sub-folder, .py, .ipynb or .zip per student, "
                    "named by student id) into OUT_DIR: grades.csv, students/<id>/, summary.md, summary.html. "
                    "Re-running resumes: only new or changed submissions are graded.",
        epilog="Exit status: 0 when the batch finished (whatever the grades); 2 when it could not run; "
               "130 when interrupted (run the same command again to resume).")
    batch.add_argument("submissions", type=Path, metavar="SUBMISSIONS_DIR")
    batch.add_argument("--out", type=Path, required=True, metavar="OUT_DIR",
                       help="output folder (created; the batch writes nowhere else)")
    batch.add_argument("--jobs", type=int, default=0, metavar="N",
                       help="submissions graded at once (default: one per CPU core)")
    batch.add_argument("--timeout", type=_positive, default=Limits.timeout, metavar="S",
                       help="wall-clock limit per exercise run, in seconds (default %(default)s)")
    batch.add_argument("--memory", type=_positive, default=Limits.memory_bytes / 2**30, metavar="GB",
                       help="address-space limit per exercise run, in GiB (default %(default)s)")
    batch.add_argument("--only", type=_exercises, default=EXERCISES, metavar="EX[,EX...]",
                       help=f"grade only these exercises ({', '.join(EXERCISES)})")
    batch.add_argument("--force", action="store_true", help="grade everything again, even unchanged submissions")
    batch.add_argument("--shard", type=_shard, default=(1, 1), metavar="K/N",
                       help="grade only slice K of N (stable per student id); combine with 'merge'")
    batch.add_argument("--formats", type=_formats, default=validate_formats(()), metavar="FMT[,FMT...]",
                       help=f"per-student files besides report.json and feedback.md "
                            f"({', '.join(STUDENT_FORMATS)})")
    batch.add_argument("--reference", type=Path, metavar="DIR",
                        help="what to compare with: the reference solutions, or a sealed reference (python -m "
                             "grader seal)")
    batch.add_argument("--no-cache", action="store_true",
                       help="recompute the reference once for this batch (kept in OUT_DIR) instead of using "
                            "the user cache")
    add_seed_option(batch)
    batch.add_argument("--max-archive-mb", type=_positive, default=Settings.max_archive_mb, metavar="MB",
                       help="refuse a .zip that unpacks to more than this (default %(default)s)")
    batch.add_argument("--submission-timeout", type=_positive, metavar="S",
                       help="stop grading one submission after S seconds in all (default: every exercise's "
                            "--timeout in turn, plus 120)")
    batch.add_argument("--dask", metavar="ADDRESS",
                       help="grade each submission as a task on the Dask distributed cluster whose scheduler is at "
                            'ADDRESS (e.g. tcp://10.0.0.5:8786); needs pip install "jax-autograder[dask]"')
    batch.add_argument("--allow-unconfined", action="store_true",
                       help="grade even where exercise runs cannot be fully confined (Landlock and seccomp); "
                            "a submission could then read or change what it must not")
    batch.add_argument("--in-process", action="store_true",
                       help="grade in threads of this process instead of in worker processes "
                            "(less isolation; for debugging)")
    batch.add_argument("--quiet", "-q", action="store_true", help="print only the final line")

    merge = commands.add_parser(
        "merge", help="combine the output folders of --shard runs",
        description="Combine the OUT_DIRs of 'batch --shard K/N' runs into one grades.csv, students/ and summary.")
    merge.add_argument("shards", type=Path, nargs="+", metavar="SHARD_OUT_DIR")
    merge.add_argument("--out", type=Path, required=True, metavar="DIR", help="where to write the merged outputs")
    merge.add_argument("--formats", type=_formats, default=validate_formats(()), metavar="FMT[,FMT...]",
                       help=f"per-student files besides report.json and feedback.md ({', '.join(STUDENT_FORMATS)})")
    merge.add_argument("--partial", action="store_true",
                       help="merge even when shards are missing or unfinished (their students are pending)")
    return parser


@contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """A job scheduler's SIGTERM stops the batch like Ctrl-C: outputs written, resumable."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    return _batch(args) if args.command == "batch" else _merge(args)


def _batch(args: argparse.Namespace) -> int:
    from grader.batch.progress import Progress
    from grader.batch.runner import BatchConfig, jobs_or_cores, run_batch
    from grader.batch.state import OutDirError
    from grader.batch.discover import InvalidSubmission
    from grader.batch.distributed import DaskUnavailable
    from grader.sandbox import ConfinementRefused
    from grader.reference import ReferenceRunError
    from grader.rubric import RubricError

    if args.jobs < 0:
        print("error: --jobs must be 0 (one per core) or more", file=sys.stderr)
        return EXIT_GRADER
    try:
        seed = seed_from(args)
    except SeedError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    settings = Settings(only=args.only, timeout=args.timeout, memory_gb=args.memory,
                        reference_dir=str(absolute(args.reference)) if args.reference else None,
                        max_archive_mb=args.max_archive_mb, require_confinement=not args.allow_unconfined,
                        seed=seed)
    config = BatchConfig(submissions=absolute(args.submissions), out=absolute(args.out), settings=settings, jobs=args.jobs,
                         force=args.force, shard=args.shard, formats=args.formats, isolate=not args.in_process,
                         submission_timeout=args.submission_timeout, fresh_reference=args.no_cache, dask=args.dask)
    progress = Progress(jobs=jobs_or_cores(args.jobs), quiet=args.quiet)
    try:
        with _sigterm_interrupts():
            result = run_batch(config, progress)
    except (OutDirError, InvalidSubmission, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    except (ReferenceRunError, RubricError, ConfinementRefused, DaskUnavailable) as exc:
        print(f"grader error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    except KeyboardInterrupt:
        print("interrupted before grading started", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(f"grades: {args.out / 'grades.csv'}; summary: {args.out / 'summary.html'}")
    if result.interrupted:
        print("interrupted: run the same command again to finish (graded submissions are kept)", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK


def _merge(args: argparse.Namespace) -> int:
    from grader.batch.merge import MergeError, merge
    from grader.batch.state import OutDirError

    try:
        outcomes = merge(args.shards, args.out, args.formats, partial=args.partial)
    except (MergeError, OutDirError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    print(f"merged {len(outcomes)} students from {len(args.shards)} shard(s) into {args.out / 'grades.csv'}")
    return EXIT_OK
