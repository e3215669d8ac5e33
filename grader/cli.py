"""Command line: ``python -m grader [SUBMISSION] [--json PATH] [options]``.

Parses arguments and calls importable functions; exits 0 whenever grading
finished (whatever the score), 1 when ``--fail-under`` says so, 2 when the
grader could not run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from grader.engine import Options, grade
from grader.reference import ReferenceRunError
from grader.report import WRITERS
from grader.report.terminal import print_report
from grader.results import EXERCISES
from grader.rubric import RubricError
from grader.sandbox import Limits
from grader.submission import SubmissionError

EXIT_OK, EXIT_BELOW, EXIT_GRADER = 0, 1, 2


def _exercises(text: str) -> tuple[str, ...]:
    chosen = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [c for c in chosen if c not in EXERCISES]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"unknown exercise(s) {unknown}; choose from {', '.join(EXERCISES)}")
    return chosen


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m grader",
        description="Grade the exercises of the lesson 'Introduction to JAX'.",
        epilog="Exit status: 0 when grading finished, 1 when the score is below --fail-under, "
               "2 when the grader could not run.",
    )
    parser.add_argument("submission", nargs="?", default="exercises",
                        help="a folder with the five exercise files, a .py file or an .ipynb notebook "
                             "(default: exercises/)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report to PATH")
    parser.add_argument("--only", type=_exercises, metavar="EX[,EX...]",
                        help=f"grade only these exercises ({', '.join(EXERCISES)})")
    parser.add_argument("--verbose", "-v", action="store_true", help="also list passing checks and timings")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the total")
    parser.add_argument("--timeout", type=float, default=Limits.timeout, metavar="S",
                        help="wall-clock limit per exercise run, in seconds (default %(default)s)")
    parser.add_argument("--memory", type=float, default=Limits.memory_bytes / 2**30, metavar="GB",
                        help="address-space limit per exercise run, in GiB (default %(default)s)")
    parser.add_argument("--jobs", type=int, default=0, metavar="N",
                        help="exercise runs at once (default: one per CPU core)")
    parser.add_argument("--plots", type=Path, metavar="DIR",
                        help="save training-loss and gradient-norm plots (PNG) to DIR")
    parser.add_argument("--reference", type=Path, metavar="DIR", help="the reference solutions to compare with")
    parser.add_argument("--no-cache", action="store_true", help="recompute the reference observations")
    parser.add_argument("--fail-under", type=float, metavar="N",
                        help="exit with status 1 when the score is below N (for CI)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.timeout <= 0 or args.memory <= 0 or args.jobs < 0:
        print("error: --timeout and --memory must be positive and --jobs non-negative", file=sys.stderr)
        return EXIT_GRADER
    options = Options(
        only=args.only or EXERCISES,
        limits=Limits(timeout=args.timeout, memory_bytes=int(args.memory * 2**30)),
        jobs=args.jobs,
        reference_dir=args.reference,
        use_cache=not args.no_cache,
        plots_dir=args.plots,
    )
    try:
        report = grade(args.submission, options)
    except SubmissionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    except (ReferenceRunError, RubricError) as exc:
        print(f"grader error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    if args.quiet:
        print(f"{report.score:g} / {report.max_score:g}")
    else:
        print_report(report, verbose=args.verbose)
    if args.json:
        WRITERS["json"](report, args.json)
        if not args.quiet:
            print(f"JSON report written to {args.json}")
    if args.fail_under is not None and report.score < args.fail_under:
        print(f"score {report.score:g} is below --fail-under {args.fail_under:g}", file=sys.stderr)
        return EXIT_BELOW
    return EXIT_OK
