"""``python -m grader explain CHECK_ID [SUBMISSION]``: one check in full, and how to reproduce its failure.

Grades only the check's exercise, then prints the check's message and hint,
the failing case's inputs (names, shapes, kinds), the first values that
differ from the reference, and a snippet to paste into Python
(:mod:`grader.reproduce`).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from grader.cli import options as opts
from grader.cli.common import EXIT_GRADER, EXIT_OK, default_submission


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m grader explain",
        description="Explain one check of a submission, with a Python snippet that reproduces its failure.")
    parser.set_defaults(command="explain")
    parser.add_argument("check_id", metavar="CHECK_ID", help="a check id, e.g. ex3.deep (python -m grader -v lists them)")
    parser.add_argument("submission", nargs="?",
                        help="a folder, a .py file or an .ipynb notebook (default: exercises/, else the working "
                             "folder if it holds the exercise files)")
    opts.add(parser, "timeout", "reference", timeout="wall-clock limit per exercise run",
             reference="the reference solutions to compare with")
    parser.set_defaults(timeout=None)
    return parser


def main(argv: list[str]) -> int:
    from grader.engine import CHECKS, grade
    from grader.expected import ReferenceRunError
    from grader.report._common import inert
    from grader.reproduce import explain_text
    from grader.rubric import RubricError
    from grader.submission import SubmissionError

    args = build_parser().parse_args(argv)
    known = {c.id: c for c in CHECKS}
    if args.check_id not in known:
        print(f"error: unknown check {args.check_id!r}; the checks are: {', '.join(known)}", file=sys.stderr)
        return EXIT_GRADER
    options = replace(opts.configure(args), only=(known[args.check_id].exercise,))
    try:
        report = grade(args.submission or default_submission(), options)
    except (SubmissionError, ReferenceRunError, RubricError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    check = next(c for c in report.checks if c.id == args.check_id)
    print(inert(explain_text(check)))  # the message quotes the student's error: printed inert
    return EXIT_OK
