"""``python -m grader batch`` and ``python -m grader merge``: parse, then call :mod:`grader.batch`.

Exit status: 0 when the batch finished, whatever the grades and statuses; 2
when it could not run (bad arguments, an output folder it must not use, a
reference that fails); 130 when interrupted (Ctrl-C or SIGTERM), after
writing what was graded so far: the same command resumes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from grader.batch.outputs import STUDENT_FORMATS, validate_formats
from grader.cli import options as opts
from grader.cli.common import EXIT_GRADER, EXIT_INTERRUPTED, EXIT_OK, sigterm_interrupts
from grader.config import MAX_ARCHIVE_MB
from grader.inputs import SeedError


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
    batch.set_defaults(require_confinement=True)  # an official grade: --allow-unconfined cancels it
    batch.add_argument("submissions", type=Path, metavar="SUBMISSIONS_DIR")
    batch.add_argument("--out", type=Path, required=True, metavar="OUT_DIR",
                       help="output folder (created; the batch writes nowhere else)")
    opts.add(batch, "jobs", "timeout", "memory", "only",
             jobs="submissions graded at once (default: one per CPU core)")
    batch.add_argument("--force", action="store_true", help="grade everything again, even unchanged submissions")
    batch.add_argument("--shard", type=_shard, default=(1, 1), metavar="K/N",
                       help="grade only slice K of N (stable per student id); combine with 'merge'")
    batch.add_argument("--formats", type=_formats, default=validate_formats(()), metavar="FMT[,FMT...]",
                       help=f"per-student files besides report.json and feedback.md "
                            f"({', '.join(STUDENT_FORMATS)})")
    opts.add(batch, "reference", "no_cache", "seed",
             no_cache="recompute the reference once for this batch (kept in OUT_DIR) instead of using the user cache")
    batch.add_argument("--max-archive-mb", type=opts.positive, default=MAX_ARCHIVE_MB, metavar="MB",
                       help="refuse a .zip that unpacks to more than this (default %(default)s)")
    batch.add_argument("--submission-timeout", type=opts.positive, metavar="S",
                       help="stop grading one submission after S seconds in all (default: every exercise's "
                            "--timeout in turn, plus 120)")
    batch.add_argument("--dask", metavar="ADDRESS",
                       help="grade each submission as a task on the Dask distributed cluster whose scheduler is at "
                            'ADDRESS (e.g. tcp://10.0.0.5:8786); needs pip install "jax-autograder[dask]"')
    opts.add(batch, "allow_unconfined",
             allow_unconfined="grade even where exercise runs cannot be fully confined (Landlock and seccomp); "
                              "a submission could then read or change what it must not")
    batch.add_argument("--in-process", action="store_true",
                       help="grade in threads of this process instead of in worker processes "
                            "(less isolation; for debugging)")
    opts.add(batch, "quiet", quiet="print only the final line")

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


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    return _batch(args) if args.command == "batch" else _merge(args)


def _batch(args: argparse.Namespace) -> int:
    from grader.batch.progress import Progress
    from grader.batch.pool import jobs_or_cores
    from grader.batch.runner import run_batch
    from grader.batch.state import OutDirError
    from grader.batch.discover import InvalidSubmission
    from grader.batch.distributed import DaskUnavailable
    from grader.sandbox import ConfinementRefused
    from grader.expected import ReferenceRunError
    from grader.rubric import RubricError

    try:
        options = opts.configure(args)
    except SeedError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    progress = Progress(jobs=jobs_or_cores(options.batch.jobs), quiet=args.quiet)
    try:
        with sigterm_interrupts():
            result = run_batch(options, progress)
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
