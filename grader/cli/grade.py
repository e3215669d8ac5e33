"""``python -m grader [SUBMISSION] [--json PATH] [options]``: grade one submission.

Exits 0 whenever grading finished (whatever the score), 1 when
``--fail-under`` says so, 2 when the grader could not run. One run writes
every report format asked for (``--json``, ``--classroom``, ``--gradescope``,
``--junit``, ``--markdown``, ``--classroom50``, ``--prairielearn``) from the
same :class:`~grader.results.Report`. When grading cannot run, the formats
asked for are still written, every check marked ``error`` with the reason, so
a platform shows why instead of a missing file; the exit status is still 2.
``--watch`` hands the same configuration to :mod:`grader.cli.watch`.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rich.console import Console

from grader.cli import options as opts
from grader.cli.common import (EXIT_BELOW, EXIT_GRADER, EXIT_OK, default_submission, inert_workflow_commands,
                               write_reports)
from grader.engine import failure_report, grade
from grader.inputs import SeedError
from grader.sandbox import ConfinementRefused
from grader.progress import ExerciseProgress
from grader.expected import ReferenceRunError
from grader.report.classroom50 import Classroom50Error, identity_from_env
from grader.report.terminal import print_report
from grader.exercises import IDS as EXERCISES
from grader.rubric import RubricError
from grader.submission import SubmissionError

GRADESCOPE_ZIP = "gradescope-zip"
#: Report formats written to a file: (writer name in WRITERS, argparse dest, what the user is told).
FILE_FORMATS = (
    ("json", "json", "JSON report"),
    ("gradescope", "gradescope", "Gradescope results"),
    ("junit", "junit", "JUnit XML"),
    ("markdown", "markdown", "Markdown report"),
    ("classroom50", "classroom50", "Classroom 50 result.json"),
    ("prairielearn", "prairielearn", "PrairieLearn results.json"),
)
NO_GITHUB_OUTPUT = (
    "--classroom writes the step output `result` to the file named by $GITHUB_OUTPUT, which is not set. "
    "Run it inside a GitHub Actions step (see docs/integrations.md), or set GITHUB_OUTPUT=some-file to try it locally."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m grader",
        description="Grade the exercises of the lesson 'Introduction to JAX'.",
        epilog="Exit status: 0 when grading finished, whatever the score; 1 when the score is below "
               "--fail-under; 2 when the grader could not run (the reports asked for are still written, saying why). "
               f"'python -m grader {GRADESCOPE_ZIP} OUT.zip' builds the Gradescope autograder zip; "
               "'python -m grader init DIR' writes the exercise stubs; 'python -m grader seal OUT' seals the "
               "reference's observations; 'python -m grader explain CHECK_ID [SUBMISSION]' explains one check "
               "and how to reproduce it.",
    )
    parser.set_defaults(command="grade")
    parser.add_argument("submission", nargs="?",
                        help="a folder with the five exercise files, a .py file or an .ipynb notebook "
                             "(default: exercises/, else the working folder if it holds the exercise files)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report to PATH")
    parser.add_argument("--classroom", action="store_true",
                        help="append the GitHub Classroom result (step output `result`, for "
                             "classroom-resources/autograding-grading-reporter@v1) to the file named by $GITHUB_OUTPUT")
    parser.add_argument("--gradescope", type=Path, metavar="PATH",
                        help="write Gradescope's results.json to PATH")
    parser.add_argument("--junit", type=Path, metavar="PATH",
                        help="write JUnit XML to PATH (one testsuite per exercise, one testcase per check)")
    parser.add_argument("--markdown", type=Path, metavar="PATH",
                        help='write the report as Markdown to PATH (e.g. "$GITHUB_STEP_SUMMARY"); replaces PATH')
    parser.add_argument("--classroom50", type=Path, metavar="PATH",
                        help="write Classroom 50's result.json (classroom50/result/v1) to PATH; the identity comes "
                             "from the runner's environment ($CLASSROOM, $ASSIGNMENT, $SUBMISSION_TAG, $COMMIT_URL, "
                             "$RELEASE_URL)")
    parser.add_argument("--prairielearn", type=Path, metavar="PATH",
                        help="write PrairieLearn's external-grader results.json to PATH (the PNGs in the folder "
                             "'plots' beside it become its images)")
    opts.add(parser, "only", "verbose", "quiet", "timeout", "memory", "jobs", "plots", "reference", "no_cache",
             "require_confinement", "allow_unconfined", "seed")
    parser.add_argument("--watch", action="store_true",
                        help="grade, then re-grade on every save the exercises whose files changed (Ctrl-C stops)")
    parser.add_argument("--fail-under", type=float, metavar="N",
                        help="exit with status 1 when the score is below N points (for CI); the reports are "
                             "written first")
    return parser


def outputs(args: argparse.Namespace) -> list[tuple[str, Path, str]]:
    """``(writer, destination, label)`` for every format asked for; ``--classroom`` resolves $GITHUB_OUTPUT."""
    chosen = [(writer, getattr(args, dest), label) for writer, dest, label in FILE_FORMATS if getattr(args, dest)]
    if args.classroom:
        chosen.append(("classroom", Path(os.environ["GITHUB_OUTPUT"]), "GitHub Classroom result ($GITHUB_OUTPUT)"))
    return chosen


def parse(argv: list[str]) -> argparse.Namespace:
    """The parsed command line, SUBMISSION filled in with its default."""
    args = build_parser().parse_args(argv)
    args.submission = args.submission or default_submission()
    return args


def main(argv: list[str]) -> int:
    args = parse(argv)
    if args.classroom and not os.environ.get("GITHUB_OUTPUT"):
        print(f"error: {NO_GITHUB_OUTPUT}", file=sys.stderr)
        return EXIT_GRADER
    if args.classroom50:
        try:
            identity_from_env()
        except Classroom50Error as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_GRADER
    try:
        options = opts.configure(args)
    except SeedError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    chosen = outputs(args)
    if args.watch:
        from grader.cli.watch import run

        return run(args, options, chosen)
    try:
        tasks = tuple(e for e in EXERCISES if e in options.only)
        with ExerciseProgress(tasks, Console(stderr=True), enabled=not args.quiet) as shown:
            report = grade(args.submission, options, on_run=shown.update)
    except (SubmissionError, ReferenceRunError, RubricError, ConfinementRefused) as exc:
        students_fault = isinstance(exc, SubmissionError)
        with inert_workflow_commands():
            print(f"{'error' if students_fault else 'grader error'}: {exc}", file=sys.stderr)
            if chosen:
                reason = f"{'the submission cannot be graded' if students_fault else 'the grader could not run'}: {exc}"
                write_reports(failure_report(str(args.submission), options.only, reason, students_fault), chosen,
                              args.quiet)
        return EXIT_GRADER
    with inert_workflow_commands():
        if args.quiet:
            print(f"{report.score:g} / {report.max_score:g}")
        else:
            print_report(report, verbose=args.verbose)
        if not write_reports(report, chosen, args.quiet):
            return EXIT_GRADER
    if args.fail_under is not None and report.score < args.fail_under:
        print(f"score {report.score:g} is below --fail-under {args.fail_under:g}", file=sys.stderr)
        return EXIT_BELOW
    return EXIT_OK
